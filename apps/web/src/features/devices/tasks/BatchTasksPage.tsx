import '../texts';
import { PlusOutlined } from '@ant-design/icons';
import {
  BATCH_TASK_SN_LIMIT,
  type BatchTaskBody,
  BatchTaskCreatedSchema,
  BatchTaskDetailSchema,
  BatchTaskPageSchema,
  BatchTaskRetriedSchema,
  type BatchTaskRow,
  upgradeTargetOfTask,
} from '@sunward/contracts/batch-tasks';
import { UPGRADE_TARGETS, type UpgradeTarget } from '@sunward/contracts/commands';
import { FirmwareOptionSchema } from '@sunward/contracts/firmware';
import { LANGUAGE_TAGS } from '@sunward/contracts/languages';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  App,
  Button,
  Card,
  DatePicker,
  Empty,
  Form,
  Input,
  InputNumber,
  Modal,
  Progress,
  Segmented,
  Select,
  Space,
  Table,
  Tag,
  Typography,
} from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import type { PageProps } from '../../../app/page-props';
import { PageTitle } from '../../../components/PageTitle';
import { ActionsTitle, ExpandTitle } from '../../../components/VisuallyHidden';
import { ApiCallError, apiRequest } from '../../../lib/api-client';
import { exactTime } from '../../../lib/format';
import { currentLanguage } from '../../../lib/i18n';

type Task = BatchTaskRow;

const STATUS_COLOR: Record<string, string> = {
  plan: 'default',
  running: 'processing',
  paused: 'warning',
  done: 'success',
  terminated: 'error',
};
const ITEM_COLOR: Record<string, string> = {
  pending: 'default',
  running: 'processing',
  successful: 'success',
  failed: 'error',
  skipped: 'warning',
};

/** Serial numbers pasted one per line, or separated by commas, spaces or semicolons. */
export function parseSnList(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[\s,;]+/)
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
}

/**
 * /device/tasks: batch upgrade tasks (spec 02 §4). Each shows its state (plan, in progress, paused,
 * done, terminated) and progress, opens to its items' results, and can be terminated, restarted or have
 * its failed items retried. A new task takes an image, a pasted SN list, an optional start time and a
 * staged rollout (canary share and failure threshold), confirmed with the password.
 */
