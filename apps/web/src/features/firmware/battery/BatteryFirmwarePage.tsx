import '../firmware-list.css';
import './battery-firmware.css';
import { useQuery } from '@tanstack/react-query';
import { Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PageProps } from '../../../app/page-props';
import { useSession } from '../../../app/session';
import { PageTitle } from '../../../components/PageTitle';
import { registerTexts } from '../../../lib/feature-texts';
import { firmwareTexts } from '../firmware-texts';
import { BatteryFirmwareCard } from './BatteryFirmwareCard';
import { BatteryProductsCard } from './BatteryProductsCard';
import { BatteryTypeTree } from './BatteryTypeTree';
import { batteryKeys, fetchBatteryTypes } from './battery-api';
import { batteryTexts } from './battery-texts';

// The battery screens reuse the main library's words for the shared upload fields and columns.
registerTexts(firmwareTexts);
registerTexts(batteryTexts);

/**
 * The battery firmware library (/firmware/batt; issue 6, spec 02 §3 Firmware): the battery type tree on
 * the left (picking a type filters both lists), battery firmware and battery products on the right.
 * Platform administrators; editing needs firmware.battery.edit.
 */
export function BatteryFirmwarePage({ route }: PageProps) {
  const { t } = useTranslation();
  const { has } = useSession();
  const canEdit = has('firmware.battery.edit');
  const [selectedType, setSelectedType] = useState<number>();
  const types = useQuery({ queryKey: batteryKeys.types, queryFn: fetchBatteryTypes });
  const tree = types.data ?? [];
  // A type deleted meanwhile no longer filters.
  const known = selectedType !== undefined && tree.some((p) => p.id === selectedType || p.children.some((c) => c.id === selectedType));
  const filterType = known ? selectedType : undefined;

  return (
    <div className="sw-battery-firmware" data-testid="battery-firmware-page">
      <div>
        <PageTitle route={route} />
        <Typography.Text type="secondary">{t('batteryFirmware.intro')}</Typography.Text>
      </div>
      <div className="sw-battery-firmware-grid">
        <BatteryTypeTree tree={tree} loading={types.isPending} canEdit={canEdit} selected={filterType} onSelect={setSelectedType} />
        <div className="sw-battery-firmware-lists">
          <BatteryFirmwareCard tree={tree} canEdit={canEdit} batteryTypeId={filterType} />
          <BatteryProductsCard tree={tree} canEdit={canEdit} batteryTypeId={filterType} />
        </div>
      </div>
    </div>
  );
}
