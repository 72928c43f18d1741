import '../texts';
import type { GatewayRefusal, GatewayRow } from '@sunward/contracts/gateways';
import { LANGUAGE_TAGS } from '@sunward/contracts/languages';
import { useQuery } from '@tanstack/react-query';
import { Alert, Drawer, Empty, Table, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { registerTexts } from '../../../lib/feature-texts';
import { exactTime, relativeTime } from '../../../lib/format';
import { currentLanguage } from '../../../lib/i18n';
import { gatewayRefusalTexts } from '../texts/gateway-refusals';
import { fetchGatewayRefusals, gatewayKeys } from './api';

registerTexts(gatewayRefusalTexts);

const OF_COLOR: Record<GatewayRefusal['of'], string> = { report: 'orange', reply: 'purple', login: 'red' };
const OF_TEXT: Record<GatewayRefusal['of'], string> = {
  report: 'gatewayRefusals.ofReport',
  reply: 'gatewayRefusals.ofReply',
  login: 'gatewayRefusals.ofLogin',
};

/**
 * What the server refused from one gateway (issue 25): the count of the last 24 hours, coloured, and the
 * newest refusals with their reason in the reader's language (the protocol's code beside it, as the
 * gateway hears it on its …/refused topics) and the server's technical detail.
 */
export function GatewayRefusalsDrawer({ row, onClose }: { row: GatewayRow; onClose(): void }) {
  const { t, i18n } = useTranslation();
  const locale = LANGUAGE_TAGS[currentLanguage()];
  const refusals = useQuery({
    queryKey: gatewayKeys.refusals(row.id),
    queryFn: () => fetchGatewayRefusals(row.id),
    refetchInterval: 30_000,
  });
  const reasonText = (reason: string | null) => {
    const key = `gatewayRefusals.reason.${reason}`;
    return reason && i18n.exists(key) ? t(key) : t('gatewayRefusals.reasonOther');
  };
  const columns: ColumnsType<GatewayRefusal> = [
    {
      key: 'at',
      width: 130,
      title: t('gatewayRefusals.colAt'),
      render: (_, r) => <Tooltip title={exactTime(r.at, locale)}>{relativeTime(r.at, Date.now(), locale)}</Tooltip>,
    },
    {
      key: 'of',
      width: 150,
      title: t('gatewayRefusals.colOf'),
      render: (_, r) => <Tag color={OF_COLOR[r.of]}>{t(OF_TEXT[r.of])}</Tag>,
    },
    {
      key: 'reason',
      title: t('gatewayRefusals.colReason'),
      render: (_, r) => (
        <span data-testid="refusal-reason" data-reason={r.reason ?? ''}>
          {reasonText(r.reason)}
          {r.reason && (
            <Typography.Text type="secondary" code style={{ marginInlineStart: 6 }}>
              {r.reason}
            </Typography.Text>
          )}
        </span>
      ),
    },
    {
      key: 'detail',
      title: t('gatewayRefusals.colDetail'),
      render: (_, r) => (
        <Typography.Text type="secondary" style={{ wordBreak: 'break-word' }}>
          {r.detail ?? '--'}
        </Typography.Text>
      ),
    },
    { key: 'count', width: 80, align: 'right', title: t('gatewayRefusals.colCount'), render: (_, r) => r.count },
  ];
  const last24h = refusals.data?.last24h;
  return (
    <Drawer open width={860} title={t('gatewayRefusals.title', { sn: row.sn })} onClose={onClose} data-testid="gateway-refusals">
      {last24h !== undefined && (
        <Alert
          type={last24h > 0 ? 'warning' : 'success'}
          showIcon
          message={last24h > 0 ? t('gatewayRefusals.last24h', { count: last24h }) : t('gatewayRefusals.none24h')}
          description={t('gatewayRefusals.hint')}
          style={{ marginBottom: 12 }}
          data-testid="refusals-24h"
        />
      )}
      <Table<GatewayRefusal>
        rowKey={(r) => `${r.at}|${r.of}|${r.reason}|${r.detail}`}
        size="small"
        columns={columns}
        dataSource={refusals.data?.infos ?? []}
        loading={refusals.isPending}
        pagination={false}
        locale={{ emptyText: <Empty description={t('gatewayRefusals.empty')} image={Empty.PRESENTED_IMAGE_SIMPLE} /> }}
      />
    </Drawer>
  );
}
