import { addDays } from '@sunward/contracts/plant-energy';
import { DatePicker, Segmented, Space } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';

export type PeriodTab = 'day' | 'month' | 'year' | 'total';

export const PERIOD_TABS: { value: PeriodTab; label: string }[] = [
  { value: 'day', label: 'overview.tabDay' },
  { value: 'month', label: 'overview.tabMonth' },
  { value: 'year', label: 'overview.tabYear' },
  { value: 'total', label: 'overview.tabTotal' },
];

/** A period and its parameter: a day YYYY-MM-DD, a month YYYY-MM, a year YYYY, or the lifetime. */
export interface Period {
  tab: PeriodTab;
  param: string;
}

export function defaultParam(tab: PeriodTab, today: string): string {
  if (tab === 'day') return today;
  if (tab === 'month') return today.slice(0, 7);
  if (tab === 'year') return today.slice(0, 4);
  return '';
}

const FORMAT: Record<Exclude<PeriodTab, 'total'>, string> = { day: 'YYYY-MM-DD', month: 'YYYY-MM', year: 'YYYY' };

/** Day / month / year / lifetime tabs with the matching picker; days after the plant's today cannot be picked. */
export function PeriodPicker({
  period,
  today,
  onChange,
  testId,
  tabs,
}: {
  period: Period;
  today: string;
  onChange(period: Period): void;
  testId: string;
  /** The tabs offered (default: all four; reports have no lifetime). */
  tabs?: readonly PeriodTab[];
}) {
  const { t } = useTranslation();
  const tomorrow = dayjs(addDays(today, 1));
  const disabledDate = (d: Dayjs) => !d.isBefore(tomorrow, 'day');
  const tab = period.tab;
  return (
    <Space wrap size={8}>
      <Segmented
        size="small"
        value={period.tab}
        options={PERIOD_TABS.filter((tab) => !tabs || tabs.includes(tab.value)).map((tab) => ({ value: tab.value, label: t(tab.label) }))}
        onChange={(tab) => onChange({ tab, param: defaultParam(tab, today) })}
        data-testid={`${testId}-tabs`}
      />
      {tab !== 'total' && (
        <DatePicker
          size="small"
          allowClear={false}
          picker={tab === 'day' ? 'date' : tab}
          value={dayjs(period.param, FORMAT[tab])}
          disabledDate={disabledDate}
          onChange={(value: Dayjs | null) => value && onChange({ tab, param: value.format(FORMAT[tab]) })}
          aria-label={t('overview.pickDate')}
          data-testid={`${testId}-date`}
        />
      )}
    </Space>
  );
}
