import type { BatteryFirmwareFields, BatteryFirmwareRow, BatteryTypeNode } from '@sunward/contracts/battery-firmware';
import { useQuery } from '@tanstack/react-query';
import { Form, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { type FirmwareFormBase, FirmwareFormShell, trimmedTexts } from '../FirmwareFormShell';
import { useFirmwareRules } from '../form-rules';
import { secondaryTypeOptions } from './BatteryProductsCard';
import { batteryKeys, fetchBatteryProducts, saveBatteryFirmware, updateBatteryFirmware } from './battery-api';

type FormValues = FirmwareFormBase & { batteryTypeId?: number; batteryProductId?: number };

const fieldsOf = (values: FormValues): BatteryFirmwareFields => {
  const texts = trimmedTexts(values);
  return {
    ...texts,
    name: texts.name ?? '',
    swVersion: texts.swVersion ?? '',
    batteryTypeId: values.batteryTypeId ?? 0,
    batteryProductId: values.batteryProductId ?? 0,
    mode: values.mode,
  };
};

const LIBRARY = {
  uploadTitle: 'batteryFirmware.uploadTitle',
  idPrefix: 'battery-firmware',
  ownFields: ['batteryTypeId', 'batteryProductId'],
  versionType: () => 'battery' as const,
  fieldsOf,
  update: updateBatteryFirmware,
  upload: saveBatteryFirmware,
  invalidate: batteryKeys.all,
};

/**
 * Upload (a new battery image with its file) or edit (metadata only): a secondary battery type, then a
 * product of that type, beside the fields every firmware form has (FirmwareFormShell).
 */
export function BatteryFirmwareFormModal({
  tree,
  row,
  batteryTypeId,
  onClose,
}: {
  tree: BatteryTypeNode[];
  row?: BatteryFirmwareRow;
  batteryTypeId?: number;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<FormValues>();
  const chosenType = Form.useWatch('batteryTypeId', form) as number | undefined;
  const products = useQuery({
    queryKey: batteryKeys.products({ batteryTypeId: chosenType, size: 100 }),
    queryFn: () => fetchBatteryProducts({ batteryTypeId: chosenType, size: 100 }),
    enabled: chosenType !== undefined,
  });
  const secondaryIds = new Set(tree.flatMap((p) => p.children.map((c) => c.id)));
  const { selectRequired } = useFirmwareRules();

  const initial: Partial<FormValues> = row
    ? {
        name: row.name,
        batteryTypeId: row.batteryType.id,
        batteryProductId: row.batteryProduct.id,
        itemNumber: row.itemNumber ?? undefined,
        hwVersion: row.hwVersion ?? undefined,
        swVersion: row.swVersion,
        swCompatible: row.swCompatible ?? undefined,
        mode: row.mode,
        changeLog: row.changeLog ?? undefined,
      }
    : { mode: 'remote', batteryTypeId: batteryTypeId !== undefined && secondaryIds.has(batteryTypeId) ? batteryTypeId : undefined };

  return (
    <FirmwareFormShell<FormValues> form={form} row={row} initial={initial} library={LIBRARY} onClose={onClose}>
      <Form.Item name="batteryTypeId" label={t('batteryFirmware.fieldType')} rules={[selectRequired]}>
        <Select
          id="battery-firmware-type"
          placeholder={t('batteryFirmware.typePlaceholder')}
          options={secondaryTypeOptions(tree)}
          onChange={() => form.setFieldValue('batteryProductId', undefined)}
        />
      </Form.Item>
      <Form.Item name="batteryProductId" label={t('batteryFirmware.fieldProduct')} rules={[selectRequired]}>
        <Select
          id="battery-firmware-product"
          placeholder={t('batteryFirmware.productPlaceholder')}
          disabled={chosenType === undefined}
          loading={products.isFetching}
          notFoundContent={t('batteryFirmware.noProductOfType')}
          options={(products.data?.infos ?? []).map((p) => ({ value: p.id, label: `${p.name} (${p.model})` }))}
        />
      </Form.Item>
    </FirmwareFormShell>
  );
}
