import { Code } from '@sunward/contracts/codes';
import { LANGUAGE_TAGS } from '@sunward/contracts/languages';
import { OEM_LIMITS, type OemFields, type OemProject, THEME_COLOUR } from '@sunward/contracts/oem';
import { useQuery } from '@tanstack/react-query';
import { Form, Input, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../components/FormDialog';
import { refusalCode } from '../../lib/api-client';
import { currentLanguage } from '../../lib/i18n';
import { createOem, fetchOemCompanies, oemKeys, updateOem } from './api';

type Values = Omit<OemFields, 'iosUrl' | 'androidUrl'> & { iosUrl?: string; androidUrl?: string };

/** Creates or edits an OEM project: its company, names, domain (30-day rule), colour and store links. */
export function OemFormDialog({ project, onClose }: { project?: OemProject; onClose(): void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const [keyword, setKeyword] = useState('');
  const companies = useQuery({ queryKey: oemKeys.companies(keyword), queryFn: () => fetchOemCompanies(keyword) });
  const colour = Form.useWatch('themeColor', form);
  const nextChange = project ? new Date(project.nextDomainChange) : undefined;
  const locked = nextChange !== undefined && nextChange.getTime() > Date.now();
  const required = { required: true, whitespace: true, message: t('oem.required') };
  return (
    <FormDialog<Values>
      form={form}
      title={project ? t('oem.editTitle', { domain: project.domain }) : t('oem.addTitle')}
      okId="oem-submit"
      testId="oem-form"
      width={640}
      initialValues={
        project
          ? {
              companyId: project.companyId,
              customerName: project.customerName,
              domain: project.domain,
              appName: project.appName,
              themeColor: project.themeColor,
              iosUrl: project.iosUrl ?? '',
              androidUrl: project.androidUrl ?? '',
            }
          : { themeColor: '#E6002D' }
      }
      save={(values) => {
        const fields: OemFields = {
          ...values,
          domain: values.domain.trim(),
          iosUrl: values.iosUrl ?? '',
          androidUrl: values.androidUrl ?? '',
        };
        return project ? updateOem(project.id, fields) : createOem(fields);
      }}
      invalidate={[oemKeys.all]}
      fieldOf={(error) => {
        const code = refusalCode(error);
        if (code === Code.OEM_COMPANY_TAKEN || code === Code.NOT_FOUND) return 'companyId';
        if (code === Code.OEM_DOMAIN_EXISTS || code === Code.OEM_DOMAIN_FORMAT || code === Code.OEM_DOMAIN_CHANGE_TOO_SOON) return 'domain';
        return undefined;
      }}
      onClose={onClose}
    >
      <Form.Item name="companyId" label={t('oem.company')} rules={[{ required: true, message: t('oem.required') }]}>
        <Select
          id="oem-company"
          showSearch={{ filterOption: false, onSearch: setKeyword }}
          loading={companies.isFetching}
          disabled={!!project}
          placeholder={t('oem.companyPlaceholder')}
          options={[
            ...(project && !companies.data?.some((c) => c.id === project.companyId)
              ? [{ value: project.companyId, label: project.companyName }]
              : []),
            ...(companies.data ?? []).map((c) => ({ value: c.id, label: c.name })),
          ]}
        />
      </Form.Item>
      <Form.Item name="customerName" label={t('oem.customerName')} rules={[required, { max: OEM_LIMITS.nameMax }]}>
        <Input id="oem-customer" />
      </Form.Item>
      <Form.Item
        name="domain"
        label={t('oem.domain')}
        extra={
          locked && nextChange
            ? t('oem.domainLocked', { date: nextChange.toLocaleDateString(LANGUAGE_TAGS[currentLanguage()], { dateStyle: 'long' }) })
            : t('oem.domainHint')
        }
        rules={[required, { pattern: /^[a-z0-9]{1,10}$/, message: t('oem.domainFormat') }]}
      >
        <Input id="oem-domain" maxLength={OEM_LIMITS.domainMax + 1} />
      </Form.Item>
      <Form.Item name="appName" label={t('oem.appName')} rules={[required, { max: OEM_LIMITS.appNameMax }]}>
        <Input id="oem-app-name" />
      </Form.Item>
      <Form.Item
        name="themeColor"
        label={t('oem.themeColor')}
        rules={[required, { pattern: THEME_COLOUR, message: t('oem.colourFormat') }]}
      >
        <Input
          id="oem-colour"
          maxLength={7}
          style={{ width: 180 }}
          prefix={
            <span aria-hidden="true" className="sw-oem-swatch" style={{ background: THEME_COLOUR.test(colour ?? '') ? colour : '#fff' }} />
          }
        />
      </Form.Item>
      <Form.Item name="iosUrl" label={t('oem.iosUrl')} rules={[{ type: 'url', message: t('oem.urlFormat') }]}>
        <Input id="oem-ios" placeholder="https://apps.apple.com/…" />
      </Form.Item>
      <Form.Item name="androidUrl" label={t('oem.androidUrl')} rules={[{ type: 'url', message: t('oem.urlFormat') }]}>
        <Input id="oem-android" placeholder="https://play.google.com/…" />
      </Form.Item>
    </FormDialog>
  );
}
