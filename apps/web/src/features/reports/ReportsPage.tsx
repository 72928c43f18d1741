import {
  DeleteOutlined,
  DownloadOutlined,
  EditOutlined,
  FileExcelOutlined,
  MailOutlined,
  PlusOutlined,
  SendOutlined,
} from '@ant-design/icons';
import { LANGUAGE_TAGS, type Language } from '@sunward/contracts/languages';
import { localDayOf } from '@sunward/contracts/plant-energy';
import {
  reportFigureText as figure,
  REPORT_PARAMETER_TEXT as PARAMETER_KEY,
  type ReportTextKey,
  reportEnergy,
  reportText,
} from '@sunward/contracts/report-texts';
import {
  REPORT_MAX_PARAMETERS,
  REPORT_MAX_UNITS,
  REPORT_PARAMETERS,
  type Report,
  type ReportConfig,
  type ReportFigures,
  type ReportParameter,
  type ReportPeriod,
  type ReportSchedule,
  type ReportSend,
} from '@sunward/contracts/reports';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Checkbox, Empty, Form, Input, Modal, Segmented, Select, Space, Table, Tag, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { PageProps } from '../../app/page-props';
import { useSession } from '../../app/session';
import { CHART_COLORS, Chart, type ChartOption } from '../../components/Chart';
import { PageTitle } from '../../components/PageTitle';
import { type Period, PeriodPicker } from '../../components/PeriodPicker';
import { refusalMessage } from '../../lib/api-client';
import { fileNameFromDisposition } from '../../lib/download';
import { registerTexts } from '../../lib/feature-texts';
import { exactTime } from '../../lib/format';
import { currentLanguage } from '../../lib/i18n';
import { fetchPlantOptions, PLANT_OPTIONS_KEY } from '../../lib/plant-options';
import { saveBlob } from '../../lib/save-blob';
import { overviewTexts } from '../../lib/texts/plants/overview';
import {
  addSchedule,
  deleteConfig,
  deleteSchedule,
  downloadDeviceReport,
  downloadReport,
  exportReport,
  fetchConfigs,
  fetchDeviceOptions,
  fetchReport,
  fetchSchedules,
  fetchSends,
  type ReportParams,
  reportKeys,
  runSchedule,
  saveConfig,
  updateConfig,
  updateSchedule,
} from './api';
import { fetchCustomerOptions } from './customer-options';
import { DeviceReportView } from './DeviceReportView';
import { checkRecipients, type RecipientDraft, RecipientsEditor } from './RecipientsEditor';
import { ScheduleDialog } from './ScheduleDialog';
import { reportsTexts } from './texts';

// The period picker's tab names live with the overview's texts.
registerTexts(overviewTexts);
registerTexts(reportsTexts);

type Scope = 'plant' | 'plants' | 'customer' | 'device';

const SEND_COLOR: Record<ReportSend['status'], string> = { pending: 'processing', sent: 'success', failed: 'error', error: 'error' };

function chartOption(report: Report, language: Language): ChartOption {
  const name = (key: ReportTextKey) => reportText(language, key);
  const kwh = (v: number | null) => (v === null ? null : Math.round(v) / 1000);
  const series: ChartOption['series'] = [
    {
      type: 'bar',
      name: name('param.generation'),
      data: report.bars.map((b) => kwh(b.generationWh)),
      itemStyle: { color: CHART_COLORS.pv },
    },
  ];
  if (report.bars.some((b) => b.consumptionWh !== null))
    series.push(
      {
        type: 'bar',
        name: name('param.consumption'),
        data: report.bars.map((b) => kwh(b.consumptionWh)),
        itemStyle: { color: CHART_COLORS.load },
      },
      { type: 'bar', name: name('param.feedIn'), data: report.bars.map((b) => kwh(b.feedInWh)), itemStyle: { color: CHART_COLORS.export } },
      {
        type: 'bar',
        name: name('param.purchase'),
        data: report.bars.map((b) => kwh(b.purchaseWh)),
        itemStyle: { color: CHART_COLORS.grid },
      },
    );
  if (report.bars.some((b) => b.chargeWh !== null))
    series.push(
      {
        type: 'bar',
        name: name('param.charge'),
        data: report.bars.map((b) => kwh(b.chargeWh)),
        itemStyle: { color: CHART_COLORS.battery },
      },
      {
        type: 'bar',
        name: name('param.discharge'),
        data: report.bars.map((b) => kwh(b.dischargeWh)),
        itemStyle: { color: CHART_COLORS.battery, opacity: 0.55 },
      },
    );
  return {
    tooltip: { trigger: 'axis' },
    legend: { bottom: 0 },
    grid: { left: 56, right: 16, top: 24, bottom: 48 },
    xAxis: { type: 'category', data: report.bars.map((b) => (report.period === 'year' ? b.key.slice(5) : b.key.slice(-2))) },
    yAxis: { type: 'value', name: 'kWh' },
    series,
  };
}

