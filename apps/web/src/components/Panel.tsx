import './panel.css';
import type { ReactNode } from 'react';

/**
 * A card (title, tools at the right of the title, body) drawn like antd's Card without its code: antd's Card brings
 * antd's Tabs with it (13 KB of JavaScript gzip), which the views every user opens first (plant list, plant overview)
 * do not need (issue 18). Other pages keep antd's Card.
 */
export function Panel({
  title,
  extra,
  size,
  className,
  testId,
  children,
}: {
  title?: ReactNode;
  extra?: ReactNode;
  size?: 'small';
  className?: string;
  testId?: string;
  children: ReactNode;
}) {
  const classes = ['sw-panel', size === 'small' ? 'sw-panel-small' : '', className ?? ''].filter(Boolean).join(' ');
  return (
    <div className={classes} data-testid={testId}>
      {(title || extra) && (
        <div className="sw-panel-head">
          <div className="sw-panel-title">{title}</div>
          {extra && <div className="sw-panel-extra">{extra}</div>}
        </div>
      )}
      <div className="sw-panel-body">{children}</div>
    </div>
  );
}
