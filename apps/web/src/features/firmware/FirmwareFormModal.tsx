import {
  FIRMWARE_LIMITS,
  type FirmwareFields,
  type FirmwareRow,
  type FirmwareType,
  LIBRARY_FIRMWARE_TYPES,
} from '@sunward/contracts/firmware';
import { useQuery } from '@tanstack/react-query';
import { Form, type FormInstance, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TextField } from '../../components/FormDialog';
import { fetchFirmwareCompanies, firmwareKeys, updateFirmware, uploadFirmware } from './api';
import { type FirmwareFormBase, FirmwareFormShell, trimmedTexts } from './FirmwareFormShell';
import { useFirmwareRules } from './form-rules';

/** `companyId` 0 in the form: "All companies" (null on the wire). */
type FormValues = FirmwareFormBase & Pick<FirmwareFields, 'type' | 'manufacturer' | 'product'> & { companyId?: number };

const fieldsOf = (values: FormValues): FirmwareFields =>
  ({
    ...trimmedTexts(values),
    manufacturer: values.manufacturer?.trim() || undefined,
    product: values.product?.trim() || undefined,
    type: values.type,
    mode: values.mode,
    companyId: values.companyId ? values.companyId : null,
  }) as FirmwareFields;

const LIBRARY = {
  uploadTitle: 'firmware.uploadTitle',
  idPrefix: 'firmware',
  ownFields: ['type', 'manufacturer', 'product', 'companyId'],
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
        companyId: row.companyId ?? 0,
      }
    : { type: 'inverter', mode: 'remote', companyId: 0 };
  const [keyword, setKeyword] = useState('');
  const companies = useQuery({ queryKey: firmwareKeys.companies(keyword), queryFn: () => fetchFirmwareCompanies(keyword) });
  const listed = companies.data ?? [];
  // The company picked (or the row's) keeps its name in the field when the search is cleared and it is not in the
  // first page of names.
  const [picked, setPicked] = useState<{ id: number; name: string } | null>(
    row?.companyId && row.companyName ? { id: row.companyId, name: row.companyName } : null,
  );
  const current = picked && !listed.some((c) => c.id === picked.id) ? [picked] : [];

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
      <Form.Item name="companyId" label={t('firmware.fieldCompany')} htmlFor="firmware-company">
        <Select
          id="firmware-company"
          aria-label={t('firmware.fieldCompany')}
          showSearch
          filterOption={false}
          onSearch={setKeyword}
          onChange={(id: number) => {
            const company = listed.find((c) => c.id === id);
            if (company) setPicked(company);
          }}
          loading={companies.isFetching}
          placeholder={t('firmware.companySearch')}
          options={[
            { value: 0, label: t('firmware.allCompanies') },
            ...[...current, ...listed].map((c) => ({ value: c.id, label: c.name })),
          ]}
        />
      </Form.Item>
    </FirmwareFormShell>
  );
}
