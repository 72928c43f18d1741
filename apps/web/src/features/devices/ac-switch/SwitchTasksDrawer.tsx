import { CheckCircleOutlined, CloseCircleOutlined, DeleteOutlined, PlusOutlined, SafetyOutlined } from '@ant-design/icons';
import {
  AC_SWITCH_TASK_LIMITS,
  type AcSwitchTask,
  type AcSwitchTaskBody,
  type AcSwitchTaskOutcome,
  type AcSwitchTaskRun,
} from '@sunward/contracts/ac-switch-tasks';
import type { AcSwitchRow } from '@sunward/contracts/ac-switches';
import { localDayOf } from '@sunward/contracts/plant-energy';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Checkbox, Drawer, Empty, Form, Input, InputNumber, Radio, Space, Switch, Table, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmPasswordModal } from '../../../components/ConfirmPassword';
import { ApiCallError, refusalMessage } from '../../../lib/api-client';
import { registerTexts } from '../../../lib/feature-texts';
import { clockInZone } from '../../../lib/plant-format';
import {
  acSwitchKeys,
  acSwitchTaskKeys,
  addAcSwitchTask,
  deleteAcSwitchTask,
  fetchAcSwitchTaskHistory,
  fetchAcSwitchTasks,
  selfCheckAcSwitch,
  setAcSwitchTaskEnabled,
} from './api';
import { switchTaskTexts } from './task-texts';

registerTexts(switchTaskTexts);

const WEEKDAYS = [1, 2, 3, 4, 5, 6, 7] as const;
const OUTCOME_COLOUR: Record<AcSwitchTaskOutcome, string> = {
  done: 'green',
  refused: 'orange',
  failed: 'red',
  missed: 'default',
  running: 'processing',
};
const OUTCOME_TEXT: Record<AcSwitchTaskOutcome, string> = {
  done: 'acSwitchTask.outcomeDone',
  refused: 'acSwitchTask.outcomeRefused',
  failed: 'acSwitchTask.outcomeFailed',
  missed: 'acSwitchTask.outcomeMissed',
  running: 'acSwitchTask.outcomeRunning',
};

/** "2026-11-27 07:00" in the plant's zone: tasks are set and shown in plant time, whatever the browser's zone. */
const inZone = (iso: string, zone: string) => {
  const at = Date.parse(iso);
  return `${localDayOf(at, zone)} ${clockInZone(at, zone)}`;
};

interface TaskForm {
  kind: 'single' | 'repeat' | 'selfcheck';
  on?: boolean;
  date?: string;
  weekdays?: number[];
  monthDay?: number;
  time?: string;
}

/**
 * The timed tasks of one AC switch (issue 22 part 1), in a drawer from the switch list: the tasks with their
 * next run in the plant's zone, turning one off or on and deleting it, adding one (once or every week, with the
 * password again: it will switch the circuit unattended), and the history of what each run did and why.
 */
