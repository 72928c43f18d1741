import { LANGUAGE_TAGS } from '@sunward/contracts/languages';
import type { ProtocolSwitchPreview, ProtocolSwitchRow, SwitchRowStatus } from '@sunward/contracts/protocol-switch';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Checkbox, Form, Input, Modal, Select, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fieldErrors, refusalMessage } from '../../lib/api-client';
import { registerTexts } from '../../lib/feature-texts';
import { exactTime } from '../../lib/format';
import { currentLanguage } from '../../lib/i18n';
import { fetchProtocolPage, fetchSwitchPreview, protocolKeys, switchProtocol } from './api';
import { switchTexts } from './switch-texts';

registerTexts(switchTexts);

/** Colour and text of each row's result (the text says it; the colour only helps). */
const STATUS_COLOURS: Record<SwitchRowStatus, string> = {
  same: 'default',
  changed: 'orange',
  added: 'green',
  removed: 'red',
  no_data: 'purple',
};

const valueText = (value: number | string | null, unit: string | null, locale: string) =>
  value === null
    ? '—'
    : `${typeof value === 'number' ? value.toLocaleString(locale, { maximumFractionDigits: 6 }) : value}${unit ? ` ${unit}` : ''}`;

/** A switch's point-by-point preview: how many points differ, the table (only differences by default), unread registers. */
export function SwitchDiff({ data }: { data: Pick<ProtocolSwitchPreview, 'rows' | 'uncovered'> }) {
  const { t } = useTranslation();
  const locale = LANGUAGE_TAGS[currentLanguage()];
  const zh = currentLanguage() === 'cn';
  const [onlyDifferences, setOnlyDifferences] = useState(true);
  const differing = data.rows.filter((r) => r.status !== 'same');
  const rows = onlyDifferences ? differing : data.rows;
  return (
    <>
      <Space wrap>
        <Typography.Text data-testid="switch-summary">
          {t('protocolSwitch.summary', { changed: differing.length, total: data.rows.length })}
        </Typography.Text>
        <Checkbox checked={onlyDifferences} onChange={(e) => setOnlyDifferences(e.target.checked)} data-testid="switch-only-differences">
          {t('protocolSwitch.onlyDifferences')}
        </Checkbox>
      </Space>
      <Table<ProtocolSwitchRow>
        rowKey="id"
        size="small"
        pagination={false}
        scroll={{ y: 360 }}
        dataSource={rows}
        data-testid="switch-table"
        columns={[
          {
            key: 'point',
            title: t('protocolSwitch.colPoint'),
            render: (_, r) => (
              <Space direction="vertical" size={0}>
                <Typography.Text code>{r.id}</Typography.Text>
                <Typography.Text type="secondary">{zh ? r.label.zh || r.label.en : r.label.en}</Typography.Text>
              </Space>
            ),
          },
          { key: 'before', title: t('protocolSwitch.colBefore'), render: (_, r) => valueText(r.before, r.unitBefore, locale) },
          { key: 'after', title: t('protocolSwitch.colAfter'), render: (_, r) => valueText(r.after, r.unitAfter, locale) },
          {
            key: 'status',
            title: t('protocolSwitch.colStatus'),
            render: (_, r) => (
              <Tag color={STATUS_COLOURS[r.status]} data-testid={`switch-status-${r.id}`}>
                {t(`protocolSwitch.status_${r.status}`)}
              </Tag>
            ),
          },
        ]}
      />
      {data.uncovered.length > 0 && (
        <Alert
          type="warning"
          showIcon
          data-testid="switch-uncovered"
          message={t('protocolSwitch.uncovered', {
            ranges: data.uncovered
              .map((u) => `FC${u.functionCode} ${u.address}${u.count > 1 ? `–${u.address + u.count - 1}` : ''}`)
              .join(', '),
          })}
        />
      )}
    </>
  );
}

/**
 * A device's protocol switch (issue 19): the device (its SN), the candidate protocol, the preview of what its
 * latest reading would read with it point by point, and the switch with the password again.
 */
