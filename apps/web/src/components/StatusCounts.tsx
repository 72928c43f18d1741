import type { PlantStatusCount } from '@sunward/contracts/plants';
import { formatNumber } from '@sunward/contracts/units';
import { Skeleton } from 'antd';
import type { CSSProperties, MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { STATUS_STYLE } from '../lib/format';

interface CountCard {
  /** null: every plant. */
  status: number | null;
  field: 'total' | 'normal' | 'offline' | 'warning' | 'fault' | 'upgrading' | 'protect';
  label: string;
  color: string;
  /** Shown only while some plant has this status (or it is the filter), so the shown counts add up to Total. */
  whenAny?: true;
}

const CARDS: CountCard[] = [
  { status: null, field: 'total', label: 'plants.statusTotal', color: '#334155' },
  { status: 1, field: 'normal', label: 'plants.statusNormal', color: STATUS_STYLE[1].color },
  { status: 2, field: 'offline', label: 'plants.statusOffline', color: STATUS_STYLE[2].color },
  { status: 3, field: 'warning', label: 'plants.statusWarning', color: STATUS_STYLE[3].color },
  { status: 4, field: 'fault', label: 'plants.statusFault', color: STATUS_STYLE[4].color },
  { status: 5, field: 'upgrading', label: 'plants.statusUpgrading', color: STATUS_STYLE[5].color, whenAny: true },
  { status: 6, field: 'protect', label: 'plants.statusProtect', color: STATUS_STYLE[6].color, whenAny: true },
];

interface Props {
  counts: PlantStatusCount | undefined;
  /** The status filter in use: one status highlights its card, none highlights Total. */
  activeStatus: readonly number[];
  locale: string;
  hrefFor(status: number | null): string;
  onPick(status: number | null): void;
}

/** Plants by status: each count is a link that filters the list (and can be opened or shared as a link). */
export function StatusCounts({ counts, activeStatus, locale, hrefFor, onPick }: Props) {
  const { t } = useTranslation();
  const active = activeStatus.length === 0 ? null : activeStatus.length === 1 ? activeStatus[0] : undefined;
  return (
    <nav className="sw-plant-counts" aria-label={t('plants.countsLabel')}>
      {CARDS.map((card) => {
        const isActive = card.status === active;
        if (card.whenAny && !isActive && !(counts && counts[card.field] > 0)) return null;
        const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
          if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
          event.preventDefault();
          // Clicking the highlighted status again shows every plant.
          onPick(isActive ? null : card.status);
        };
        return (
          <a
            key={card.field}
            href={hrefFor(card.status)}
            onClick={onClick}
            className={`sw-plant-count${isActive ? ' is-active' : ''}`}
            style={{ '--sw-status': card.color } as CSSProperties}
            aria-current={isActive ? 'true' : undefined}
            data-testid={`plant-count-${card.field}`}
          >
            <span className="sw-plant-count-label">
              <span className="sw-plant-count-dot" aria-hidden />
              {t(card.label)}
            </span>
            {counts ? (
              <span className="sw-plant-count-value">{formatNumber(counts[card.field], locale, 0)}</span>
            ) : (
              <Skeleton.Button active size="small" className="sw-plant-count-skeleton" />
            )}
          </a>
        );
      })}
    </nav>
  );
}
