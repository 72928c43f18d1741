import { CommandResultSchema, UpgradeProgressSchema, type UpgradeTarget } from '@sunward/contracts/commands';
import { FirmwareOptionSchema } from '@sunward/contracts/firmware';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Progress, Select, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { usePasswordPrompt } from '../../../components/ConfirmPassword';
import { ApiCallError, apiRequest } from '../../../lib/api-client';
import { deviceKeys } from '../api';

/**
 * Codes an upgrade explains itself: wrong image, offline, upgrading, slave, cancelling not supported, 4001,
 * 4010, password, cap, timeout.
 */
const UPGRADE_REFUSALS = [1, 4, 135, 305, 600, 601, 602, 603, 604, 605, 708, 709, 4001, 4010];

/** The query of a device's (or gateway's) latest upgrade. */
export const upgradeKey = (target: UpgradeTarget, sn: string) => ['devices', target, 'upgrade', sn] as const;

/** Batteries follow their upgrade through the inverter progress call (spec 02 §7); gateways have their own. */
const progressPath = (target: UpgradeTarget, sn: string) =>
  target === 'gateway'
    ? `/api/v1/gateway/${encodeURIComponent(sn)}/upgrade/progress`
    : `/api/v1/inverter/${encodeURIComponent(sn)}/upgrade/progress`;

/**
 * Upgrade from the firmware library: pick an enabled image of the target's type, confirm with the
 * password, and watch the progress to its result (waiting for an offline gateway, upgrading, successful,
 * failed, cancelled); a running inverter upgrade can be cancelled where the model supports it.
 */
function UpgradePanel({
  target,
  sn,
  disabled,
  onUpgrade,
  onCancel,
}: {
  target: UpgradeTarget;
  sn: string;
  disabled: boolean;
  onUpgrade(firmId: number): void;
  onCancel?: () => void;
}) {
  const { t } = useTranslation();
  const [firmId, setFirmId] = useState<number | undefined>();
  const options = useQuery({
    queryKey: ['firmware', 'options', target],
    queryFn: () => apiRequest('/api/v1/firmware/options', { query: { type: target }, schema: z.array(FirmwareOptionSchema) }),
  });
  const progress = useQuery({
    queryKey: upgradeKey(target, sn),
    queryFn: () => apiRequest(progressPath(target, sn), { schema: UpgradeProgressSchema.nullable() }),
    // Polled while an upgrade runs or waits (spec: progress polled per device), slowly otherwise.
    refetchInterval: (query) => (query.state.data?.state === 'upgrading' ? 1000 : query.state.data?.state === 'waiting' ? 3000 : 10_000),
  });
  const state = progress.data;
  const busy = state?.state === 'upgrading' || state?.state === 'waiting';
  return (
    <>
      <Typography.Title level={5}>{t('devices.upgradeTitle')}</Typography.Title>
      <Space wrap align="center">
        <Select
          value={firmId}
          onChange={setFirmId}
          placeholder={t('devices.pickFirmware')}
          aria-label={t('devices.pickFirmware')}
          style={{ width: 320 }}
          disabled={disabled || busy}
          options={(options.data ?? []).map((f) => ({ value: f.id, label: `${f.name} · ${f.product} · ${f.swVersion}` }))}
          notFoundContent={t('devices.noFirmware')}
          data-testid="upgrade-firmware"
        />
        <Button
          type="primary"
          disabled={disabled || busy || firmId === undefined}
          onClick={() => firmId !== undefined && onUpgrade(firmId)}
          data-testid="upgrade-start"
        >
          {t('devices.upgrade')}
        </Button>
        {onCancel && state?.state === 'upgrading' && (
          <Button onClick={onCancel} disabled={disabled} data-testid="upgrade-cancel">
            {t('devices.cancelUpgrade')}
          </Button>
        )}
      </Space>
      {state && (
        <div className="sw-upgrade-state" data-testid="upgrade-state" data-state={state.state}>
          <Progress
            percent={state.progress}
            status={
              state.state === 'failed' || state.state === 'cancelled'
                ? 'exception'
                : state.state === 'successful'
                  ? 'success'
                  : state.state === 'waiting'
                    ? 'normal'
                    : 'active'
            }
          />
          <Typography.Text type={state.state === 'failed' ? 'danger' : 'secondary'}>
            {state.state === 'waiting'
              ? t('upgrades.waitingFor', { version: state.version ?? '' })
              : t(`devices.upgradeState.${state.state}`, { version: state.version ?? '' })}
            {state.message ? ` — ${state.message}` : ''}
          </Typography.Text>
        </div>
      )}
    </>
  );
}

/**
 * The one way an upgrade starts from a screen, for an inverter (inside its remote control), a battery
 * master pack or a gateway: pick an image, confirm with the password, a fresh idempotency key per start,
 * then follow the progress; an inverter's running upgrade can be cancelled. Refusals (a slave, already
 * latest, not compatible, offline...) are shown as the server words them.
 */
export function DeviceUpgrade({
  target,
  sn,
  canOperate,
  busy = false,
  embedded = false,
}: {
  target: UpgradeTarget;
  sn: string;
  canOperate: boolean;
  /** Another command of the same device is running: the buttons wait. */
  busy?: boolean;
  /** Shown inside the remote control, which already says when the device is read-only. */
  embedded?: boolean;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const askPassword = usePasswordPrompt();
  const [problem, setProblem] = useState<string | null>(null);
  const base = `/api/v1/${target}/${encodeURIComponent(sn)}`;
  const upgrade = useMutation({
    mutationFn: async (action: { firmId: number } | 'cancel') => {
      if (action === 'cancel')
        return apiRequest(`${base}/cutUpgrade`, {
          method: 'POST',
          json: { idempotencyKey: crypto.randomUUID() },
          schema: CommandResultSchema,
          tolerate: UPGRADE_REFUSALS,
        });
      const password = await askPassword(t('devices.confirmTitle'), t('devices.confirmPassword'));
      if (password === undefined) return undefined;
      return apiRequest(`${base}/upgrade`, {
        method: 'POST',
        json: { firmId: action.firmId, password, idempotencyKey: crypto.randomUUID() },
        schema: CommandResultSchema,
        tolerate: UPGRADE_REFUSALS,
      });
    },
    onSuccess: (result) => {
      if (!result) return;
      setProblem(null);
      void message.success(result.status === 'queued' ? t('upgrades.offlineQueued') : (result.message ?? t('devices.commandDone')));
      // The upgrade just started (or was cancelled): show its state now, then follow it every second.
      void queryClient.invalidateQueries({ queryKey: upgradeKey(target, sn) });
      if (target === 'inverter') void queryClient.invalidateQueries({ queryKey: deviceKeys.realtime('inverter', sn) });
    },
    onError: (error) => setProblem(error instanceof ApiCallError ? error.message : t('devices.saveFailed')),
  });
  return (
    <div data-testid={`${target}-upgrade`}>
      {!canOperate && !embedded && <Alert type="info" showIcon message={t('devices.remoteReadOnly')} style={{ marginBottom: 12 }} />}
      <UpgradePanel
        target={target}
        sn={sn}
        disabled={!canOperate || busy || upgrade.isPending}
        onUpgrade={(firmId) => upgrade.mutate({ firmId })}
        onCancel={target === 'inverter' ? () => upgrade.mutate('cancel') : undefined}
      />
      {problem && <Alert type="error" showIcon message={problem} style={{ marginTop: 12 }} data-testid="upgrade-problem" />}
    </div>
  );
}
