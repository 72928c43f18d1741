import { ClockCircleOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { translate } from '@sunward/contracts/messages';
import { checkTouSegments, PLANT_LIMITS } from '@sunward/contracts/plants';
import { AutoComplete, Button, Form, type FormInstance, Input, InputNumber, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../../../lib/i18n';
import { priceRule, requiredRule } from './rules';
import {
  addTouRow,
  CLOCK_CHOICES,
  chainTouStarts,
  removeTouRow,
  type TouBarPart,
  type TouRow,
  touBarParts,
  touProblemField,
  touSegmentsForCheck,
} from './tou';

const SEGMENTS = ['tariff', 'segments'] as const;

/** A time field: any HH:mm may be typed (24:00 included), or picked from the half-hour choices. */
function ClockInput(props: {
  value?: string;
  onChange?: (value: string) => void;
  status?: 'error';
  disabled?: boolean;
  testId: string;
  ariaLabel: string;
}) {
  const typed = props.value ?? '';
  const options = CLOCK_CHOICES.filter((c) => typed.length === 5 || c.startsWith(typed) || c.startsWith(`0${typed}`)).map((value) => ({
    value,
  }));
  return (
    <AutoComplete
      value={props.value}
      onChange={(value: string) => props.onChange?.(value)}
      options={options}
      status={props.status}
      disabled={props.disabled}
      className="sw-pf-clock"
      popupMatchSelectWidth={110}
      listHeight={224}
    >
      <Input
        suffix={<ClockCircleOutlined className="sw-muted" />}
        placeholder="HH:mm"
        maxLength={5}
        inputMode="numeric"
        data-testid={props.testId}
        aria-label={props.ariaLabel}
      />
    </AutoComplete>
  );
}

const BAR_LOW = [255, 231, 186];
const BAR_HIGH = [212, 56, 13];

function barColour(level: number): string {
  const channel = (i: number) => Math.round((BAR_LOW[i] ?? 0) + ((BAR_HIGH[i] ?? 0) - (BAR_LOW[i] ?? 0)) * level);
  return `rgb(${channel(0)}, ${channel(1)}, ${channel(2)})`;
}

/** The day as a bar: each period's width is its hours, its colour its price (darker is dearer). */
export function TouBar({ parts, currency }: { parts: TouBarPart[]; currency: string | undefined }) {
  const { t } = useTranslation();
  return (
    <div className="sw-pf-toubar" role="img" aria-label={t('plantform.touBar')} data-testid="tou-bar">
      <div className="sw-pf-toubar-track">
        {parts.map((part) => (
          <div
            key={`${part.from}-${part.to}`}
            className="sw-pf-toubar-part"
            style={{
              left: `${part.from * 100}%`,
              width: `${(part.to - part.from) * 100}%`,
              background: barColour(part.level),
              color: part.level > 0.6 ? '#fff' : '#613400',
            }}
            title={part.price === null ? undefined : `${part.price} ${currency ?? ''}/kWh`}
          >
            {part.to - part.from >= 0.09 && part.price !== null ? part.price : ''}
          </div>
        ))}
      </div>
      <div className="sw-pf-toubar-ticks">
        {[0, 6, 12, 18, 24].map((h) => (
          <span key={h} style={{ left: `${(h / 24) * 100}%` }}>
            {String(h).padStart(2, '0')}:00
          </span>
        ))}
      </div>
    </div>
  );
}

/**
 * Time-of-use periods: up to six rows, the first from 00:00, each starting where the previous ends
 * (filled in for the user), the last ending at 24:00. Problems are the server's own rule
 * (checkTouSegments), shown under the rows as the user types.
 */
export function TouEditor({ form, disabled }: { form: FormInstance; disabled?: boolean }) {
  const { t } = useTranslation();
  const rows = Form.useWatch<TouRow[] | undefined>([...SEGMENTS], form) ?? [];
  const currency = Form.useWatch<string | undefined>(['tariff', 'currency'], form);
  const problem = rows.length ? checkTouSegments(touSegmentsForCheck(rows)) : null;
  const problemField = problem ? touProblemField(problem.problem) : null;
  // A bad price is already shown beside the price field by its own rule.
  const listMessage =
    problem && problem.problem !== 'price'
      ? t('plantform.touProblem', {
          n: problem.index + 1,
          problem: translate(currentLanguage(), `validation.tou.${problem.problem}`),
        })
      : null;

  const current = (): TouRow[] => (form.getFieldValue([...SEGMENTS]) as TouRow[] | undefined) ?? [];
  const replace = (next: TouRow[]) => form.setFieldValue([...SEGMENTS], next);

  return (
    <div className="sw-pf-tou" data-testid="tou-editor">
      <Form.List name={[...SEGMENTS]}>
        {(fields) => (
          <div className="sw-pf-tou-rows">
            <div className="sw-pf-tou-head">
              <span />
              <span>{t('plantform.touStart')}</span>
              <span />
              <span>{t('plantform.touEnd')}</span>
              <span>{t('plantform.touPrice')}</span>
              <span />
            </div>
            {fields.map((field, index) => {
              const bad = (which: 'start' | 'end' | 'price') =>
                problem?.index === index && problemField === which && which !== 'price' ? 'error' : undefined;
              return (
                <div key={field.key} className="sw-pf-tou-row" data-testid={`tou-row-${index}`}>
                  <span className="sw-pf-tou-index">{index + 1}</span>
                  <Form.Item name={[field.name, 'start']} validateStatus={bad('start')} noStyle>
                    <ClockInput disabled testId="tou-start" ariaLabel={t('plantform.touStart')} status={bad('start')} />
                  </Form.Item>
                  <span className="sw-pf-tou-dash">–</span>
                  <Form.Item name={[field.name, 'end']} validateStatus={bad('end')} className="sw-pf-tou-cell">
                    <ClockInput
                      testId="tou-end"
                      ariaLabel={t('plantform.touEnd')}
                      status={bad('end')}
                      disabled={disabled}
                      onChange={() => queueMicrotask(() => replace(chainTouStarts(current())))}
                    />
                  </Form.Item>
                  <Form.Item name={[field.name, 'price']} rules={[requiredRule(t), priceRule]} className="sw-pf-tou-cell">
                    <InputNumber
                      placeholder="0.00"
                      step={0.01}
                      suffix={currency ? `${currency}/kWh` : '/kWh'}
                      disabled={disabled}
                      data-testid="tou-price"
                      aria-label={t('plantform.touPrice')}
                      className="sw-pf-num"
                    />
                  </Form.Item>
                  <Button
                    type="text"
                    icon={<DeleteOutlined />}
                    disabled={disabled || fields.length <= 1}
                    aria-label={t('plantform.touRemove')}
                    title={t('plantform.touRemove')}
                    onClick={() => replace(removeTouRow(current(), index))}
                  />
                </div>
              );
            })}
          </div>
        )}
      </Form.List>
      {listMessage && (
        <Typography.Text type="danger" className="sw-pf-tou-problem" data-testid="tou-problem" role="alert">
          {listMessage}
        </Typography.Text>
      )}
      <div className="sw-pf-tou-actions">
        <Button
          icon={<PlusOutlined />}
          onClick={() => replace(addTouRow(current()))}
          disabled={disabled || rows.length >= PLANT_LIMITS.touSegmentsMax}
          data-testid="tou-add"
        >
          {t('plantform.touAdd')}
        </Button>
        <Typography.Text type="secondary">{t('plantform.touHint', { max: PLANT_LIMITS.touSegmentsMax })}</Typography.Text>
      </div>
      <TouBar parts={touBarParts(rows)} currency={currency} />
    </div>
  );
}
