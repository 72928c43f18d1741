import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { SETTINGS_FAMILIES } from '@sunward/contracts/commands';
import { translate } from '@sunward/contracts/messages';
import {
  DEVICE_FAMILIES,
  EVENT_LEVELS,
  PROTOCOL_NAME_MAX,
  PROTOCOL_NAME_MIN,
  type ProtocolContent,
  type ProtocolDetail,
  type ProtocolSave,
  protocolDraftProblems,
  type RegisterPointDraft,
  RegisterPointSchema,
} from '@sunward/contracts/protocols';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Col, Form, Input, InputNumber, Row, Select, Space, Spin, Table, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import type { PageProps } from '../../app/page-props';
import { PageTitle } from '../../components/PageTitle';
import { refusalMessage, validationIssues } from '../../lib/api-client';
import { registerTexts } from '../../lib/feature-texts';
import { currentLanguage } from '../../lib/i18n';
import { createProtocol, fetchProtocol, protocolKeys, updateProtocol } from './api';
import { takeDraft } from './draft-store';
import { ProtocolMissing } from './ProtocolMissing';
import { protocolTexts } from './protocol-texts';
import { newRegister, type Problems, RegisterTable } from './RegisterTable';
import { ScriptPanel } from './ScriptPanel';

registerTexts(protocolTexts);

type Fields = Omit<ProtocolSave, 'content' | 'baseVersion'> & { titleEn: string; titleZh: string; source: string };
type EventRow = ProtocolContent['events'][number];

/** The live checks of the editor: each register's own fields, then the rules across registers (contracts). */
function liveProblems(points: readonly RegisterPointDraft[], events: readonly EventRow[]): Map<string, string> {
  const language = currentLanguage();
  const found = new Map<string, string>();
  points.forEach((point, index) => {
    const parsed = RegisterPointSchema.safeParse(point);
    if (!parsed.success)
      for (const issue of parsed.error.issues) {
        const key = String(issue.path[0] ?? 'id');
        const field = `points.${index}.${key}`;
        if (!found.has(field)) found.set(field, translate(language, key === 'label' ? 'validation.required' : 'validation.invalidFormat'));
      }
  });
  for (const p of protocolDraftProblems({ points: [...points], events: [...events] }))
    if (!found.has(p.field)) found.set(p.field, translate(language, `protocol.${p.key}`, p.params));
  return found;
}

function fieldsOf(detail: ProtocolDetail | ProtocolSave): Fields {
  return {
    identifier: detail.identifier,
    code: detail.code,
    name: detail.name,
    manufacturer: detail.manufacturer,
    family: detail.family,
    protocolVersion: detail.protocolVersion,
    configurationVersion: detail.configurationVersion,
    titleEn: detail.content.title.en,
    titleZh: detail.content.title.zh,
    source: detail.content.source,
  };
}

/**
 * Create or edit a protocol (issue 19): its identity, the register table and the event table, checked as
 * the user types; saving an edit adds a version that decodes from the next report on.
 */
export function ProtocolEditorPage({ route }: PageProps) {
  const params = useParams();
  const [search] = useSearchParams();
  const id = params.id ? Number(params.id) : undefined;
  const detail = useQuery({ queryKey: protocolKeys.detail(id ?? 0), queryFn: () => fetchProtocol(id ?? 0), enabled: id !== undefined });
  const draft = useMemo(() => takeDraft(search.get('draft')), [search]);
  if (id !== undefined && detail.isError) return <ProtocolMissing />;
  if (id !== undefined && !detail.data) return <Spin style={{ display: 'block', margin: 48 }} />;
  const start = detail.data ?? draft?.draft;
  return (
    <Editor
      route={route}
      key={`${id ?? 'new'}-${detail.data?.currentVersion ?? 0}`}
      start={start}
      id={id}
      baseVersion={detail.data?.currentVersion}
      skipped={draft?.skipped ?? []}
    />
  );
}

