import { DeleteOutlined, FileTextOutlined, PlusOutlined } from '@ant-design/icons';
import { Code } from '@sunward/contracts/codes';
import { LANGUAGE_TAGS } from '@sunward/contracts/languages';
import {
  NOTICE_IMPACTS,
  NOTICE_LIMITS,
  NOTICE_PLACEHOLDERS,
  NOTICE_SCOPES,
  NOTICE_TYPES,
  type NoticeFields,
  type NoticeRow,
  type NoticeSuggest,
} from '@sunward/contracts/notices';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Col, DatePicker, Form, Input, Modal, Row, Select, Space, Typography } from 'antd';
import type { Rule } from 'antd/es/form';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiCallError, fieldErrors, refusalMessage } from '../../lib/api-client';
import { datePattern } from '../../lib/format';
import { currentLanguage } from '../../lib/i18n';
import { createNotice, fetchNoticeSuggestions, fetchNoticeTemplate, noticeKeys, updateNotice } from './api';
import { NoticePreview } from './NoticePreview';
import { impactKey, scopeKey, typeKey } from './notice-format';

interface FormValues {
  type: NoticeFields['type'];
  scope: NoticeFields['scope'];
  impact: NoticeFields['impact'];
  startTime: Dayjs;
  endTime: Dayjs;
  effectiveTime: Dayjs;
  zhDesc: string;
  enDesc: string;
  zhDuration: string;
  enDuration: string;
  suggests: NoticeSuggest[];
}

const FIELDS = [
  'type',
  'scope',
  'impact',
  'startTime',
  'endTime',
  'effectiveTime',
  'zhDesc',
  'enDesc',
  'zhDuration',
  'enDuration',
  'suggests',
];

function toFields(v: FormValues): NoticeFields {
  return {
    type: v.type,
    scope: v.scope,
    impact: v.impact,
    startTime: v.startTime.toISOString(),
    endTime: v.endTime.toISOString(),
    effectiveTime: v.effectiveTime.toISOString(),
    zhDesc: v.zhDesc.trim(),
    enDesc: v.enDesc.trim(),
    zhDuration: v.zhDuration.trim(),
    enDuration: v.enDuration.trim(),
    suggests: (v.suggests ?? []).map((s) => ({ zhSuggest: s.zhSuggest.trim(), enSuggest: s.enSuggest.trim() })),
  };
}

/**
 * Creates or edits a maintenance notice: type, scope, impact, the window (shown from, effective, until),
 * descriptions with placeholders in Chinese and English, durations and suggestions; a preview shows both
 * languages as users will read them. The date rules are checked here and again by the server.
 */
