import './period-picker.css';
import { LANGUAGE_TAGS } from '@sunward/contracts/languages';
import { Segmented, Space } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { datePattern } from '../lib/format';
import { currentLanguage } from '../lib/i18n';
import { VisuallyHidden } from './VisuallyHidden';

// antd's DatePicker loads when the date is first opened: the plant overview's first load does not carry it (issue 18).
const PeriodDate = lazy(async () => ({ default: (await import('./PeriodDate')).PeriodDate }));

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

/** A period's date as the date picker writes it in the console language (de "26.11.2026", en-GB "26/11/2026"). */
export function shownParam(tab: Exclude<PeriodTab, 'total'>, param: string, tag: string): string {
  const [year = '', month = '01', day = '01'] = param.split('-');
  const pattern = tab === 'year' ? 'YYYY' : datePattern(tag, tab === 'day' ? 'date' : 'month');
  return pattern
    .replace('YYYY', year)
    .replace('MM', month)
    .replace('DD', day)
    .replace(/\[([^\]]*)\]/g, '$1');
}

const CALENDAR_ICON =
  'M880 184H712v-64c0-4.4-3.6-8-8-8h-56c-4.4 0-8 3.6-8 8v64H384v-64c0-4.4-3.6-8-8-8h-56c-4.4 0-8 3.6-8 8v64H144c-17.7 0-32 14.3-32 32v664c0 17.7 14.3 32 32 32h736c17.7 0 32-14.3 32-32V216c0-17.7-14.3-32-32-32zm-40 656H184V460h656v380zM184 392V256h128v48c0 4.4 3.6 8 8 8h56c4.4 0 8-3.6 8-8v-48h256v48c0 4.4 3.6 8 8 8h56c4.4 0 8-3.6 8-8v-48h128v136H184z';

/** The date as a button drawn like antd's small picker until the picker itself is wanted. */
function DateButton({ text, label, testId, onOpen }: { text: string; label: string; testId?: string; onOpen(): void }) {
  return (
    <button type="button" className="sw-date-lite" aria-haspopup="dialog" onClick={onOpen} data-testid={testId}>
      <VisuallyHidden>{label}: </VisuallyHidden>
      <span>{text}</span>
      <svg viewBox="64 64 896 896" width="1em" height="1em" fill="currentColor" aria-hidden="true" focusable="false">
        <path d={CALENDAR_ICON} />
      </svg>
    </button>
  );
}

/**
 * A day, month or year field: the date as a button drawn like antd's small picker, antd's DatePicker loaded, opened
 * and focused when it is first clicked (31 KB of JavaScript gzip off the first load of the pages that show periods).
 */
export function PeriodDateField({
  tab,
  param,
  today,
  label,
  testId,
  onChange,
}: {
  tab: Exclude<PeriodTab, 'total'>;
  param: string;
  today: string;
  label: string;
  testId?: string;
  onChange(param: string): void;
}) {
  const [pickerWanted, setPickerWanted] = useState(false);
  const button = (
    <DateButton
      text={shownParam(tab, param, LANGUAGE_TAGS[currentLanguage()])}
      label={label}
      testId={testId}
      onOpen={() => setPickerWanted(true)}
    />
  );
  if (!pickerWanted) return button;
  return (
    <Suspense fallback={button}>
      <PeriodDate tab={tab} param={param} today={today} label={label} testId={testId} onChange={onChange} />
    </Suspense>
  );
}

/**
 * Day / month / year / lifetime tabs with the matching picker; days after the plant's today cannot be picked. The
 * picker (antd's DatePicker) loads when the date is first clicked and opens then.
 */
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
        <PeriodDateField
          tab={tab}
          param={period.param}
          today={today}
          label={t('overview.pickDate')}
          testId={`${testId}-date`}
          onChange={(param) => onChange({ tab, param })}
        />
      )}
    </Space>
  );
}