function Editor({
  route,
  start,
  id,
  baseVersion,
  skipped,
}: PageProps & { start?: ProtocolDetail | ProtocolSave; id?: number; baseVersion?: number; skipped: string[] }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<Fields & { note?: string }>();
  const [points, setPoints] = useState<RegisterPointDraft[]>(() => (start ? [...start.content.points] : [newRegister([])]));
  const [events, setEvents] = useState<EventRow[]>(() => (start ? [...start.content.events] : []));
  const [families, setFamilies] = useState<Record<string, readonly string[]>>(() => ({ ...(start?.content.settingsFamilies ?? {}) }));
  const [serverProblems, setServerProblems] = useState<Map<string, string>>(new Map());
  const [refusal, setRefusal] = useState<string>();
  const [saving, setSaving] = useState(false);
  const live = useMemo(() => liveProblems(points, events), [points, events]);
  // A server problem stays until the user changes the registers again.
  const changePoints = (next: RegisterPointDraft[]) => {
    setServerProblems(new Map());
    setPoints(next);
  };
  const changeEvents = (next: EventRow[]) => {
    setServerProblems(new Map());
    setEvents(next);
  };
  const problems: Problems = useMemo(() => new Map([...serverProblems, ...live]), [serverProblems, live]);
  const bitFields = points.filter((p) => p.type === 'bits16' || p.type === 'bits32').map((p) => p.id);

  const save = async (values: Fields & { note?: string }) => {
    if (live.size > 0) {
      setRefusal(t('protocols.fixProblems', { count: live.size }));
      return;
    }
    setRefusal(undefined);
    setSaving(true);
    const body: ProtocolSave = {
      identifier: values.identifier,
      code: values.code,
      name: values.name,
      manufacturer: values.manufacturer,
      family: values.family,
      protocolVersion: values.protocolVersion,
      configurationVersion: values.configurationVersion,
      note: values.note || undefined,
      baseVersion,
      content: {
        title: { en: values.titleEn, zh: values.titleZh ?? '' },
        source: values.source ?? '',
        points,
        events,
        ...settingsOf(families, points),
        ...pairsOf(start?.content.settingPairs, points),
      },
    };
    try {
      const saved = id === undefined ? await createProtocol(body) : await updateProtocol(id, body);
      void message.success(t('protocols.saved', { name: saved.name, version: saved.currentVersion }));
      await queryClient.invalidateQueries({ queryKey: protocolKeys.all });
      void navigate('/system/protocols');
    } catch (error) {
      const issues = validationIssues(error);
      const inContent = new Map(
        issues.filter((i) => i.field.startsWith('content.')).map((i) => [i.field.slice('content.'.length), i.message]),
      );
      setServerProblems(inContent);
      form.setFields(
        issues.filter((i) => !i.field.startsWith('content.')).map((i) => ({ name: i.field as keyof Fields, errors: [i.message] })),
      );
      setRefusal(refusalMessage(error) ?? t('protocols.requestFailed'));
    } finally {
      setSaving(false);
    }
  };

  const required = [{ required: true, whitespace: true, message: t('protocols.required') }];
  const problemList = [...problems];
  return (
    <Card className="sw-page-card" data-testid="protocol-editor">
      <Space direction="vertical" size={16} style={{ width: '100%' }}>
        <PageTitle route={route}>
          {id === undefined ? t('protocols.createTitle') : t('protocols.editTitle', { name: start?.name ?? '' })}
        </PageTitle>
        {id !== undefined && <Alert type="info" showIcon message={t('protocols.editHint', { version: (baseVersion ?? 0) + 1 })} />}
        {skipped.length > 0 && <Alert type="warning" showIcon message={t('protocols.skipped', { points: skipped.join(', ') })} />}
        <Form
          form={form}
          layout="vertical"
          initialValues={start ? fieldsOf(start) : { family: 'inverter', protocolVersion: '1.0', configurationVersion: '1' }}
          onFinish={(v) => void save(v)}
        >
          <Row gutter={16}>
            <Col xs={24} md={8}>
              <Form.Item
                name="identifier"
                label={t('protocols.identifier')}
                extra={t('protocols.identifierHint')}
                rules={[...required, { pattern: /^[a-z0-9][a-z0-9-]{2,39}$/, message: t('protocols.identifierFormat') }]}
              >
                <Input disabled={id !== undefined} />
              </Form.Item>
            </Col>
            <Col xs={24} md={8}>
              <Form.Item
                name="code"
                label={t('protocols.code')}
                rules={[...required, { pattern: /^[A-Za-z0-9_-]{2,32}$/, message: t('protocols.codeFormat') }]}
              >
                <Input />
              </Form.Item>
            </Col>
            <Col xs={24} md={8}>
              <Form.Item
                name="name"
                label={t('protocols.name')}
                rules={[
                  ...required,
                  {
                    min: PROTOCOL_NAME_MIN,
                    max: PROTOCOL_NAME_MAX,
                    message: t('protocols.nameLength', { min: PROTOCOL_NAME_MIN, max: PROTOCOL_NAME_MAX }),
                  },
                ]}
              >
                <Input showCount maxLength={PROTOCOL_NAME_MAX} />
              </Form.Item>
            </Col>
            <Col xs={24} md={8}>
              <Form.Item name="manufacturer" label={t('protocols.manufacturer')} rules={required}>
                <Input maxLength={64} />
              </Form.Item>
            </Col>
            <Col xs={24} md={8}>
              <Form.Item name="family" label={t('protocols.family')} rules={[{ required: true, message: t('protocols.required') }]}>
                <Select options={DEVICE_FAMILIES.map((f) => ({ value: f, label: t(`protocols.family_${f}`) }))} />
              </Form.Item>
            </Col>
            <Col xs={12} md={4}>
              <Form.Item name="protocolVersion" label={t('protocols.protocolVersion')} rules={required}>
                <Input maxLength={20} />
              </Form.Item>
            </Col>
            <Col xs={12} md={4}>
              <Form.Item name="configurationVersion" label={t('protocols.configurationVersion')} rules={required}>
                <Input maxLength={20} />
              </Form.Item>
            </Col>
            <Col xs={24} md={8}>
              <Form.Item name="titleEn" label={t('protocols.titleEn')} rules={required}>
                <Input maxLength={200} />
              </Form.Item>
            </Col>
            <Col xs={24} md={8}>
              <Form.Item name="titleZh" label={t('protocols.titleZh')}>
                <Input maxLength={200} />
              </Form.Item>
            </Col>
            <Col xs={24} md={8}>
              <Form.Item name="source" label={t('protocols.source')}>
                <Input maxLength={500} />
              </Form.Item>
            </Col>
          </Row>
          <Typography.Title level={2} style={{ fontSize: 18 }}>
            {t('protocols.registersTitle', { count: points.length })}
          </Typography.Title>
          <RegisterTable points={points} onChange={changePoints} problems={problems} />
          <Typography.Title level={2} style={{ fontSize: 18, marginTop: 24 }}>
            {t('protocols.eventsTitle', { count: events.length })}
          </Typography.Title>
          <EventTable events={events} bitFields={bitFields} onChange={changeEvents} problems={problems} />
          <SettingsGroups
            families={families}
            writable={points.filter((p) => p.operation !== 'r' && p.id).map((p) => p.id)}
            problems={problems}
            onChange={(next) => {
              setServerProblems(new Map());
              setFamilies(next);
            }}
          />
          {id !== undefined && (
            <Form.Item name="note" label={t('protocols.note')} style={{ marginTop: 24 }}>
              <Input.TextArea maxLength={500} rows={2} />
            </Form.Item>
          )}
          {problemList.length > 0 && (
            <Alert
              type="error"
              showIcon
              style={{ marginTop: 16 }}
              data-testid="protocol-problems"
              message={t('protocols.problemsTitle', { count: problemList.length })}
              description={
                <ul style={{ margin: 0, paddingInlineStart: 20 }}>
                  {problemList.slice(0, 20).map(([field, text]) => (
                    <li key={field}>{`${field}: ${text}`}</li>
                  ))}
                </ul>
              }
            />
          )}
          {refusal && <Alert type="error" showIcon style={{ marginTop: 16 }} message={refusal} data-testid="protocol-save-refusal" />}
          <Space style={{ marginTop: 16 }}>
            <Button type="primary" htmlType="submit" loading={saving} id="protocol-save">
              {id === undefined ? t('protocols.createSubmit') : t('protocols.saveVersion')}
            </Button>
            <Button onClick={() => void navigate('/system/protocols')}>{t('protocols.cancel')}</Button>
          </Space>
        </Form>
        {id !== undefined && start && <ScriptPanel protocolId={id} configurationVersion={start.configurationVersion} />}
      </Space>
    </Card>
  );
}

