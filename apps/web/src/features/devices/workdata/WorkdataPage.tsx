import '../texts';
import { LANGUAGE_TAGS } from '@sunward/contracts/languages';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Card, DatePicker, Empty, Input, Space, Table, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { PageProps } from '../../../app/page-props';
import { PageTitle } from '../../../components/PageTitle';
import { exactTime } from '../../../lib/format';
import { currentLanguage } from '../../../lib/i18n';
import { useUrlList } from '../../../lib/use-url-list';
import { deviceKeys, fetchWorkdata } from '../api';
import { formatPointValue } from '../device-format';

const PAGE_SIZE = 50;

/** Quick ranges of spec 02 §9: today, yesterday, last 3, 7, 30 and 60 days. */
function quickRanges(t: TFunction): { label: string; value: [Dayjs, Dayjs] }[] {
  const startOfToday = dayjs().startOf('day');
  return [
    { label: t('devices.today'), value: [startOfToday, dayjs()] },
    { label: t('devices.yesterday'), value: [startOfToday.subtract(1, 'day'), startOfToday] },
    ...[3, 7, 30, 60].map((n) => ({
      label: t('devices.lastDays', { count: n }),
      value: [startOfToday.subtract(n - 1, 'day'), dayjs()] as [Dayjs, Dayjs],
    })),
  ];
}

/** /workdata/list: a device's stored readings (operation data records), one column per point, newest first. */
export function WorkdataPage({ route }: PageProps) {
  const { t } = useTranslation();
  const locale = LANGUAGE_TAGS[currentLanguage()];
  const { search, update, page } = useUrlList([], '');
  const sn = search.get('sn') ?? '';
  const from = search.get('from') ?? dayjs().startOf('day').toISOString();
  const to = search.get('to') ?? dayjs().endOf('day').toISOString();
  const data = useQuery({
    queryKey: deviceKeys.workdata(sn, from, to, page),
    queryFn: () => fetchWorkdata(sn, from, to, page, PAGE_SIZE),
    enabled: sn !== '',
    placeholderData: keepPreviousData,
    retry: false,
  });
  const columns = [
    {
      key: 'ts',
      title: t('devices.time'),
      fixed: 'left' as const,
      width: 180,
      render: (_: unknown, row: { ts: string }) => exactTime(row.ts, locale),
    },
    ...(data.data?.columns ?? []).map((c, i) => ({
      key: c.id,
      title: c.unit ? `${c.label} (${c.unit})` : c.label,
      width: 140,
      align: 'right' as const,
      render: (_: unknown, row: { values: (number | null)[] }) => formatPointValue(row.values[i] ?? null, null, locale),
    })),
  ];
  return (
    <Card data-testid="workdata-page" title={<PageTitle route={route} />}>
      <Space wrap style={{ marginBottom: 16 }}>
        <Input.Search
          placeholder={t('devices.workdataSn')}
          defaultValue={sn}
          enterButton={t('devices.show')}
          onSearch={(value) => update({ sn: value.trim() || undefined, page: undefined })}
          style={{ width: 320 }}
          data-testid="workdata-sn"
        />
        <DatePicker.RangePicker
          showTime
          value={[dayjs(from), dayjs(to)]}
          presets={quickRanges(t)}
          onChange={(range) =>
            range?.[0] && range[1] && update({ from: range[0].toISOString(), to: range[1].toISOString(), page: undefined })
          }
        />
      </Space>
      {sn === '' ? (
        <Empty description={t('devices.workdataHint')} />
      ) : data.isError ? (
        <Empty description={<Typography.Text type="danger">{t('devices.notFound')}</Typography.Text>} />
      ) : (
        <Table
          rowKey="ts"
          size="small"
          columns={columns}
          dataSource={data.data?.infos ?? []}
          loading={data.isFetching}
          scroll={{ x: 'max-content' }}
          pagination={{
            current: page,
            pageSize: PAGE_SIZE,
            total: data.data?.total ?? 0,
            showSizeChanger: false,
            onChange: (p) => update({ page: String(p) }),
          }}
          locale={{ emptyText: <Empty description={t('devices.workdataEmpty')} image={Empty.PRESENTED_IMAGE_SIMPLE} /> }}
        />
      )}
    </Card>
  );
}