export function BatchTasksPage({ route }: PageProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const locale = LANGUAGE_TAGS[currentLanguage()];
  const queryClient = useQueryClient();
  const [creating, setCreating] = useState(false);
  const tasks = useQuery({
    queryKey: ['tasks'],
    queryFn: () => apiRequest('/api/v1/tasks', { query: { size: 50 }, schema: BatchTaskPageSchema }),
    placeholderData: keepPreviousData,
    // Live while a task runs (its progress), slowly otherwise.
    refetchInterval: (query) => (query.state.data?.infos.some((x) => x.status === 'running' || x.status === 'plan') ? 2000 : 15_000),
  });
  const action = useMutation({
    mutationFn: ({ id, what }: { id: number; what: 'terminate' | 'restart' | 'retry' }) =>
      apiRequest(`/api/v1/tasks/${id}/${what}`, { method: 'POST', schema: what === 'retry' ? BatchTaskRetriedSchema : z.null() }),
    onSuccess: () => {
      void message.success(t('devices.saved'));
      void queryClient.invalidateQueries({ queryKey: ['tasks'] });
    },
  });
  const rows = tasks.data?.infos ?? [];
  return (
    <Card
      title={<PageTitle route={route} />}
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)} data-testid="task-new">
          {t('devices.taskNew')}
        </Button>
      }
      data-testid="batch-tasks"
    >
      <Table<Task>
        rowKey="id"
        loading={tasks.isPending}
        dataSource={rows}
        pagination={false}
        expandable={{ columnTitle: <ExpandTitle />, expandedRowRender: (task) => <TaskItems id={task.id} /> }}
        columns={[
          { key: 'name', title: t('devices.taskName'), dataIndex: 'name' },
          {
            key: 'target',
            title: t('upgrades.taskTarget'),
            render: (_, task) => t(`upgrades.target.${upgradeTargetOfTask(task.type)}`),
          },
          { key: 'version', title: t('devices.taskVersion'), dataIndex: 'targetVersion' },
          {
            key: 'status',
            title: t('devices.commandStatus'),
            render: (_, task) => (
              <Space direction="vertical" size={0}>
                <Tag color={STATUS_COLOR[task.status] ?? 'default'} data-status={task.status}>
                  {t(`devices.taskStatus.${task.status}`)}
                </Tag>
                {task.pausedReason?.startsWith('canary:') && (
                  <Typography.Text type="warning">{t('devices.taskPausedCanary', { failed: task.pausedReason.slice(7) })}</Typography.Text>
                )}
              </Space>
            ),
          },
          {
            key: 'progress',
            title: t('devices.taskProgress'),
            width: 240,
            render: (_, task) => {
              // Skipped devices (not compatible with the image) are settled from the start.
              const settled = task.successful + task.failed + task.skipped;
              return (
                <Space direction="vertical" size={0} style={{ width: '100%' }}>
                  <Progress
                    percent={task.items === 0 ? 0 : Math.round((settled * 100) / task.items)}
                    success={{ percent: task.items === 0 ? 0 : Math.round((task.successful * 100) / task.items) }}
                    format={() => `${settled}/${task.items}`}
                    status={task.failed > 0 ? 'exception' : undefined}
                  />
                  {task.skipped > 0 && (
                    <Typography.Text type="warning">{t('upgrades.skippedCount', { count: task.skipped })}</Typography.Text>
                  )}
                </Space>
              );
            },
          },
          {
            key: 'runAt',
            title: t('devices.taskRunAt'),
            render: (_, task) => (task.runAt ? exactTime(task.runAt, locale) : t('devices.taskNow')),
          },
          {
            key: 'actions',
            title: <ActionsTitle />,
            render: (_, task) => (
              <Space>
                {(task.status === 'running' || task.status === 'plan' || task.status === 'paused') && (
                  <Button size="small" danger onClick={() => action.mutate({ id: task.id, what: 'terminate' })}>
                    {t('devices.taskTerminate')}
                  </Button>
                )}
                {(task.status === 'terminated' || task.status === 'paused') && (
                  <Button size="small" onClick={() => action.mutate({ id: task.id, what: 'restart' })} data-testid="task-restart">
                    {t('devices.taskRestart')}
                  </Button>
                )}
                {task.failed > 0 && (
                  <Button size="small" onClick={() => action.mutate({ id: task.id, what: 'retry' })}>
                    {t('devices.taskRetry')}
                  </Button>
                )}
              </Space>
            ),
          },
        ]}
        locale={{ emptyText: <Empty description={t('devices.taskEmpty')} image={Empty.PRESENTED_IMAGE_SIMPLE} /> }}
      />
      {creating && <NewTaskModal onClose={() => setCreating(false)} />}
    </Card>
  );
}

function TaskItems({ id }: { id: number }) {
  const { t } = useTranslation();
  const detail = useQuery({
    queryKey: ['tasks', id],
    queryFn: () => apiRequest(`/api/v1/tasks/${id}`, { schema: BatchTaskDetailSchema }),
    refetchInterval: 2000,
  });
  return (
    <Table
      size="small"
      rowKey="id"
      pagination={{ pageSize: 20, hideOnSinglePage: true }}
      dataSource={detail.data?.items ?? []}
      data-testid={`task-items-${id}`}
      columns={[
        { key: 'sn', title: t('devices.colSn'), dataIndex: 'sn' },
        { key: 'wave', title: t('devices.taskWave'), render: (_, i) => (i.wave === 0 ? t('devices.taskCanary') : t('devices.taskRest')) },
        {
          key: 'status',
          title: t('devices.commandStatus'),
          render: (_, i) => (
            <Tag color={ITEM_COLOR[i.status] ?? 'default'} data-status={i.status}>
              {t(`devices.itemStatus.${i.status}`)}
            </Tag>
          ),
        },
        {
          key: 'message',
          title: t('devices.logDetail'),
          render: (_, i) => (i.message?.startsWith('code.') ? t(`devices.itemCode`, { code: i.message.slice(5) }) : (i.message ?? '')),
        },
      ]}
    />
  );
}

