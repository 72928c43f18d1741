import type { CSSProperties } from 'react';
import './meter.css';

/**
 * A line meter drawn like antd's `Progress` line without its text (issue 18: antd's Progress, 5.6 KB gzip, was the
 * overview's only reason to load it). `role="progressbar"` with its value, so a screen reader reads the share.
 */
export function Meter({
  percent,
  color,
  size = 'default',
  label,
  testId,
}: {
  percent: number;
  /** One colour, or a gradient from left to right. */
  color: string | { from: string; to: string };
  size?: 'small' | 'default';
  label: string;
  testId?: string;
}) {
  const value = Math.max(0, Math.min(100, Number.isFinite(percent) ? percent : 0));
  const fill: CSSProperties = {
    width: `${value}%`,
    background: typeof color === 'string' ? color : `linear-gradient(to right, ${color.from}, ${color.to})`,
  };
  return (
    <div
      className={size === 'small' ? 'sw-meter sw-meter-small' : 'sw-meter'}
      role="progressbar"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.round(value)}
      aria-label={label}
      data-testid={testId}
    >
      <div className="sw-meter-fill" style={fill} />
    </div>
  );
}