function EventTable({
  events,
  bitFields,
  onChange,
  problems,
}: {
  events: readonly EventRow[];
  bitFields: string[];
  onChange(events: EventRow[]): void;
  problems: Problems;
}) {
  const { t } = useTranslation();
  const set = (index: number, patch: Partial<EventRow>) => onChange(events.map((e, i) => (i === index ? { ...e, ...patch } : e)));
  const label = (index: number, field: string) => t('protocols.cellLabel', { field: t(`protocols.ev_${field}`), row: index + 1 });
  const status = (index: number, field: string) => (problems.get(`events.${index}.${field}`) ? 'error' : undefined);
  const text = (field: 'description' | 'solution', lang: 'en' | 'zh', width: number) => ({
    key: `${field}-${lang}`,
    title: t(`protocols.ev_${field}_${lang}`),
    width,
    render: (_: unknown, e: EventRow, i: number) => (
      <Input
        size="small"
        value={e[field][lang]}
        aria-label={label(i, `${field}_${lang}`)}
        onChange={(ev) => set(i, { [field]: { ...e[field], [lang]: ev.target.value } })}
      />
    ),
  });
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Table<EventRow>
        rowKey={(_, i) => String(i)}
        size="small"
        data-testid="event-table"
        dataSource={[...events]}
        pagination={false}
        scroll={{ x: 1300 }}
        locale={{ emptyText: t('protocols.noEvents') }}
        columns={[
          {
            key: 'point',
            title: t('protocols.ev_point'),
            width: 140,
            render: (_, e, i) => (
              <Select
                size="small"
                value={e.point}
                status={status(i, 'point')}
                aria-label={label(i, 'point')}
                onChange={(point) => set(i, { point })}
                options={bitFields.map((id) => ({ value: id, label: id }))}
                style={{ width: '100%' }}
              />
            ),
          },
          {
            key: 'bit',
            title: t('protocols.ev_bit'),
            width: 80,
            render: (_, e, i) => (
              <InputNumber
                size="small"
                min={0}
                max={31}
                precision={0}
                value={e.bit}
                status={status(i, 'bit')}
                aria-label={label(i, 'bit')}
                onChange={(bit) => set(i, { bit: bit ?? 0 })}
              />
            ),
          },
          {
            key: 'code',
            title: t('protocols.ev_code'),
            width: 110,
            render: (_, e, i) => (
              <InputNumber
                size="small"
                min={0}
                precision={0}
                value={e.code}
                status={status(i, 'code')}
                aria-label={label(i, 'code')}
                onChange={(code) => set(i, { code: code ?? 0 })}
              />
            ),
          },
          {
            key: 'level',
            title: t('protocols.ev_level'),
            width: 110,
            render: (_, e, i) => (
              <Select
                size="small"
                value={e.level}
                aria-label={label(i, 'level')}
                onChange={(level) => set(i, { level })}
                options={EVENT_LEVELS.map((l) => ({ value: l, label: t(`protocols.level_${l}`) }))}
                style={{ width: '100%' }}
              />
            ),
          },
          text('description', 'en', 180),
          text('description', 'zh', 150),
          text('solution', 'en', 180),
          text('solution', 'zh', 150),
          {
            key: 'remove',
            title: t('protocols.actions'),
            width: 70,
            render: (_, __, i) => (
              <Button
                type="text"
                size="small"
                danger
                icon={<DeleteOutlined />}
                aria-label={`${t('protocols.removeRow')} ${i + 1}`}
                onClick={() => onChange(events.filter((_, j) => j !== i))}
              />
            ),
          },
        ]}
      />
      <Button
        icon={<PlusOutlined />}
        disabled={bitFields.length === 0}
        onClick={() =>
          onChange([
            ...events,
            {
              point: bitFields[0] ?? '',
              bit: 0,
              code: Math.max(0, ...events.map((e) => e.code)) + 1,
              level: 'fault',
              description: { en: '', zh: '' },
              solution: { en: '', zh: '' },
            },
          ])
        }
        data-testid="event-add"
      >
        {bitFields.length === 0 ? t('protocols.addEventNeedsBits') : t('protocols.addEvent')}
      </Button>
    </Space>
  );
}