export function SwitchTasksDrawer({ row, canControl, onClose }: { row: AcSwitchRow; canControl: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const [adding, setAdding] = useState(false);
  const [checking, setChecking] = useState(false);
  const [historyPage, setHistoryPage] = useState(1);
  const tasks = useQuery({ queryKey: acSwitchTaskKeys.tasks(row.id), queryFn: () => fetchAcSwitchTasks(row.id), refetchInterval: 10_000 });
  const history = useQuery({
    queryKey: acSwitchTaskKeys.history(row.id, historyPage),
    queryFn: () => fetchAcSwitchTaskHistory(row.id, historyPage),
    // A run under way: followed closely until its outcome is in.
    refetchInterval: (query) => (query.state.data?.infos.some((r) => r.outcome === 'running') ? 1_000 : 5_000),
  });
  // A run under way (an on/off command awaiting its reply, or a self-check awaiting its verdict) is followed each second.
  const checkRunning = history.data?.infos.some((r) => r.outcome === 'running' && r.kind === 'selfcheck') ?? false;
  // Meanwhile the switch list behind follows the switch too: off while the circuit is cut, on again after.
  useEffect(() => {
    if (!checkRunning) return;
    const timer = setInterval(() => void queryClient.invalidateQueries({ queryKey: ['acSwitches', 'page'] }), 1_000);
    return () => clearInterval(timer);
  }, [checkRunning, queryClient]);
  const zone = tasks.data?.timeZone ?? null;
  const refresh = () => void queryClient.invalidateQueries({ queryKey: acSwitchKeys.all });
  const fail = (error: unknown) => void message.error(refusalMessage(error) ?? t('acSwitch.offline'));

  const toggle = useMutation({
    mutationFn: ({ task, enabled }: { task: AcSwitchTask; enabled: boolean }) => setAcSwitchTaskEnabled(row.id, task.id, enabled),
    onSuccess: refresh,
    onError: fail,
  });

  const remove = (task: AcSwitchTask) =>
    void modal.confirm({
      title: t('acSwitchTask.deleteConfirm'),
      okText: t('acSwitchTask.delete'),
      cancelText: t('acSwitchTask.cancel'),
      okButtonProps: { danger: true, id: 'ac-switch-task-confirm-delete' },
      onOk: async () => {
        try {
          await deleteAcSwitchTask(row.id, task.id);
          void message.success(t('acSwitchTask.saved'));
          refresh();
        } catch (error) {
          fail(error);
        }
      },
    });

  const when = (task: AcSwitchTask) => {
    if (task.kind === 'single') return `${task.date ?? ''} ${task.time}`;
    if (task.kind === 'selfcheck') return t('acSwitchTask.selfCheckWhen', { day: task.monthDay ?? '', time: task.time });
    const days =
      task.weekdays.length === 7 ? t('acSwitchTask.everyDay') : task.weekdays.map((d) => t(`acSwitchTask.weekday${d}`)).join(', ');
    return `${days} · ${task.time}`;
  };

  const add = async (values: TaskForm & { password: string }) => {
    const on = values.on ?? true;
    const time = values.time ?? '';
    const body: AcSwitchTaskBody =
      values.kind === 'single'
        ? { kind: 'single', on, date: values.date ?? '', time, password: values.password }
        : values.kind === 'selfcheck'
          ? { kind: 'selfcheck', monthDay: values.monthDay ?? 1, time, password: values.password }
          : { kind: 'repeat', on, weekdays: values.weekdays ?? [], time, password: values.password };
    await addAcSwitchTask(row.id, body);
    setAdding(false);
    void message.success(t('acSwitchTask.saved'));
    refresh();
  };

  const selfCheckNow = async ({ password }: { password: string }) => {
    await selfCheckAcSwitch(row.id, password);
    setChecking(false);
    void message.success(t('acSwitchTask.selfCheckStarted'));
    setHistoryPage(1);
    refresh();
  };

  /** What a task or run does: switch on, switch off, or the self-check (which leaves the switch as it was). */
  const actionOf = (item: { kind: AcSwitchTask['kind']; on: boolean }) =>
    t(item.kind === 'selfcheck' ? 'acSwitchTask.actionSelfCheck' : item.on ? 'acSwitchTask.actionOn' : 'acSwitchTask.actionOff');

  const taskColumns = [
    { key: 'when', title: t('acSwitchTask.colWhen'), render: (_: unknown, task: AcSwitchTask) => when(task) },
    {
      key: 'action',
      title: t('acSwitchTask.colAction'),
      render: (_: unknown, task: AcSwitchTask) => (
        <Tag color={task.kind === 'selfcheck' ? 'blue' : task.on ? 'green' : 'default'}>{actionOf(task)}</Tag>
      ),
    },
    {
      key: 'next',
      title: t('acSwitchTask.colNext'),
      render: (_: unknown, task: AcSwitchTask) => (
        <span data-testid={`ac-switch-task-next-${task.id}`}>
          {task.nextRunAt
            ? inZone(task.nextRunAt, task.timeZone)
            : t(task.kind === 'single' && task.enabled ? 'acSwitchTask.ranOnce' : 'acSwitchTask.paused')}
        </span>
      ),
    },
    {
      key: 'enabled',
      title: t('acSwitchTask.colEnabled'),
      render: (_: unknown, task: AcSwitchTask) => (
        <Switch
          size="small"
          checked={task.enabled && task.nextRunAt !== null}
          disabled={!canControl || row.access === 'view' || (task.kind === 'single' && task.nextRunAt === null && task.enabled)}
          loading={toggle.isPending && toggle.variables?.task.id === task.id}
          onChange={(enabled) => toggle.mutate({ task, enabled })}
          aria-label={t('acSwitchTask.enabledLabel')}
        />
      ),
    },
    {
      key: 'delete',
      title: '',
      render: (_: unknown, task: AcSwitchTask) =>
        canControl &&
        row.access !== 'view' && (
          <Button
            size="small"
            danger
            icon={<DeleteOutlined />}
            aria-label={t('acSwitchTask.delete')}
            onClick={() => remove(task)}
            data-testid={`ac-switch-task-delete-${task.id}`}
          />
        ),
    },
  ];

  const runColumns = [
    {
      key: 'scheduled',
      title: t('acSwitchTask.colRun'),
      render: (_: unknown, run: AcSwitchTaskRun) => (zone ? inZone(run.scheduledFor, zone) : run.scheduledFor),
    },
    {
      key: 'action',
      title: t('acSwitchTask.colAction'),
      render: (_: unknown, run: AcSwitchTaskRun) => (run.taskId === null ? t('acSwitchTask.selfCheckManual') : actionOf(run)),
    },
    {
      key: 'outcome',
      title: t('acSwitchTask.colOutcome'),
      render: (_: unknown, run: AcSwitchTaskRun) => (
        <Tag color={OUTCOME_COLOUR[run.outcome]} data-testid="ac-switch-task-outcome" data-outcome={run.outcome}>
          {t(OUTCOME_TEXT[run.outcome])}
        </Tag>
      ),
    },
    {
      key: 'verdict',
      title: t('acSwitchTask.colVerdict'),
      // The switch's own verdict, in colour and words, with the leakage current it tripped at (or did not).
      render: (_: unknown, run: AcSwitchTaskRun) => {
        if (!run.selfCheck) return '—';
        const ma = run.selfCheck.leakageMa === null ? '' : ` · ${run.selfCheck.leakageMa} mA`;
        return (
          <Tag
            color={run.selfCheck.passed ? 'success' : 'error'}
            icon={run.selfCheck.passed ? <CheckCircleOutlined /> : <CloseCircleOutlined />}
            data-testid="ac-switch-selfcheck-verdict"
            data-passed={String(run.selfCheck.passed)}
          >
            {t(run.selfCheck.passed ? 'acSwitchTask.verdictPassed' : 'acSwitchTask.verdictFailed')}
            {ma}
          </Tag>
        );
      },
    },
    { key: 'reason', title: t('acSwitchTask.colReason'), render: (_: unknown, run: AcSwitchTaskRun) => run.message ?? '—' },
  ];

  const inPlant = row.plantId !== null;
  return (
    <Drawer
      open
      onClose={onClose}
      width={760}
      title={t('acSwitchTask.drawerTitle', { sn: row.sn })}
      destroyOnHidden
      data-testid="ac-switch-tasks"
      extra={
        canControl &&
        row.access !== 'view' && (
          <Space>
            <Button
              icon={<SafetyOutlined />}
              onClick={() => setChecking(true)}
              loading={checkRunning}
              disabled={row.gatewaySn === null}
              data-testid="ac-switch-selfcheck-now"
            >
              {t('acSwitchTask.selfCheckNow')}
            </Button>
            {inPlant && (
              <Button type="primary" icon={<PlusOutlined />} onClick={() => setAdding(true)} data-testid="ac-switch-task-add">
                {t('acSwitchTask.add')}
              </Button>
            )}
          </Space>
        )
      }
    >
      <Space direction="vertical" size="large" style={{ width: '100%' }}>
        {!inPlant && <Alert type="info" showIcon message={t('acSwitchTask.notInPlant')} />}
        {zone && <Typography.Text type="secondary">{t('acSwitchTask.zoneNote', { zone })}</Typography.Text>}
        <Table<AcSwitchTask>
          rowKey="id"
          size="small"
          loading={tasks.isLoading}
          dataSource={tasks.data?.tasks ?? []}
          columns={taskColumns}
          pagination={false}
          locale={{ emptyText: <Empty description={t('acSwitchTask.none')} /> }}
          data-testid="ac-switch-task-table"
        />
        <Typography.Title level={5} style={{ margin: 0 }}>
          {t('acSwitchTask.history')}
        </Typography.Title>
        <Table<AcSwitchTaskRun>
          rowKey="id"
          size="small"
          loading={history.isLoading}
          dataSource={history.data?.infos ?? []}
          columns={runColumns}
          pagination={{
            current: historyPage,
            pageSize: 10,
            total: history.data?.total ?? 0,
            onChange: setHistoryPage,
            hideOnSinglePage: true,
          }}
          locale={{ emptyText: <Empty description={t('acSwitchTask.noHistory')} /> }}
          data-testid="ac-switch-task-history"
        />
      </Space>
      <ConfirmPasswordModal
        open={checking}
        title={t('acSwitchTask.selfCheckTitle', { sn: row.sn })}
        okText={t('acSwitchTask.selfCheckStart')}
        danger
        onCancel={() => setChecking(false)}
        onConfirm={selfCheckNow}
        testIds={{ modal: 'ac-switch-selfcheck-form', password: 'ac-switch-selfcheck-password', ok: 'ac-switch-selfcheck-start' }}
      >
        <Typography.Paragraph>{t('acSwitchTask.selfCheckWhy')}</Typography.Paragraph>
      </ConfirmPasswordModal>
      <ConfirmPasswordModal<TaskForm>
        open={adding}
        title={t('acSwitchTask.addTitle')}
        okText={t('acSwitchTask.save')}
        onCancel={() => setAdding(false)}
        onConfirm={add}
        fieldOf={(error) => {
          const code = error instanceof ApiCallError ? error.code : 0;
          if (code === 4431) return 'time';
          if (code === 4432) return 'time';
          if (code === 4434 || code === 4435 || code === 4438) return 'kind';
          return undefined;
        }}
        testIds={{ modal: 'ac-switch-task-form', password: 'ac-switch-task-password', ok: 'ac-switch-task-save' }}
      >
        <Typography.Paragraph type="secondary">{t('acSwitchTask.passwordWhy')}</Typography.Paragraph>
        {zone && <Typography.Paragraph type="secondary">{t('acSwitchTask.zoneNote', { zone })}</Typography.Paragraph>}
        <Form.Item name="kind" label={t('acSwitchTask.kind')} initialValue="repeat">
          <Radio.Group
            optionType="button"
            options={[
              { value: 'single', label: t('acSwitchTask.kindSingle') },
              { value: 'repeat', label: t('acSwitchTask.kindRepeat') },
              { value: 'selfcheck', label: t('acSwitchTask.kindSelfCheck') },
            ]}
          />
        </Form.Item>
        <Form.Item noStyle dependencies={['kind']}>
          {({ getFieldValue }) =>
            getFieldValue('kind') === 'selfcheck' ? (
              <Typography.Paragraph type="secondary">{t('acSwitchTask.selfCheckWhy')}</Typography.Paragraph>
            ) : (
              <Form.Item name="on" label={t('acSwitchTask.action')} initialValue={true}>
                <Radio.Group
                  optionType="button"
                  options={[
                    { value: true, label: t('acSwitchTask.actionOn') },
                    { value: false, label: t('acSwitchTask.actionOff') },
                  ]}
                />
              </Form.Item>
            )
          }
        </Form.Item>
        <Form.Item noStyle dependencies={['kind']}>
          {({ getFieldValue }) =>
            getFieldValue('kind') === 'selfcheck' ? (
              <Form.Item
                name="monthDay"
                label={t('acSwitchTask.monthDay')}
                htmlFor="ac-switch-task-month-day"
                initialValue={1}
                extra={t('acSwitchTask.monthDayNote')}
                rules={[{ required: true, message: t('acSwitchTask.required') }]}
              >
                <InputNumber id="ac-switch-task-month-day" min={1} max={AC_SWITCH_TASK_LIMITS.monthDayMax} precision={0} />
              </Form.Item>
            ) : getFieldValue('kind') === 'single' ? (
              <Form.Item
                name="date"
                label={t('acSwitchTask.date')}
                htmlFor="ac-switch-task-date"
                initialValue={zone ? localDayOf(Date.now(), zone) : undefined}
                rules={[{ required: true, message: t('acSwitchTask.required') }]}
              >
                <Input id="ac-switch-task-date" type="date" />
              </Form.Item>
            ) : (
              <Form.Item
                name="weekdays"
                label={t('acSwitchTask.weekdays')}
                initialValue={[...WEEKDAYS]}
                // A validator, not `required`: antd would put aria-required on the group, which is no form control.
                rules={[
                  {
                    validator: (_, days: number[] | undefined) =>
                      days && days.length > 0 ? Promise.resolve() : Promise.reject(new Error(t('acSwitchTask.required'))),
                  },
                ]}
              >
                <Checkbox.Group options={WEEKDAYS.map((d) => ({ value: d, label: t(`acSwitchTask.weekday${d}`) }))} />
              </Form.Item>
            )
          }
        </Form.Item>
        <Form.Item
          name="time"
          label={t('acSwitchTask.time')}
          htmlFor="ac-switch-task-time"
          rules={[{ required: true, message: t('acSwitchTask.required') }]}
        >
          <Input id="ac-switch-task-time" type="time" />
        </Form.Item>
      </ConfirmPasswordModal>
    </Drawer>
  );
}