/**
 * Reports (issue 21): a day, month or year of a plant, several plants or a customer, previewed here as the PDF
 * shows it (figures, chart, plants, devices, events), downloaded as PDF or .xlsx, saved as a configuration of
 * the plant, and scheduled weekly or monthly to recipients in their language with a send log.
 */
export function ReportsPage({ route }: PageProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { has } = useSession();
  const queryClient = useQueryClient();
  const language = currentLanguage();
  const locale = LANGUAGE_TAGS[language];
  const rt = (key: ReportTextKey) => reportText(language, key);
  const canEdit = has('report.edit');
  const canCustomers = has('customer.list.view');

  const today = localDayOf(Date.now(), Intl.DateTimeFormat().resolvedOptions().timeZone);
  const [scope, setScope] = useState<Scope>('plant');
  const [plantId, setPlantId] = useState<number>();
  const [plantIds, setPlantIds] = useState<number[]>([]);
  const [customerId, setCustomerId] = useState<number>();
  const [deviceId, setDeviceId] = useState<number>();
  const [period, setPeriod] = useState<Period>({ tab: 'month', param: today.slice(0, 7) });
  const [configId, setConfigId] = useState<number>();
  const [configOpen, setConfigOpen] = useState<'new' | 'edit' | false>(false);

  const plants = useQuery({ queryKey: PLANT_OPTIONS_KEY, queryFn: fetchPlantOptions, staleTime: 60_000 });
  // The customer picker searches on the server (a company may have thousands), 300 ms after the last key.
  const [customerSearch, setCustomerSearch] = useState('');
  const [customerKeyword, setCustomerKeyword] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setCustomerKeyword(customerSearch), 300);
    return () => clearTimeout(timer);
  }, [customerSearch]);
  const [pickedCustomer, setPickedCustomer] = useState<{ value: number; label: string }>();
  const customers = useQuery({
    queryKey: ['reports', 'customers', customerKeyword],
    queryFn: () => fetchCustomerOptions(customerKeyword),
    enabled: canCustomers && scope === 'customer',
    placeholderData: keepPreviousData,
  });
  const customerOptions = useMemo(() => {
    const found = (customers.data ?? []).map((c) => ({ value: c.id, label: c.name }));
    return pickedCustomer && !found.some((o) => o.value === pickedCustomer.value) ? [pickedCustomer, ...found] : found;
  }, [customers.data, pickedCustomer]);
  const configs = useQuery({
    queryKey: reportKeys.configs(plantId),
    queryFn: () => fetchConfigs(plantId ?? 0),
    enabled: scope === 'plant' && plantId !== undefined,
  });
  const deviceOptions = useQuery({
    queryKey: reportKeys.deviceOptions(plantId),
    queryFn: () => fetchDeviceOptions(plantId ?? 0),
    enabled: scope === 'device' && plantId !== undefined,
  });

  const params: ReportParams | undefined = useMemo(() => {
    const base = { period: period.tab as ReportPeriod, date: period.param };
    if (scope === 'plant') return plantId === undefined ? undefined : { ...base, scope, plantId, configId };
    if (scope === 'plants') return plantIds.length === 0 ? undefined : { ...base, scope, plantIds: plantIds.join(',') };
    if (scope === 'device') return deviceId === undefined ? undefined : { ...base, deviceId };
    return customerId === undefined ? undefined : { ...base, scope, customerId };
  }, [scope, plantId, plantIds, customerId, deviceId, period, configId]);

  const report = useQuery({
    queryKey: reportKeys.report(params ?? {}),
    queryFn: () => fetchReport(params ?? {}),
    enabled: params !== undefined && scope !== 'device',
    placeholderData: keepPreviousData,
  });

  const download = useMutation({
    mutationFn: async (format: 'pdf' | 'xlsx') => {
      if (!params) return;
      if (scope === 'device') {
        const file = await downloadDeviceReport(params, format);
        saveBlob(file.blob, fileNameFromDisposition(file.disposition) ?? `device-report.${format}`);
        return;
      }
      if (scope !== 'plant') {
        await exportReport(params, format);
        void message.success(t('reports.backgroundDone'));
        return;
      }
      const file = await downloadReport(params, format);
      saveBlob(file.blob, fileNameFromDisposition(file.disposition) ?? `report.${format}`);
    },
  });

  const data = report.data;
  const columnsOf = (parameters: readonly ReportParameter[]) =>
    parameters.map((p) => ({
      title: rt(PARAMETER_KEY[p]),
      key: p,
      render: (_: unknown, row: { figures: ReportFigures; currency: string | null }) => figure(row.figures, p, locale, row.currency),
    }));

  return (
    <div className="sw-reports" style={{ display: 'flex', flexDirection: 'column', gap: 16 }}>
      <PageTitle route={route} />
      <Card>
        <Space wrap size={12} align="center">
          <Segmented<Scope>
            value={scope}
            onChange={(value) => setScope(value)}
            aria-label={t('reports.scope')}
            options={[
              { value: 'plant', label: t('reports.scopePlant') },
              { value: 'plants', label: t('reports.scopePlants') },
              ...(canCustomers ? [{ value: 'customer' as const, label: t('reports.scopeCustomer') }] : []),
              { value: 'device', label: t('reports.scopeDevice') },
            ]}
            data-testid="report-scope"
          />
          {(scope === 'plant' || scope === 'device') && (
            <Select
              showSearch
              optionFilterProp="label"
              style={{ minWidth: 240 }}
              placeholder={t('reports.plantPlaceholder')}
              aria-label={t('reports.plant')}
              value={plantId}
              onChange={(value: number) => {
                setPlantId(value);
                setConfigId(undefined);
                setDeviceId(undefined);
              }}
              options={(plants.data ?? []).map((p) => ({ value: p.id, label: p.name }))}
              data-testid="report-plant"
            />
          )}
          {scope === 'plants' && (
            <Select
              mode="multiple"
              showSearch
              optionFilterProp="label"
              style={{ minWidth: 320 }}
              placeholder={t('reports.plantPlaceholder')}
              aria-label={t('reports.plants')}
              value={plantIds}
              onChange={(value: number[]) => setPlantIds(value)}
              options={(plants.data ?? []).map((p) => ({ value: p.id, label: p.name }))}
              maxTagCount="responsive"
              data-testid="report-plants"
            />
          )}
          {scope === 'customer' && (
            <Select
              showSearch
              filterOption={false}
              onSearch={setCustomerSearch}
              loading={customers.isFetching}
              style={{ minWidth: 240 }}
              aria-label={t('reports.customer')}
              placeholder={t('reports.customer')}
              value={customerId}
              onChange={(value: number) => {
                setCustomerId(value);
                const option = customerOptions.find((o) => o.value === value);
                if (option) setPickedCustomer(option);
              }}
              options={customerOptions}
              data-testid="report-customer"
            />
          )}
          {scope === 'device' && (
            <Select
              showSearch
              optionFilterProp="label"
              style={{ minWidth: 240 }}
              placeholder={t('reports.devicePlaceholder')}
              aria-label={t('reports.device')}
              disabled={plantId === undefined}
              value={deviceId}
              onChange={(value: number) => setDeviceId(value)}
              options={(deviceOptions.data ?? []).map((d) => ({
                value: d.id,
                label: `${d.alias ?? d.model ?? d.family} · ${d.sn}`,
              }))}
              data-testid="report-device"
            />
          )}
          <PeriodPicker period={period} today={today} onChange={setPeriod} testId="report-period" tabs={['day', 'month', 'year']} />
          {scope === 'plant' && plantId !== undefined && (
            <Select
              allowClear
              style={{ minWidth: 200 }}
              aria-label={t('reports.config')}
              placeholder={t('reports.configDefault')}
              value={configId}
              onChange={(value?: number) => setConfigId(value)}
              options={(configs.data ?? []).map((c) => ({ value: c.id, label: c.name }))}
              data-testid="report-config"
            />
          )}
        </Space>
        <Space wrap style={{ marginTop: 12 }}>
          <Button
            type="primary"
            icon={<DownloadOutlined />}
            disabled={!params}
            loading={download.isPending && download.variables === 'pdf'}
            onClick={() => download.mutate('pdf')}
            data-testid="report-pdf"
          >
            {scope === 'plant' || scope === 'device' ? t('reports.pdf') : `${t('reports.pdf')} · ${t('reports.background')}`}
          </Button>
          <Button
            icon={<FileExcelOutlined />}
            disabled={!params}
            loading={download.isPending && download.variables === 'xlsx'}
            onClick={() => download.mutate('xlsx')}
            data-testid="report-xlsx"
          >
            {scope === 'plant' || scope === 'device' ? t('reports.xlsx') : `${t('reports.xlsx')} · ${t('reports.background')}`}
          </Button>
          {canEdit && scope === 'plant' && plantId !== undefined && (
            <Button icon={<PlusOutlined />} onClick={() => setConfigOpen('new')} data-testid="report-save-config">
              {t('reports.saveConfig')}
            </Button>
          )}
          {canEdit && configId !== undefined && (
            <Button icon={<EditOutlined />} onClick={() => setConfigOpen('edit')} data-testid="report-edit-config">
              {t('reports.editConfig')}
            </Button>
          )}
          {canEdit && configId !== undefined && (
            <Button
              danger
              icon={<DeleteOutlined />}
              onClick={async () => {
                await deleteConfig(configId);
                setConfigId(undefined);
                await queryClient.invalidateQueries({ queryKey: reportKeys.all });
              }}
            >
              {t('reports.deleteConfig')}
            </Button>
          )}
          {(scope === 'plants' || scope === 'customer') && <Link to="/download-center">{t('route.downloadCenter')}</Link>}
        </Space>
      </Card>

      {!params ? (
        <Card>
          <Empty description={t(scope === 'device' ? 'reports.pickDeviceHint' : 'reports.pickHint')} />
        </Card>
      ) : scope === 'device' ? (
        <DeviceReportView params={params} />
      ) : report.isError ? (
        <Alert type="error" showIcon message={refusalMessage(report.error) ?? t('reports.emptyTitle')} />
      ) : !data ? (
        <Card loading />
      ) : (
        <Card data-testid="report-preview" title={<span data-testid="report-title">{data.title}</span>} extra={`${data.from} – ${data.to}`}>
          {data.empty && (
            <Empty
              data-testid="report-empty"
              description={
                <>
                  <Typography.Text strong>{t('reports.emptyTitle')}</Typography.Text>
                  <br />
                  <Typography.Text type="secondary">{t('reports.emptyHint')}</Typography.Text>
                </>
              }
            />
          )}
          <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(200px, 1fr))', gap: 12, marginBottom: 16 }}>
            {data.parameters.map((p) => (
              <div key={p} style={{ padding: 12, borderRadius: 8, background: 'rgba(127,127,127,0.08)' }} data-testid={`report-kpi-${p}`}>
                <Typography.Text type="secondary">{rt(PARAMETER_KEY[p])}</Typography.Text>
                <div style={{ fontSize: 20, fontWeight: 600 }}>{figure(data.totals, p, locale, data.currency)}</div>
              </div>
            ))}
          </div>
          {!data.empty && data.bars.length > 0 && (
            <>
              <Typography.Title level={2} style={{ fontSize: 16 }}>
                {t('reports.chartTitle')}
              </Typography.Title>
              <Chart option={chartOption(data, language)} height={300} testId="report-chart" />
            </>
          )}
          {data.plants.length > 1 && (
            <>
              <Typography.Title level={2} style={{ fontSize: 16 }}>
                {rt('section.plants')}
              </Typography.Title>
              <Table
                size="small"
                rowKey="id"
                pagination={{ pageSize: 20, hideOnSinglePage: true }}
                dataSource={data.plants}
                columns={[{ title: rt('col.plant'), dataIndex: 'name', key: 'name' }, ...columnsOf(data.parameters)]}
                scroll={{ x: true }}
              />
            </>
          )}
          <Typography.Title level={2} style={{ fontSize: 16, marginTop: 16 }}>
            {rt('section.devices')}
          </Typography.Title>
          <Table
            size="small"
            rowKey="id"
            pagination={{ pageSize: 20, hideOnSinglePage: true }}
            dataSource={data.devices}
            scroll={{ x: true }}
            columns={[
              ...(data.plants.length > 1 ? [{ title: rt('col.plant'), dataIndex: 'plantName', key: 'plant' }] : []),
              { title: rt('col.sn'), dataIndex: 'sn', key: 'sn' },
              { title: rt('col.device'), key: 'name', render: (_: unknown, d: Report['devices'][number]) => d.alias ?? d.model ?? '' },
              { title: rt('col.type'), dataIndex: 'family', key: 'family' },
              {
                title: rt('col.energy'),
                key: 'energy',
                render: (_: unknown, d: Report['devices'][number]) => reportEnergy(d.energyWh, locale),
              },
              { title: rt('col.events'), dataIndex: 'events', key: 'events' },
            ]}
          />
          <Typography.Title level={2} style={{ fontSize: 16, marginTop: 16 }}>
            {rt('section.events')} ({data.eventsTotal})
          </Typography.Title>
          <Table
            size="small"
            rowKey={(e) => `${e.sn}-${e.code}-${e.openedAt}`}
            pagination={{ pageSize: 10, hideOnSinglePage: true }}
            dataSource={data.events}
            scroll={{ x: true }}
            columns={[
              { title: rt('col.plant'), dataIndex: 'plantName', key: 'plant' },
              { title: rt('col.sn'), dataIndex: 'sn', key: 'sn' },
              { title: rt('col.code'), dataIndex: 'code', key: 'code' },
              { title: rt('col.description'), dataIndex: 'description', key: 'description' },
              {
                title: rt('col.opened'),
                key: 'opened',
                render: (_: unknown, e: Report['events'][number]) => exactTime(e.openedAt, locale),
              },
              {
                title: rt('col.duration'),
                key: 'duration',
                render: (_: unknown, e: Report['events'][number]) => `${Math.round(e.durationSeconds / 60)} min`,
              },
            ]}
          />
        </Card>
      )}

      {canEdit && configOpen && plantId !== undefined && data && (
        <ConfigDialog
          plantId={plantId}
          report={data}
          editing={configOpen === 'edit' ? configs.data?.find((c) => c.id === configId) : undefined}
          onClose={() => setConfigOpen(false)}
          onSaved={(id) => setConfigId(id)}
        />
      )}
      <Schedules scope={scope} plantId={plantId} customerId={customerId} configId={configId} canEdit={canEdit} />
    </div>
  );
}

