import { useId } from 'react';
import './choice-buttons.css';

/**
 * A row of choices drawn like antd's small button-style `Radio.Group` (issue 18: antd's Radio was 3.7 KB gzip of the
 * overview's first load for one row of quick ranges). Native radio inputs, so arrow keys move between the choices
 * and a screen reader announces a radio group; no choice may be selected (`value` null).
 */
export function ChoiceButtons<V extends string>({
  value,
  options,
  onChange,
  label,
  testId,
}: {
  value: V | null;
  options: readonly { value: V; label: string }[];
  onChange: (value: V) => void;
  label?: string;
  testId?: string;
}) {
  const name = useId();
  return (
    <div className="sw-choices" role="radiogroup" aria-label={label} data-testid={testId}>
      {options.map((option) => (
        <label key={option.value} className={option.value === value ? 'sw-choice sw-choice-checked' : 'sw-choice'}>
          <input type="radio" name={name} value={option.value} checked={option.value === value} onChange={() => onChange(option.value)} />
          <span>{option.label}</span>
        </label>
      ))}
    </div>
  );
}
