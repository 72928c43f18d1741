import { MESSAGE_LIMITS } from '@sunward/contracts/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useLiveSubscription } from '../../lib/live-push';
import { fetchUnread, messageKeys } from './api';

const MESSAGES = ['message'] as const;

/**
 * The caller's unread count for the bell: pushed by the server the moment a message arrives or is read
 * (message events on the tab's one live connection, lib/live-push), with the spec's 3,000,000 ms poll as the
 * fallback when the stream is down. A push also refreshes an open notification list.
 */
export function useUnreadCount(): number {
  const queryClient = useQueryClient();
  const { data = 0 } = useQuery({ queryKey: messageKeys.count, queryFn: fetchUnread, refetchInterval: MESSAGE_LIMITS.refreshMs });

  useLiveSubscription(
    MESSAGES,
    (event) => {
      if (event.type !== 'message') return;
      queryClient.setQueryData(messageKeys.count, event.unread);
      void queryClient.invalidateQueries({ queryKey: [...messageKeys.all, 'page'] });
    },
    // Whatever arrived while the stream was down.
    { onOpen: () => void queryClient.invalidateQueries({ queryKey: messageKeys.count }) },
  );

  return data;
}
