import { Button, Space, Tooltip } from 'antd';
import type { ReactNode } from 'react';

export interface IconAction {
  key: string;
  /** The action's name: its tooltip and its accessible name (an icon alone says nothing to a screen reader). */
  label: string;
  icon: ReactNode;
  onClick(): void;
  danger?: boolean;
  testId?: string;
}

/** The icon buttons of a table row (download, edit, delete...), each named and with a tooltip; hidden ones are left out. */
export function IconActions({ actions }: { actions: readonly (IconAction | false | null | undefined)[] }) {
  return (
    <Space size={0}>
      {actions
        .filter((a): a is IconAction => Boolean(a))
        .map((action) => (
          <Tooltip key={action.key} title={action.label}>
            <Button
              size="small"
              type="text"
              danger={action.danger}
              icon={action.icon}
              aria-label={action.label}
              onClick={action.onClick}
              data-testid={action.testId}
            />
          </Tooltip>
        ))}
    </Space>
  );
}