export function NoticeFormModal({ row, onClose }: { row?: NoticeRow; onClose(): void }) {
  const { t } = useTranslation();
  // Start, effective and end times as the user's locale writes dates, to the minute.
  const minuteFormat = `${datePattern(LANGUAGE_TAGS[currentLanguage()])} HH:mm`;
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<FormValues>();
  const [refusal, setRefusal] = useState<string>();
  const [preview, setPreview] = useState<NoticeFields>();
  const template = useQuery({ queryKey: noticeKeys.template, queryFn: fetchNoticeTemplate, staleTime: Number.POSITIVE_INFINITY });
  const suggestions = useQuery({ queryKey: noticeKeys.suggest, queryFn: fetchNoticeSuggestions, staleTime: 60_000 });

  const required: Rule = { required: true, message: t('notices.required') };
  const text = (max: number): Rule[] => [
    { required: true, whitespace: true, message: t('notices.required') },
    { max, message: t('notices.tooLong', { max }) },
  ];
  const after =
    (field: 'startTime' | 'endTime', key: 'notices.endAfterStart' | 'notices.effectiveAfterStart' | 'notices.effectiveBeforeEnd'): Rule =>
    ({ getFieldValue }) => ({
      async validator(_, value?: Dayjs) {
        const other = getFieldValue(field) as Dayjs | undefined;
        if (!value || !other) return;
        const ok =
          key === 'notices.effectiveBeforeEnd'
            ? value.isBefore(other)
            : key === 'notices.effectiveAfterStart'
              ? !value.isBefore(other)
              : value.isAfter(other);
        if (!ok) throw new Error(t(key));
      },
    });

  const save = useMutation({
    mutationFn: (fields: NoticeFields) => (row ? updateNotice(row.id, fields) : createNotice(fields)),
    onSuccess: () => {
      void message.success(t('notices.saved'));
      void queryClient.invalidateQueries({ queryKey: noticeKeys.all });
      onClose();
    },
    onError: (error) => {
      if (error instanceof ApiCallError && error.code === Code.NOTICE_INVALIDATED) {
        setRefusal(error.message);
        return;
      }
      const placed = Object.entries(fieldErrors(error)).filter(([field]) => FIELDS.includes(field.split('.')[0] ?? ''));
      for (const [field, problem] of placed) form.setFields([{ name: field.split('.') as never, errors: [problem] }]);
      if (placed.length === 0) setRefusal(refusalMessage(error) ?? t('notices.requestFailed'));
    },
  });

  const submit = async () => {
    const values = await form.validateFields().catch(() => undefined);
    if (!values) return;
    setRefusal(undefined);
    save.mutate(toFields(values));
  };

  const showPreview = async () => {
    const values = await form.validateFields().catch(() => undefined);
    if (values) setPreview(toFields(values));
  };

  const useTemplate = () => {
    if (!template.data) return;
    form.setFieldsValue({
      zhDesc: template.data.zhDesc,
      enDesc: template.data.enDesc,
      zhDuration: form.getFieldValue('zhDuration') || template.data.zhDuration,
      enDuration: form.getFieldValue('enDuration') || template.data.enDuration,
    });
  };

  const addSuggestion = (s: NoticeSuggest) => {
    const current = (form.getFieldValue('suggests') as NoticeSuggest[] | undefined) ?? [];
    if (current.length >= NOTICE_LIMITS.suggestsMax || current.some((c) => c.enSuggest === s.enSuggest && c.zhSuggest === s.zhSuggest))
      return;
    form.setFieldValue('suggests', [...current, s]);
  };

  const start = dayjs().add(1, 'hour').startOf('hour');
  const initial: Partial<FormValues> = row
    ? {
        ...row,
        type: row.type as FormValues['type'],
        scope: row.scope as FormValues['scope'],
        impact: row.impact as FormValues['impact'],
        startTime: dayjs(row.startTime),
        endTime: dayjs(row.endTime),
        effectiveTime: dayjs(row.effectiveTime),
      }
    : {
        type: 2,
        scope: '0',
        impact: 1,
        startTime: start,
        effectiveTime: start.add(1, 'day'),
        endTime: start.add(1, 'day').add(2, 'hour'),
        suggests: [],
      };

  return (
    <Modal
      open
      width={860}
      title={row ? t('notices.editTitle') : t('notices.createTitle')}
      onCancel={onClose}
      maskClosable={false}
      destroyOnHidden
      footer={[
        <Button key="preview" onClick={showPreview} data-testid="notice-form-preview">
          {t('notices.preview')}
        </Button>,
        <Button key="cancel" onClick={onClose}>
          {t('notices.cancel')}
        </Button>,
        <Button key="save" type="primary" loading={save.isPending} onClick={submit} id="notice-submit">
          {t('notices.save')}
        </Button>,
      ]}
    >
      <Form form={form} layout="vertical" initialValues={initial} data-testid="notice-form">
        <Row gutter={12}>
          <Col span={8}>
            <Form.Item name="type" label={t('notices.fieldType')} rules={[required]}>
              <Select id="notice-type" options={NOTICE_TYPES.map((v) => ({ value: v, label: t(typeKey(v)) }))} />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item name="scope" label={t('notices.fieldScope')} rules={[required]}>
              <Select id="notice-scope" options={NOTICE_SCOPES.map((v) => ({ value: v, label: t(scopeKey(v)) }))} />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item name="impact" label={t('notices.fieldImpact')} rules={[required]}>
              <Select id="notice-impact" options={NOTICE_IMPACTS.map((v) => ({ value: v, label: t(impactKey(v)) }))} />
            </Form.Item>
          </Col>
        </Row>
        <Row gutter={12}>
          <Col span={8}>
            <Form.Item name="startTime" label={t('notices.fieldStart')} rules={[required]}>
              <DatePicker id="notice-start" showTime={{ format: 'HH:mm' }} format={minuteFormat} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item
              name="effectiveTime"
              label={t('notices.fieldEffective')}
              dependencies={['startTime', 'endTime']}
              rules={[required, after('startTime', 'notices.effectiveAfterStart'), after('endTime', 'notices.effectiveBeforeEnd')]}
            >
              <DatePicker id="notice-effective" showTime={{ format: 'HH:mm' }} format={minuteFormat} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item
              name="endTime"
              label={t('notices.fieldEnd')}
              dependencies={['startTime']}
              rules={[required, after('startTime', 'notices.endAfterStart')]}
            >
              <DatePicker id="notice-end" showTime={{ format: 'HH:mm' }} format={minuteFormat} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
        </Row>
        <Space style={{ marginBottom: 8 }} wrap>
          <Button
            size="small"
            icon={<FileTextOutlined />}
            onClick={useTemplate}
            disabled={!template.data}
            data-testid="notice-use-template"
          >
            {t('notices.useTemplate')}
          </Button>
          <Typography.Text type="secondary">{t('notices.placeholdersHint', { list: NOTICE_PLACEHOLDERS.join(' ') })}</Typography.Text>
        </Space>
        <Row gutter={12}>
          <Col span={12}>
            <Form.Item name="zhDesc" label={t('notices.fieldZhDesc')} rules={text(NOTICE_LIMITS.descMax)}>
              <Input.TextArea id="notice-zh-desc" rows={4} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="enDesc" label={t('notices.fieldEnDesc')} rules={text(NOTICE_LIMITS.descMax)}>
              <Input.TextArea id="notice-en-desc" rows={4} />
            </Form.Item>
          </Col>
        </Row>
        <Row gutter={12}>
          <Col span={12}>
            <Form.Item name="zhDuration" label={t('notices.fieldZhDuration')} rules={text(NOTICE_LIMITS.durationMax)}>
              <Input id="notice-zh-duration" placeholder="2小时" />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="enDuration" label={t('notices.fieldEnDuration')} rules={text(NOTICE_LIMITS.durationMax)}>
              <Input id="notice-en-duration" placeholder="2 hours" />
            </Form.Item>
          </Col>
        </Row>
        <Typography.Text strong>{t('notices.fieldSuggests')}</Typography.Text>
        <Form.List name="suggests">
          {(items, { add, remove }) => (
            <div data-testid="notice-suggests" style={{ marginTop: 8 }}>
              {items.map((item, index) => (
                <Row gutter={8} key={item.key} align="top">
                  <Col flex="1">
                    <Form.Item name={[item.name, 'zhSuggest']} rules={text(NOTICE_LIMITS.suggestMax)}>
                      <Input id={`notice-suggest-zh-${index}`} placeholder={t('notices.fieldZhSuggest')} />
                    </Form.Item>
                  </Col>
                  <Col flex="1">
                    <Form.Item name={[item.name, 'enSuggest']} rules={text(NOTICE_LIMITS.suggestMax)}>
                      <Input id={`notice-suggest-en-${index}`} placeholder={t('notices.fieldEnSuggest')} />
                    </Form.Item>
                  </Col>
                  <Col>
                    <Button
                      type="text"
                      danger
                      icon={<DeleteOutlined />}
                      aria-label={t('notices.remove')}
                      onClick={() => remove(item.name)}
                    />
                  </Col>
                </Row>
              ))}
              <Space wrap>
                <Button
                  size="small"
                  icon={<PlusOutlined />}
                  disabled={items.length >= NOTICE_LIMITS.suggestsMax}
                  onClick={() => add({ zhSuggest: '', enSuggest: '' })}
                  data-testid="notice-add-suggest"
                >
                  {t('notices.addSuggest')}
                </Button>
                <Select
                  size="small"
                  style={{ minWidth: 320 }}
                  placeholder={t('notices.pickSuggest')}
                  value={null}
                  disabled={items.length >= NOTICE_LIMITS.suggestsMax}
                  options={(suggestions.data ?? []).map((s, i) => ({ value: i, label: `${s.enSuggest} / ${s.zhSuggest}` }))}
                  onChange={(i: number) => {
                    const s = suggestions.data?.[i];
                    if (s) addSuggestion(s);
                  }}
                  data-testid="notice-pick-suggest"
                />
              </Space>
            </div>
          )}
        </Form.List>
        {refusal && <Alert type="error" showIcon title={refusal} style={{ marginTop: 12 }} />}
      </Form>
      {preview && <NoticePreview fields={preview} onClose={() => setPreview(undefined)} />}
    </Modal>
  );
}
