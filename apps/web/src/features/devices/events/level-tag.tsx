import { EVENT_LEVELS, type EventLevel } from '@sunward/contracts/events';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

/** Fault red, warning orange, protection purple: the colours device statuses use across the console. */
export const LEVEL_STYLE: Record<EventLevel, { label: string; tag: string; color: string }> = {
  fault: { label: 'eventList.levelFault', tag: 'error', color: '#f5222d' },
  warning: { label: 'eventList.levelWarning', tag: 'warning', color: '#fa8c16' },
  protect: { label: 'eventList.levelProtect', tag: 'purple', color: '#722ed1' },
};

export const isLevel = (value: string): value is EventLevel => (EVENT_LEVELS as readonly string[]).includes(value);

/** An event level as a filled tag in its colour that also says it in words (readable in light and dark looks). */
export function LevelTag({ level }: { level: string }) {
  const { t } = useTranslation();
  const style = isLevel(level) ? LEVEL_STYLE[level] : undefined;
  return (
    <Tag color={style?.tag ?? 'default'} variant="filled" data-level={level}>
      {style ? t(style.label) : level}
    </Tag>
  );
}