/** The limit pairs (spec 02 §5; no editor field of their own) stay while both their registers stay writable. */
function pairsOf(pairs: ProtocolContent['settingPairs'], points: readonly RegisterPointDraft[]): Pick<ProtocolContent, 'settingPairs'> {
  const writable = new Set(points.filter((p) => p.operation !== 'r').map((p) => p.id));
  const kept = (pairs ?? []).filter((pair) => writable.has(pair.open) && writable.has(pair.closed));
  return kept.length === 0 ? {} : { settingPairs: kept };
}

/**
 * The groups that carry registers, as the protocol stores them (none at all: no settingsFamilies); a register
 * removed or made read-only since it was chosen leaves its groups.
 */
function settingsOf(
  families: Record<string, readonly string[]>,
  points: readonly RegisterPointDraft[],
): { settingsFamilies?: Record<string, string[]> } {
  const writable = new Set(points.filter((p) => p.operation !== 'r').map((p) => p.id));
  const kept = Object.entries(families)
    .map(([family, ids]) => [family, ids.filter((id) => writable.has(id))] as const)
    .filter(([, ids]) => ids.length > 0);
  return kept.length === 0 ? {} : { settingsFamilies: Object.fromEntries(kept.map(([family, ids]) => [family, [...ids]])) };
}