export function ProtocolSwitchModal({ open, initialSn, onClose }: { open: boolean; initialSn?: string; onClose(): void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const locale = LANGUAGE_TAGS[currentLanguage()];
  const [sn, setSn] = useState(initialSn ?? '');
  const [candidate, setCandidate] = useState<number>();
  const [password, setPassword] = useState('');
  const device = sn.trim();

  const protocols = useQuery({
    queryKey: protocolKeys.page({ enabled: 'true', size: 100 }),
    queryFn: () => fetchProtocolPage({ enabled: 'true', size: 100 }),
    enabled: open,
  });
  const preview = useQuery({
    queryKey: [...protocolKeys.all, 'switch', device, candidate],
    queryFn: () => fetchSwitchPreview(device, candidate ?? 0),
    enabled: open && device.length > 0 && candidate !== undefined,
    retry: false,
  });
  const apply = useMutation({
    mutationFn: () => switchProtocol(device, candidate ?? 0, password),
    onSuccess: (done) => {
      void message.success(
        t('protocolSwitch.done', { sn: done.sn, identifier: done.protocolId, version: done.protocolVersion, count: done.readingsCarried }),
      );
      // The previews are of the protocol the device no longer has: dropped, not fetched again (that would be refused).
      const previews = [...protocolKeys.all, 'switch'];
      queryClient.removeQueries({ queryKey: previews });
      void queryClient.invalidateQueries({
        queryKey: protocolKeys.all,
        predicate: (query) => query.queryKey[previews.length - 1] !== 'switch',
      });
      void queryClient.invalidateQueries({ queryKey: ['devices'] });
      setPassword('');
      setCandidate(undefined);
      onClose();
    },
  });

  const refusal = preview.error ?? apply.error;
  const fields = fieldErrors(refusal);
  const data = preview.data;

  return (
    <Modal
      open={open}
      width={960}
      title={t('protocolSwitch.title')}
      onCancel={onClose}
      okText={t('protocolSwitch.confirm')}
      cancelText={t('protocolSwitch.cancel')}
      okButtonProps={{ disabled: !data || password.length === 0, loading: apply.isPending, danger: true, 'data-testid': 'switch-confirm' }}
      onOk={() => apply.mutate()}
      destroyOnHidden
      data-testid="protocol-switch-modal"
    >
      <Form layout="vertical" component="div">
        <Space wrap align="start" size={16}>
          <Form.Item
            label={t('protocolSwitch.sn')}
            htmlFor="switch-sn"
            validateStatus={refusal && !fields.protocolId && !data ? 'error' : undefined}
          >
            <Input id="switch-sn" value={sn} onChange={(e) => setSn(e.target.value)} style={{ width: 220 }} data-testid="switch-sn" />
          </Form.Item>
          <Form.Item
            label={t('protocolSwitch.candidate')}
            htmlFor="switch-candidate"
            validateStatus={fields.protocolId ? 'error' : undefined}
            help={fields.protocolId}
          >
            <Select<number>
              id="switch-candidate"
              style={{ width: 320 }}
              showSearch
              optionFilterProp="label"
              placeholder={t('protocolSwitch.candidatePlaceholder')}
              loading={protocols.isPending}
              value={candidate}
              onChange={setCandidate}
              options={(protocols.data?.infos ?? []).map((p) => ({
                value: p.id,
                label: `${p.name} · ${p.identifier} · v${p.currentVersion}`,
              }))}
              data-testid="switch-candidate"
            />
          </Form.Item>
        </Space>
      </Form>

      {refusal && !fields.protocolId && (
        <Alert
          type="error"
          showIcon
          message={refusalMessage(refusal) ?? t('protocolSwitch.failed')}
          style={{ marginBottom: 12 }}
          data-testid="switch-refusal"
        />
      )}

      {data && (
        <Space direction="vertical" style={{ width: '100%' }} data-testid="switch-preview">
          <Typography.Text>{t('protocolSwitch.from', data.from)}</Typography.Text>
          <Typography.Text strong>{t('protocolSwitch.to', data.to)}</Typography.Text>
          <Typography.Text type="secondary">
            {data.readingAt ? t('protocolSwitch.readingAt', { time: exactTime(data.readingAt, locale) }) : t('protocolSwitch.noReading')}
          </Typography.Text>
          <SwitchDiff data={data} />
          <Alert type="info" showIcon message={t('protocolSwitch.note')} />
          <Form layout="vertical" component="div">
            <Form.Item label={t('protocolSwitch.password')} htmlFor="switch-password" style={{ marginBottom: 0 }}>
              <Input.Password
                id="switch-password"
                autoComplete="current-password"
                value={password}
                onChange={(e) => setPassword(e.target.value)}
                style={{ width: 260 }}
                data-testid="switch-password"
              />
            </Form.Item>
          </Form>
        </Space>
      )}
    </Modal>
  );
}