interface NewTask {
  target: UpgradeTarget;
  name: string;
  firmId: number;
  sns: string;
  runAt?: Dayjs;
  canaryPercent: number;
  failureThresholdPercent: number;
  password: string;
}

function NewTaskModal({ onClose }: { onClose(): void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<NewTask>();
  const [problem, setProblem] = useState<string | null>(null);
  const target = Form.useWatch('target', form) ?? 'inverter';
  const options = useQuery({
    queryKey: ['firmware', 'options', target],
    queryFn: () => apiRequest('/api/v1/firmware/options', { query: { type: target }, schema: z.array(FirmwareOptionSchema) }),
  });
  const create = useMutation({
    mutationFn: (values: NewTask) =>
      apiRequest('/api/v1/tasks', {
        method: 'POST',
        json: {
          name: values.name,
          firmId: values.firmId,
          sns: parseSnList(values.sns),
          ...(values.runAt ? { runAt: values.runAt.toISOString() } : {}),
          canaryPercent: values.canaryPercent,
          failureThresholdPercent: values.failureThresholdPercent,
          password: values.password,
        } satisfies BatchTaskBody,
        schema: BatchTaskCreatedSchema,
        tolerate: [4, 708],
      }),
    onSuccess: () => {
      void message.success(t('devices.taskCreated'));
      void queryClient.invalidateQueries({ queryKey: ['tasks'] });
      onClose();
    },
    onError: (error) => setProblem(error instanceof ApiCallError ? error.message : t('devices.saveFailed')),
  });
  return (
    <Modal
      open
      title={t('devices.taskNew')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okButtonProps={{ loading: create.isPending, id: 'task-create' }}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        initialValues={{ target: 'inverter', canaryPercent: 10, failureThresholdPercent: 20 }}
        onFinish={(values) => create.mutate(values)}
      >
        <Form.Item name="name" label={t('devices.taskName')} rules={[{ required: true, max: 40 }]}>
          <Input data-testid="task-name" />
        </Form.Item>
        <Form.Item name="target" label={t('upgrades.taskTarget')}>
          <Segmented
            options={UPGRADE_TARGETS.map((value) => ({ value, label: t(`upgrades.target.${value}`) }))}
            onChange={() => form.setFieldValue('firmId', undefined)}
            data-testid="task-target"
          />
        </Form.Item>
        <Form.Item name="firmId" label={t('devices.pickFirmware')} rules={[{ required: true }]}>
          <Select
            options={(options.data ?? []).map((f) => ({ value: f.id, label: `${f.name} · ${f.swVersion}` }))}
            notFoundContent={t('devices.noFirmware')}
            data-testid="task-firmware"
          />
        </Form.Item>
        <Form.Item
          name="sns"
          label={t('devices.taskSns', { max: BATCH_TASK_SN_LIMIT })}
          rules={[
            { required: true },
            {
              validator: async (_, v: string | undefined) =>
                parseSnList(v ?? '').length > BATCH_TASK_SN_LIMIT
                  ? Promise.reject(new Error(t('devices.taskTooMany', { max: BATCH_TASK_SN_LIMIT })))
                  : undefined,
            },
          ]}
        >
          <Input.TextArea rows={4} placeholder={'IN0100001\nIN0300001'} data-testid="task-sns" />
        </Form.Item>
        <Form.Item name="runAt" label={t('devices.taskRunAt')} extra={t('devices.taskRunAtHint')}>
          <DatePicker showTime style={{ width: '100%' }} />
        </Form.Item>
        <Space>
          <Form.Item name="canaryPercent" label={t('devices.taskCanaryPercent')}>
            <InputNumber min={0} max={100} addonAfter="%" />
          </Form.Item>
          <Form.Item name="failureThresholdPercent" label={t('devices.taskThreshold')}>
            <InputNumber min={0} max={100} addonAfter="%" />
          </Form.Item>
        </Space>
        <Form.Item name="password" label={t('devices.confirmTitle')} rules={[{ required: true }]}>
          <Input.Password data-testid="task-password" />
        </Form.Item>
        {problem && <Typography.Text type="danger">{problem}</Typography.Text>}
      </Form>
    </Modal>
  );
}