/**
 * The settings groups (issue 19): for each settings family, the writable registers that make its form on the
 * setting pages, in the order chosen; a new brand's settings appear there without code.
 */
function SettingsGroups({
  families,
  writable,
  problems,
  onChange,
}: {
  families: Record<string, readonly string[]>;
  writable: string[];
  problems: Problems;
  onChange(next: Record<string, readonly string[]>): void;
}) {
  const { t } = useTranslation();
  const count = Object.values(families).filter((ids) => ids.length > 0).length;
  return (
    <div data-testid="protocol-settings-groups">
      <Typography.Title level={2} style={{ fontSize: 18, marginTop: 24 }}>
        {t('protocols.settingsTitle', { count })}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('protocols.settingsHint')}</Typography.Paragraph>
      <Row gutter={[16, 8]}>
        {SETTINGS_FAMILIES.map((family) => {
          const problem = [...problems].find(([field]) => field.startsWith(`settingsFamilies.${family}.`))?.[1];
          return (
            <Col xs={24} md={12} key={family}>
              <Form.Item
                label={family}
                htmlFor={`settings-group-${family}`}
                validateStatus={problem ? 'error' : undefined}
                help={problem}
                style={{ marginBottom: 8 }}
              >
                <Select
                  id={`settings-group-${family}`}
                  mode="multiple"
                  allowClear
                  placeholder={t('protocols.settingsRegisters')}
                  value={(families[family] ?? []).filter((id) => writable.includes(id))}
                  options={writable.map((id) => ({ value: id, label: id }))}
                  onChange={(ids: string[]) => onChange({ ...families, [family]: ids })}
                  data-testid={`protocol-settings-${family}`}
                />
              </Form.Item>
            </Col>
          );
        })}
      </Row>
    </div>
  );
}