function ConfigDialog({
  plantId,
  report,
  editing,
  onClose,
  onSaved,
}: {
  plantId: number;
  report: Report;
  /** The saved configuration being changed (PUT); none: a new one. */
  editing?: ReportConfig | undefined;
  onClose(): void;
  onSaved(id: number): void;
}) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<{ name: string; parameters: ReportParameter[]; units: number[] }>();
  const [error, setError] = useState<string>();
  const save = useMutation({
    mutationFn: async () => {
      const values = await form.validateFields();
      const input = {
        plantId,
        name: values.name,
        period: editing?.period ?? report.period,
        parameters: values.parameters,
        units: values.units ?? [],
      };
      return editing ? updateConfig(editing.id, input) : saveConfig(input);
    },
    onSuccess: async (config) => {
      await queryClient.invalidateQueries({ queryKey: reportKeys.all });
      onSaved(config.id);
      onClose();
    },
    onError: (e) => setError(refusalMessage(e)),
  });
  return (
    <Modal
      open
      title={t(editing ? 'reports.editConfig' : 'reports.saveConfig')}
      onCancel={onClose}
      onOk={() => save.mutate()}
      confirmLoading={save.isPending}
    >
      <Form
        form={form}
        layout="vertical"
        initialValues={
          editing
            ? { name: editing.name, parameters: editing.parameters, units: editing.units }
            : // The default figures with storage are eight; a saved selection holds at most six.
              { parameters: report.parameters.slice(0, REPORT_MAX_PARAMETERS), units: [] }
        }
      >
        <Form.Item name="name" label={t('reports.configName')} rules={[{ required: true, max: 60 }]}>
          <Input data-testid="config-name" />
        </Form.Item>
        <Form.Item name="parameters" label={t('reports.parameters')} extra={t('reports.maxHint')}>
          <Checkbox.Group options={REPORT_PARAMETERS.map((p) => ({ value: p, label: reportText(language, PARAMETER_KEY[p]) }))} />
        </Form.Item>
        <Form.Item name="units" label={t('reports.units')} extra={t('reports.unitsHint')}>
          <Select
            mode="multiple"
            maxCount={REPORT_MAX_UNITS}
            options={report.devices.map((d) => ({ value: d.id, label: `${d.sn}${d.alias ? ` (${d.alias})` : ''}` }))}
          />
        </Form.Item>
      </Form>
      {error && <Alert type="error" showIcon message={error} />}
      <Typography.Text type="secondary">
        {REPORT_MAX_PARAMETERS} / {REPORT_MAX_UNITS}
      </Typography.Text>
    </Modal>
  );
}

