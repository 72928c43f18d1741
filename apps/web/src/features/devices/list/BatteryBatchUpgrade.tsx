import {
  type BatchUpgradeCheck,
  BatchUpgradeCheckSchema,
  type BatchUpgradeResult,
  BatchUpgradeResultSchema,
  UpgradeProgressSchema,
} from '@sunward/contracts/commands';
import { FirmwareOptionSchema } from '@sunward/contracts/firmware';
import { useMutation, useQueries, useQuery } from '@tanstack/react-query';
import { Alert, Button, Input, Modal, Progress, Select, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { ApiCallError, apiRequest } from '../../../lib/api-client';

/**
 * Batch upgrade of batteries (spec 02 §4, §7): pick a battery image, check which selected batteries can
 * take it now (a slave, offline, upgrading, already on it or not compatible are listed with why), then
 * upgrade the ready ones with the password once and watch each one's progress to its result.
 */
export function BatteryBatchUpgrade({ sns, onClose }: { sns: string[]; onClose(): void }) {
  const { t } = useTranslation();
  const [firmId, setFirmId] = useState<number | undefined>();
  const [password, setPassword] = useState('');
  const [check, setCheck] = useState<BatchUpgradeCheck | null>(null);
  const [started, setStarted] = useState<BatchUpgradeResult | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const options = useQuery({
    queryKey: ['firmware', 'options', 'battery'],
    queryFn: () => apiRequest('/api/v1/firmware/options', { query: { type: 'battery' }, schema: z.array(FirmwareOptionSchema) }),
  });
  const fail = (error: unknown) => setProblem(error instanceof ApiCallError ? error.message : t('devices.saveFailed'));
  const runCheck = useMutation({
    mutationFn: (id: number) =>
      apiRequest('/api/v1/battery/batchUpgrade/check', {
        method: 'POST',
        json: { sns, firmId: id },
        schema: BatchUpgradeCheckSchema,
        tolerate: [4],
      }),
    onSuccess: (result) => {
      setProblem(null);
      setCheck(result);
    },
    onError: fail,
  });
  const ready = check?.results.filter((r) => r.ready).map((r) => r.sn) ?? [];
  const start = useMutation({
    mutationFn: () =>
      apiRequest('/api/v1/battery/batchUpgrade', {
        method: 'POST',
        json: { sns: ready, firmId, password, idempotencyKey: crypto.randomUUID() },
        schema: BatchUpgradeResultSchema,
        tolerate: [4, 708],
      }),
    onSuccess: (result) => {
      setProblem(null);
      setStarted(result);
    },
    onError: fail,
  });
  const running = started?.results.filter((r) => r.started).map((r) => r.sn) ?? [];
  const progress = useQueries({
    queries: running.map((sn) => ({
      queryKey: ['devices', 'battery', 'upgrade', sn],
      queryFn: () =>
        apiRequest(`/api/v1/inverter/${encodeURIComponent(sn)}/upgrade/progress`, { schema: UpgradeProgressSchema.nullable() }),
      refetchInterval: (query: { state: { data?: z.infer<typeof UpgradeProgressSchema> | null } }) =>
        query.state.data?.state === 'upgrading' ? 1000 : false,
    })),
  });

  return (
    <Modal
      open
      width={720}
      title={t('upgrades.batchTitle', { count: sns.length })}
      onCancel={onClose}
      footer={<Button onClick={onClose}>{t('upgrades.close')}</Button>}
      destroyOnHidden
    >
      <Space direction="vertical" style={{ width: '100%' }} size="middle" data-testid="battery-batch-modal">
        <Space wrap>
          <Select
            value={firmId}
            onChange={(id: number) => {
              setFirmId(id);
              setCheck(null);
            }}
            placeholder={t('devices.pickFirmware')}
            style={{ width: 360 }}
            disabled={started !== null}
            options={(options.data ?? []).map((f) => ({ value: f.id, label: `${f.name} · ${f.product} · ${f.swVersion}` }))}
            notFoundContent={t('devices.noFirmware')}
            data-testid="batch-firmware"
          />
          <Button
            disabled={firmId === undefined || started !== null}
            loading={runCheck.isPending}
            onClick={() => firmId !== undefined && runCheck.mutate(firmId)}
            data-testid="batch-check"
          >
            {t('upgrades.check')}
          </Button>
        </Space>
        {check && !started && (
          <>
            <Alert
              type={ready.length > 0 ? 'info' : 'warning'}
              showIcon
              message={t('upgrades.checkReady', { ready: ready.length, total: check.results.length })}
            />
            <Table
              size="small"
              rowKey="sn"
              pagination={false}
              dataSource={check.results}
              data-testid="batch-check-results"
              columns={[
                { key: 'sn', title: 'SN', dataIndex: 'sn' },
                {
                  key: 'ready',
                  title: t('upgrades.colReady'),
                  render: (_, r) => (
                    <Tag color={r.ready ? 'success' : 'error'} data-ready={String(r.ready)}>
                      {r.ready ? t('upgrades.ready') : t('upgrades.notReady')}
                    </Tag>
                  ),
                },
                { key: 'why', title: t('upgrades.colWhy'), render: (_, r) => r.message ?? '' },
              ]}
            />
            {ready.length > 0 && (
              <Space wrap>
                <Input.Password
                  placeholder={t('devices.confirmTitle')}
                  value={password}
                  onChange={(e) => setPassword(e.target.value)}
                  style={{ width: 260 }}
                  data-testid="batch-password"
                />
                <Button
                  type="primary"
                  disabled={password === ''}
                  loading={start.isPending}
                  onClick={() => start.mutate()}
                  data-testid="batch-start"
                >
                  {t('upgrades.continueWith', { count: ready.length })}
                </Button>
              </Space>
            )}
          </>
        )}
        {started && (
          <Table
            size="small"
            rowKey="sn"
            pagination={false}
            dataSource={started.results}
            data-testid="batch-progress"
            columns={[
              { key: 'sn', title: 'SN', dataIndex: 'sn' },
              {
                key: 'progress',
                title: t('upgrades.colResult'),
                render: (_, r) => {
                  if (!r.started) return <Typography.Text type="danger">{r.message}</Typography.Text>;
                  const state = progress[running.indexOf(r.sn)]?.data;
                  return (
                    <div data-testid="batch-item" data-state={state?.state ?? 'upgrading'}>
                      <Progress
                        size="small"
                        percent={state?.progress ?? 0}
                        status={state?.state === 'failed' ? 'exception' : state?.state === 'successful' ? 'success' : 'active'}
                      />
                      {state && state.state !== 'upgrading' && (
                        <Typography.Text type={state.state === 'failed' ? 'danger' : 'secondary'}>
                          {t(`devices.upgradeState.${state.state}`, { version: state.version ?? '' })}
                        </Typography.Text>
                      )}
                    </div>
                  );
                },
              },
            ]}
          />
        )}
        {problem && <Alert type="error" showIcon message={problem} data-testid="batch-problem" />}
      </Space>
    </Modal>
  );
}
