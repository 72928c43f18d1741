import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Button, Space } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { refusalMessage } from '../lib/api-client';
import { registerTexts } from '../lib/feature-texts';
import { sharedTexts } from './shared-texts';

registerTexts(sharedTexts);

export interface LinkAction {
  key: string;
  label: ReactNode;
  onClick(): unknown;
  danger?: boolean;
  /** Asks first ("Delete X?"); the action runs on OK, and the dialog waits for it. */
  confirm?: { title: string; content?: ReactNode; okText?: string };
  testId?: string;
}

/** The text-link actions of a table row (Edit, Delete, Permissions...), a dangerous one confirmed first. */
export function LinkActions({ actions }: { actions: readonly (LinkAction | false | null | undefined)[] }) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const shown = actions.filter((a): a is LinkAction => Boolean(a));
  if (shown.length === 0) return null;
  return (
    <Space size={0}>
      {shown.map((action) => (
        <Button
          key={action.key}
          type="link"
          size="small"
          danger={action.danger}
          data-testid={action.testId}
          onClick={() =>
            action.confirm
              ? void modal.confirm({
                  title: action.confirm.title,
                  content: action.confirm.content,
                  okText: action.confirm.okText ?? t('shared.delete'),
                  cancelText: t('shared.cancel'),
                  okButtonProps: { danger: action.danger },
                  onOk: () => Promise.resolve(action.onClick()).catch(() => undefined),
                })
              : action.onClick()
          }
        >
          {action.label}
        </Button>
      ))}
    </Space>
  );
}

/**
 * Removing a row from a list: refreshes `invalidate` when done, and says why in the server's words when
 * refused. `mutateAsync` suits a LinkAction's confirm (the dialog waits for it).
 */
export function useRemoval<V>(remove: (value: V) => Promise<unknown>, invalidate: QueryKey) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: remove,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: invalidate }),
    onError: (error) => void message.error(refusalMessage(error) ?? t('shared.requestFailed')),
  });
}