function Schedules({
  scope,
  plantId,
  customerId,
  configId,
  canEdit,
}: {
  scope: Scope;
  plantId: number | undefined;
  customerId: number | undefined;
  configId: number | undefined;
  canEdit: boolean;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const locale = LANGUAGE_TAGS[currentLanguage()];
  const [frequency, setFrequency] = useState<'weekly' | 'monthly'>('monthly');
  const [format, setFormat] = useState<'pdf' | 'xlsx'>('pdf');
  const [recipients, setRecipients] = useState<RecipientDraft[]>([{ email: '', language: currentLanguage() }]);
  const [bad, setBad] = useState<number[]>([]);
  const [error, setError] = useState<string>();
  const [editing, setEditing] = useState<ReportSchedule>();
  const [sendPage, setSendPage] = useState(1);
  const schedules = useQuery({ queryKey: reportKeys.schedules, queryFn: fetchSchedules });
  const sends = useQuery({ queryKey: [...reportKeys.sends, sendPage], queryFn: () => fetchSends(sendPage), refetchInterval: 5000 });
  const target = scope === 'plant' ? plantId : scope === 'customer' ? customerId : undefined;
  const refresh = () => queryClient.invalidateQueries({ queryKey: reportKeys.all });

  const create = useMutation({
    mutationFn: async () => {
      setError(undefined);
      const checked = checkRecipients(recipients);
      setBad(checked.bad);
      if (checked.bad.length > 0) return false;
      if (checked.recipients.length === 0) {
        setError(t('reports.needRecipient'));
        return false;
      }
      await addSchedule({
        scope: scope === 'customer' ? 'customer' : 'plant',
        ...(scope === 'customer' ? { customerId } : { plantId }),
        configId: scope === 'plant' ? (configId ?? null) : null,
        frequency,
        format,
        recipients: checked.recipients,
      });
      return true;
    },
    onSuccess: async (created) => {
      if (created) await refresh();
    },
    onError: (e) => setError(refusalMessage(e)),
  });
  const run = useMutation({
    mutationFn: (id: number) => runSchedule(id),
    onSuccess: async () => {
      void message.success(t('reports.sentNow'));
      await refresh();
    },
    onError: async (e) => {
      void message.error(refusalMessage(e) ?? '');
      await refresh();
    },
  });

  const toggle = useMutation({
    mutationFn: (s: ReportSchedule) => updateSchedule(s.id, { enabled: !s.enabled }),
    onSuccess: async () => {
      await refresh();
    },
    onError: async (e) => {
      void message.error(refusalMessage(e) ?? '');
      await refresh();
    },
  });

  return (
    <>
      <Card title={<span>{t('reports.schedules')}</span>}>
        {canEdit && (scope === 'plant' || scope === 'customer') && (
          <div style={{ marginBottom: 16 }} data-testid="schedule-form">
            <Space wrap align="start">
              <Segmented<'weekly' | 'monthly'>
                value={frequency}
                onChange={setFrequency}
                aria-label={t('reports.frequency')}
                options={[
                  { value: 'weekly', label: t('reports.weekly') },
                  { value: 'monthly', label: t('reports.monthly') },
                ]}
              />
              <Segmented<'pdf' | 'xlsx'> value={format} onChange={setFormat} aria-label={t('reports.format')} options={['pdf', 'xlsx']} />
            </Space>
            <RecipientsEditor value={recipients} onChange={setRecipients} bad={bad} testPrefix="schedule" />
            <Space style={{ marginTop: 8 }}>
              <Button
                type="primary"
                icon={<MailOutlined />}
                disabled={target === undefined}
                loading={create.isPending}
                onClick={() => create.mutate()}
                data-testid="schedule-create"
              >
                {t('reports.newSchedule')}
              </Button>
            </Space>
            {error && <Alert style={{ marginTop: 8 }} type="error" showIcon message={error} />}
          </div>
        )}
        <Table<ReportSchedule>
          size="small"
          rowKey="id"
          data-testid="schedule-table"
          dataSource={schedules.data ?? []}
          pagination={false}
          scroll={{ x: true }}
          locale={{ emptyText: <Empty description={t('reports.noSchedules')} /> }}
          columns={[
            { title: t('reports.target'), dataIndex: 'targetName', key: 'target' },
            {
              title: t('reports.frequency'),
              key: 'frequency',
              render: (_, s) => t(s.frequency === 'weekly' ? 'reports.weekly' : 'reports.monthly'),
            },
            { title: t('reports.format'), dataIndex: 'format', key: 'format' },
            {
              title: t('reports.recipients'),
              key: 'recipients',
              render: (_, s) => s.recipients.map((r) => `${r.email} (${r.language})`).join(', '),
            },
            {
              title: t('reports.enabled'),
              key: 'enabled',
              render: (_, s) =>
                s.enabled ? (
                  <Tag color="success">{t('reports.enabled')}</Tag>
                ) : (
                  <Tag color="warning">{t(`reports.disabled.${s.disabledReason ?? 'no_access'}`)}</Tag>
                ),
            },
            { title: t('reports.nextRun'), key: 'next', render: (_, s) => exactTime(s.nextRunAt, locale) },
            {
              title: '',
              key: 'actions',
              render: (_, s) =>
                canEdit && (
                  <Space>
                    <Button
                      size="small"
                      icon={<SendOutlined />}
                      loading={run.isPending && run.variables === s.id}
                      onClick={() => run.mutate(s.id)}
                      data-testid={`schedule-run-${s.id}`}
                    >
                      {t('reports.sendNow')}
                    </Button>
                    <Button size="small" icon={<EditOutlined />} onClick={() => setEditing(s)} data-testid={`schedule-edit-${s.id}`}>
                      {t('reports.editSchedule')}
                    </Button>
                    <Button
                      size="small"
                      loading={toggle.isPending && toggle.variables?.id === s.id}
                      onClick={() => toggle.mutate(s)}
                      data-testid={`schedule-toggle-${s.id}`}
                    >
                      {t(s.enabled ? 'reports.pause' : 'reports.resume')}
                    </Button>
                    <Button
                      size="small"
                      danger
                      icon={<DeleteOutlined />}
                      aria-label={t('reports.delete')}
                      onClick={async () => {
                        await deleteSchedule(s.id);
                        await refresh();
                      }}
                    />
                  </Space>
                ),
            },
          ]}
        />
      </Card>
      {editing && <ScheduleDialog schedule={editing} onClose={() => setEditing(undefined)} />}
      <Card title={t('reports.sendLog')}>
        <Table<ReportSend>
          size="small"
          rowKey="id"
          data-testid="send-log"
          dataSource={sends.data?.records ?? []}
          pagination={{ current: sendPage, pageSize: 20, total: sends.data?.total ?? 0, onChange: setSendPage, hideOnSinglePage: true }}
          scroll={{ x: true }}
          locale={{ emptyText: <Empty description={t('reports.noSends')} /> }}
          columns={[
            { title: t('reports.target'), dataIndex: 'targetName', key: 'target' },
            { title: t('reports.period'), dataIndex: 'period', key: 'period' },
            { title: t('reports.recipient'), dataIndex: 'recipient', key: 'recipient' },
            { title: t('reports.language'), dataIndex: 'language', key: 'language' },
            { title: '', key: 'status', render: (_, s) => <Tag color={SEND_COLOR[s.status]}>{t(`reports.status.${s.status}`)}</Tag> },
            { title: t('reports.attempts'), dataIndex: 'attempts', key: 'attempts' },
            { title: t('reports.lastRun'), key: 'at', render: (_, s) => exactTime(s.sentAt ?? s.createdAt, locale) },
          ]}
        />
      </Card>
    </>
  );
}
