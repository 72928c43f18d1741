import { Code } from '@sunward/contracts/codes';
import { VERSION_LIMITS, VERSION_NUMBER, type VersionRow } from '@sunward/contracts/versions';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Form, Input, Modal, Tabs } from 'antd';
import type { Rule } from 'antd/es/form';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiCallError, fieldErrors, refusalMessage } from '../../lib/api-client';
import { checkVersion, saveVersion, versionKeys } from './api';
import { RichText } from './RichText';
import { RichTextEditor } from './RichTextEditor';

interface FormValues {
  version: string;
  zhContent: string;
  enContent: string;
}

/** Text of rich content without its tags: empty means nothing to publish. */
const visibleText = (html: string | undefined) =>
  (html ?? '')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .trim();

/**
 * Publishes a version (number checked live: unique, above the newest) or edits one's notes. Notes are
 * written in a small rich-text editor in Chinese and English, with a preview as users will see them.
 */
export function VersionFormModal({ row, onClose }: { row?: VersionRow; onClose(): void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<FormValues>();
  const [refusal, setRefusal] = useState<string>();
  const zh = Form.useWatch('zhContent', form);
  const en = Form.useWatch('enContent', form);

  const content: Rule = {
    validator: async (_, value?: string) => {
      if (!visibleText(value)) throw new Error(t('versions.contentRequired'));
    },
  };
  const number: Rule[] = [
    { required: true, whitespace: true, message: t('versions.required') },
    { pattern: VERSION_NUMBER, message: t('versions.numberFormat') },
    {
      validator: async (_, value?: string) => {
        const text = value?.trim();
        if (row || !text || !VERSION_NUMBER.test(text)) return;
        try {
          await checkVersion(text);
        } catch (error) {
          if (error instanceof ApiCallError && (error.code === Code.SYSTEM_VERSION_EXISTS || error.code === Code.SYSTEM_VERSION_NOT_HIGHER))
            throw new Error(error.message);
        }
      },
    },
  ];

  const save = useMutation({
    mutationFn: (values: FormValues) =>
      saveVersion({ id: row?.id, version: values.version.trim(), zhContent: values.zhContent, enContent: values.enContent }),
    onSuccess: () => {
      void message.success(t(row ? 'versions.saved' : 'versions.published'));
      void queryClient.invalidateQueries({ queryKey: versionKeys.all });
      onClose();
    },
    onError: (error) => {
      if (error instanceof ApiCallError && (error.code === Code.SYSTEM_VERSION_EXISTS || error.code === Code.SYSTEM_VERSION_NOT_HIGHER)) {
        form.setFields([{ name: 'version', errors: [error.message] }]);
        return;
      }
      const byField = fieldErrors(error);
      const known = Object.entries(byField).filter(([field]) => ['version', 'zhContent', 'enContent'].includes(field));
      for (const [field, text] of known) form.setFields([{ name: field as keyof FormValues, errors: [text] }]);
      if (known.length === 0) setRefusal(refusalMessage(error) ?? t('versions.requestFailed'));
    },
  });

  const submit = async () => {
    const values = await form.validateFields().catch(() => undefined);
    if (!values) return;
    setRefusal(undefined);
    save.mutate(values);
  };

  return (
    <Modal
      open
      width={860}
      title={row ? t('versions.editTitle', { version: row.version }) : t('versions.createTitle')}
      okText={row ? t('versions.save') : t('versions.publish')}
      cancelText={t('versions.cancel')}
      onOk={submit}
      onCancel={onClose}
      confirmLoading={save.isPending}
      okButtonProps={{ id: 'version-submit' }}
      maskClosable={false}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        data-testid="version-form"
        initialValues={{ version: row?.version ?? '', zhContent: row?.zhContent ?? '', enContent: row?.enContent ?? '' }}
      >
        <Form.Item name="version" label={t('versions.fieldVersion')} rules={number} extra={t('versions.numberHint')} validateDebounce={300}>
          <Input id="version-number" maxLength={VERSION_LIMITS.numberMax} disabled={!!row} placeholder="2.1.0" />
        </Form.Item>
        <Tabs
          items={[
            {
              key: 'zh',
              label: t('versions.fieldZh'),
              forceRender: true,
              children: (
                <Form.Item name="zhContent" rules={[content]}>
                  <RichTextEditor id="version-zh" testId="version-zh-editor" />
                </Form.Item>
              ),
            },
            {
              key: 'en',
              label: t('versions.fieldEn'),
              forceRender: true,
              children: (
                <Form.Item name="enContent" rules={[content]}>
                  <RichTextEditor id="version-en" testId="version-en-editor" />
                </Form.Item>
              ),
            },
            {
              key: 'preview',
              label: t('versions.preview'),
              children: (
                <div data-testid="version-preview">
                  <h4>{t('versions.fieldZh')}</h4>
                  <RichText html={zh ?? ''} />
                  <h4>{t('versions.fieldEn')}</h4>
                  <RichText html={en ?? ''} />
                </div>
              ),
            },
          ]}
        />
        {refusal && <Alert type="error" showIcon title={refusal} />}
      </Form>
    </Modal>
  );
}
