import type { DeviceKind } from '@sunward/contracts/devices';
import { Segmented } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import type { PageProps } from '../../../app/page-props';
import { PageTitle } from '../../../components/PageTitle';
import { OTHER_KINDS } from '../device-format';
import { DeviceListPage } from './DeviceListPage';

/** /device/inverter: string, hybrid and micro inverters. */
export function InverterListPage({ route }: PageProps) {
  return <DeviceListPage kind="inverter" title={<PageTitle route={route} />} />;
}

/** /device/battery: battery packs, masters with their slaves. */
export function BatteryListPage({ route }: PageProps) {
  return <DeviceListPage kind="battery" title={<PageTitle route={route} />} />;
}

/** /device/other?kind=meter: meters, optimizers, weather stations, combiner boxes and heat pumps, one at a time. */
export function OtherDeviceListPage({ route }: PageProps) {
  const { t } = useTranslation();
  const [search, setSearch] = useSearchParams();
  const asked = search.get('kind');
  const kind: DeviceKind = OTHER_KINDS.find((k) => k === asked) ?? 'meter';
  const switcher = (
    <Segmented
      className="sw-device-kinds"
      value={kind}
      onChange={(value) => setSearch(new URLSearchParams({ kind: String(value) }), { replace: true })}
      options={OTHER_KINDS.map((k) => ({ value: k, label: t(`devices.kind.${k}`) }))}
      data-testid="device-kinds"
    />
  );
  return <DeviceListPage key={kind} kind={kind} title={<PageTitle route={route} />} header={switcher} />;
}
