import { PlusOutlined } from '@ant-design/icons';
import { LANGUAGE_NAMES, LANGUAGES, type Language } from '@sunward/contracts/languages';
import { REPORT_MAX_RECIPIENTS, ReportRecipientSchema } from '@sunward/contracts/reports';
import { Button, Input, Select, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../../lib/i18n';

export interface RecipientDraft {
  email: string;
  language: Language;
}

/** The server's own rule (contracts), so the console refuses exactly what the server would. */
export const isRecipientEmail = (email: string) => ReportRecipientSchema.shape.email.safeParse(email).success;

/**
 * Checks recipients before they are sent: blank rows are dropped, every other address must be an e-mail
 * address. Answers the rows kept, or the positions (in `drafts`) of the bad addresses.
 */
export function checkRecipients(drafts: readonly RecipientDraft[]): { recipients: RecipientDraft[]; bad: number[] } {
  const bad = drafts.flatMap((r, i) => (r.email.trim() !== '' && !isRecipientEmail(r.email) ? [i] : []));
  return { recipients: drafts.filter((r) => r.email.trim() !== '').map((r) => ({ ...r, email: r.email.trim() })), bad };
}

/**
 * A schedule's recipients, each an e-mail address and the language their report is written in; used by the
 * new-schedule form and the edit dialog. `bad` marks rows whose address is refused, with the reason under it.
 */
export function RecipientsEditor({
  value,
  onChange,
  bad,
  testPrefix,
}: {
  value: readonly RecipientDraft[];
  onChange(next: RecipientDraft[]): void;
  bad: readonly number[];
  testPrefix: string;
}) {
  const { t } = useTranslation();
  const set = (i: number, change: Partial<RecipientDraft>) => onChange(value.map((x, j) => (j === i ? { ...x, ...change } : x)));
  return (
    <>
      {value.map((r, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: recipients are edited in place, by position
        <div key={i} style={{ marginTop: 8 }}>
          <Space wrap>
            <Input
              type="email"
              style={{ width: 260 }}
              placeholder={t('reports.email')}
              aria-label={t('reports.email')}
              aria-invalid={bad.includes(i)}
              status={bad.includes(i) ? 'error' : undefined}
              value={r.email}
              onChange={(e) => set(i, { email: e.target.value })}
              data-testid={`${testPrefix}-email-${i}`}
            />
            <Select<Language>
              style={{ width: 160 }}
              aria-label={t('reports.language')}
              value={r.language}
              onChange={(language) => set(i, { language })}
              options={LANGUAGES.map((l) => ({ value: l, label: LANGUAGE_NAMES[l] }))}
              data-testid={`${testPrefix}-language-${i}`}
            />
            {value.length > 1 && <Button onClick={() => onChange(value.filter((_, j) => j !== i))}>{t('reports.remove')}</Button>}
          </Space>
          {bad.includes(i) && (
            <Typography.Text type="danger" style={{ display: 'block' }} data-testid={`${testPrefix}-error-${i}`}>
              {t('reports.badEmail', { email: r.email.trim() })}
            </Typography.Text>
          )}
        </div>
      ))}
      {value.length < REPORT_MAX_RECIPIENTS && (
        <Button
          style={{ marginTop: 8 }}
          icon={<PlusOutlined />}
          onClick={() => onChange([...value, { email: '', language: currentLanguage() }])}
          data-testid={`${testPrefix}-add`}
        >
          {t('reports.addRecipient')}
        </Button>
      )}
    </>
  );
}
