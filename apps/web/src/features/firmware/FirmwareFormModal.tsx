import {
  FIRMWARE_LIMITS,
  type FirmwareFields,
  type FirmwareRow,
  type FirmwareType,
  LIBRARY_FIRMWARE_TYPES,
} from '@sunward/contracts/firmware';
import { Form, type FormInstance, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { TextField } from '../../components/FormDialog';
import { firmwareKeys, updateFirmware, uploadFirmware } from './api';
import { type FirmwareFormBase, FirmwareFormShell, trimmedTexts } from './FirmwareFormShell';
import { useFirmwareRules } from './form-rules';

type FormValues = FirmwareFormBase & Pick<FirmwareFields, 'type' | 'manufacturer' | 'product'>;

const fieldsOf = (values: FormValues): FirmwareFields =>
  ({
    ...trimmedTexts(values),
    manufacturer: values.manufacturer?.trim() || undefined,
    product: values.product?.trim() || undefined,
    type: values.type,
    mode: values.mode,
  }) as FirmwareFields;

const LIBRARY = {
  uploadTitle: 'firmware.uploadTitle',
  idPrefix: 'firmware',
  ownFields: ['type', 'manufacturer', 'product'],
  versionType: (form: FormInstance<FormValues>) => form.getFieldValue('type') as FirmwareType | undefined,
  fieldsOf,
  update: updateFirmware,
  upload: uploadFirmware,
  invalidate: firmwareKeys.all,
};

/**
 * Upload (a new gateway or inverter image with its file) or edit (metadata only) in the main library:
 * the image's type, maker and product beside the fields every firmware form has (FirmwareFormShell).
 */
export function FirmwareFormModal({ row, onClose }: { row?: FirmwareRow; onClose(): void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<FormValues>();
  const { required, selectRequired, max } = useFirmwareRules();

  const initial: Partial<FormValues> = row
    ? {
        name: row.name,
        manufacturer: row.manufacturer,
        product: row.product,
        itemNumber: row.itemNumber ?? undefined,
        hwVersion: row.hwVersion ?? undefined,
        swVersion: row.swVersion,
        swCompatible: row.swCompatible ?? undefined,
        // The main library holds gateway and inverter images only (battery images have their own form).
        type: row.type === 'gateway' ? 'gateway' : 'inverter',
        mode: row.mode,
        changeLog: row.changeLog ?? undefined,
      }
    : { type: 'inverter', mode: 'remote' };

  return (
    <FirmwareFormShell<FormValues> form={form} row={row} initial={initial} library={LIBRARY} onClose={onClose}>
      <Form.Item name="type" label={t('firmware.fieldType')} rules={[selectRequired]}>
        <Select
          onChange={() => void form.validateFields(['swVersion']).catch(() => undefined)}
          options={LIBRARY_FIRMWARE_TYPES.map((type) => ({
            value: type,
            label: t(type === 'gateway' ? 'firmware.typeGateway' : 'firmware.typeInverter'),
          }))}
        />
      </Form.Item>
      <TextField
        name="manufacturer"
        label={t('firmware.fieldManufacturer')}
        id="firmware-manufacturer"
        rules={[required, max(FIRMWARE_LIMITS.textMax)]}
      />
      <TextField name="product" label={t('firmware.fieldProduct')} id="firmware-product" rules={[required, max(FIRMWARE_LIMITS.textMax)]} />
    </FirmwareFormShell>
  );
}
