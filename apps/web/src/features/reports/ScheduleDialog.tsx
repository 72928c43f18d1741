import type { ReportSchedule } from '@sunward/contracts/reports';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, Form, Modal, Segmented } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { refusalMessage } from '../../lib/api-client';
import { reportKeys, updateSchedule } from './api';
import { checkRecipients, type RecipientDraft, RecipientsEditor } from './RecipientsEditor';

/**
 * Edits a scheduled report: how often it is sent, as what, and to whom in which language (PUT; a new
 * frequency runs next at its next regular time). A bad address is refused under its row before anything is sent.
 */
export function ScheduleDialog({ schedule, onClose }: { schedule: ReportSchedule; onClose(): void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [frequency, setFrequency] = useState(schedule.frequency);
  const [format, setFormat] = useState(schedule.format);
  const [recipients, setRecipients] = useState<RecipientDraft[]>(schedule.recipients.map((r) => ({ ...r })));
  const [bad, setBad] = useState<number[]>([]);
  const [error, setError] = useState<string>();
  const save = useMutation({
    mutationFn: async () => {
      const checked = checkRecipients(recipients);
      setBad(checked.bad);
      if (checked.bad.length > 0) return false;
      if (checked.recipients.length === 0) {
        setError(t('reports.needRecipient'));
        return false;
      }
      await updateSchedule(schedule.id, { frequency, format, recipients: checked.recipients });
      return true;
    },
    onSuccess: async (saved) => {
      if (!saved) return;
      await queryClient.invalidateQueries({ queryKey: reportKeys.all });
      onClose();
    },
    onError: (e) => setError(refusalMessage(e)),
  });
  return (
    <Modal
      open
      title={`${t('reports.editSchedule')}: ${schedule.targetName}`}
      onCancel={onClose}
      onOk={() => {
        setError(undefined);
        save.mutate();
      }}
      okText={t('reports.saveSchedule')}
      confirmLoading={save.isPending}
      data-testid="schedule-dialog"
    >
      <Form layout="vertical">
        <Form.Item label={t('reports.frequency')}>
          <Segmented<'weekly' | 'monthly'>
            value={frequency}
            onChange={setFrequency}
            aria-label={t('reports.frequency')}
            options={[
              { value: 'weekly', label: t('reports.weekly') },
              { value: 'monthly', label: t('reports.monthly') },
            ]}
            data-testid="schedule-edit-frequency"
          />
        </Form.Item>
        <Form.Item label={t('reports.format')}>
          <Segmented<'pdf' | 'xlsx'> value={format} onChange={setFormat} aria-label={t('reports.format')} options={['pdf', 'xlsx']} />
        </Form.Item>
        <Form.Item label={t('reports.recipients')}>
          <RecipientsEditor value={recipients} onChange={setRecipients} bad={bad} testPrefix="schedule-edit" />
        </Form.Item>
      </Form>
      {error && <Alert type="error" showIcon message={error} />}
    </Modal>
  );
}
