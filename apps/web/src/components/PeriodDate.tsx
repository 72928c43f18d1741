import { addDays } from '@sunward/contracts/plant-energy';
import { DatePicker } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';

/** The periods with a date (components/PeriodPicker's tabs but the lifetime). */
type DatedTab = 'day' | 'month' | 'year';

const FORMAT: Record<DatedTab, string> = { day: 'YYYY-MM-DD', month: 'YYYY-MM', year: 'YYYY' };

/**
 * The period picker's date field: antd's DatePicker (31 KB of JavaScript gzip), loaded when the user first opens
 * it (components/PeriodPicker.tsx), then open and focused; days after the plant's today cannot be picked.
 */
export function PeriodDate({
  tab,
  param,
  today,
  label,
  testId,
  onChange,
}: {
  tab: DatedTab;
  param: string;
  today: string;
  label: string;
  testId?: string;
  onChange(param: string): void;
}) {
  const [open, setOpen] = useState(true);
  const tomorrow = dayjs(addDays(today, 1));
  const disabledDate = (d: Dayjs) => !d.isBefore(tomorrow, 'day');
  return (
    <DatePicker
      size="small"
      allowClear={false}
      autoFocus
      open={open}
      onOpenChange={setOpen}
      picker={tab === 'day' ? 'date' : tab}
      value={dayjs(param, FORMAT[tab])}
      disabledDate={disabledDate}
      onChange={(value: Dayjs | null) => value && onChange(value.format(FORMAT[tab]))}
      aria-label={label}
      data-testid={testId}
    />
  );
}
