import { LANGUAGE_TAGS } from '@sunward/contracts/languages';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Modal, Space, Spin, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { refusalMessage } from '../../lib/api-client';
import { registerTexts } from '../../lib/feature-texts';
import { exactTime } from '../../lib/format';
import { currentLanguage } from '../../lib/i18n';
import { fetchRestorePreview, protocolKeys, restoreVersion } from './api';
import { SwitchDiff } from './ProtocolSwitchModal';
import { switchTexts } from './switch-texts';

registerTexts(switchTexts);

/**
 * Every device of a protocol moved to another of its versions (issue 19): what the latest reading of its device
 * that reported last would read differently, then the version saved as the new current one.
 */
export function ProtocolRestoreModal({
  protocolId,
  name,
  version,
  currentVersion,
  onClose,
}: {
  protocolId: number;
  name: string;
  version: number;
  currentVersion: number;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const locale = LANGUAGE_TAGS[currentLanguage()];
  const preview = useQuery({
    queryKey: [...protocolKeys.all, 'restore', protocolId, version, currentVersion],
    queryFn: () => fetchRestorePreview(protocolId, version),
    retry: false,
  });
  const restore = useMutation({
    mutationFn: () => restoreVersion(protocolId, version, currentVersion),
    onSuccess: (done) => {
      void message.success(t('protocolSwitch.restoreDone', { version: done.version }));
      void queryClient.invalidateQueries({ queryKey: protocolKeys.all });
      onClose();
    },
  });
  const data = preview.data;
  const refusal = preview.error ?? restore.error;

  return (
    <Modal
      open
      width={960}
      title={t('protocolSwitch.restoreTitle', { name, version })}
      onCancel={onClose}
      okText={t('protocolSwitch.restore')}
      cancelText={t('protocolSwitch.cancel')}
      okButtonProps={{ disabled: !data, loading: restore.isPending, danger: true, 'data-testid': 'restore-confirm' }}
      onOk={() => restore.mutate()}
      data-testid="protocol-restore-modal"
    >
      {refusal && (
        <Alert type="error" showIcon message={refusalMessage(refusal) ?? t('protocolSwitch.failed')} style={{ marginBottom: 12 }} />
      )}
      {!data ? (
        !refusal && <Spin />
      ) : (
        <Space direction="vertical" style={{ width: '100%' }} data-testid="restore-preview">
          <Typography.Text>{t('protocolSwitch.from', data.from)}</Typography.Text>
          <Typography.Text strong>{t('protocolSwitch.to', data.to)}</Typography.Text>
          <Typography.Text type="secondary">
            {data.sn && data.readingAt
              ? t('protocolSwitch.restoreSample', { sn: data.sn, time: exactTime(data.readingAt, locale) })
              : t('protocolSwitch.restoreNoDevice')}
          </Typography.Text>
          <SwitchDiff data={data} />
          <Alert type="info" showIcon message={t('protocolSwitch.restoreNote', { count: data.devices })} />
        </Space>
      )}
    </Modal>
  );
}
