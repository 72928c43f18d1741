import { parseLiveEvent } from '@sunward/contracts/live-events';
import { MESSAGE_LIMITS } from '@sunward/contracts/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { authorizedFetch } from '../../lib/api-client';
import { parseSse } from '../../lib/plant-format';
import { storedSession } from '../../lib/storage';
import { fetchUnread, messageKeys } from './api';

const RETRY_MIN_MS = 3000;
const RETRY_MAX_MS = 60_000;

/** The unread count a pushed message carries; a malformed or other message is skipped. */
function unreadOf(data: string): number | undefined {
  const event = parseLiveEvent(data);
  return event?.type === 'message' ? event.unread : undefined;
}

/**
 * The caller's unread count for the bell: pushed by the server the moment a message arrives or is read
 * (GET /api/v1/live?types=message), with the spec's 3,000,000 ms poll as the fallback when the stream is
 * down. A push also refreshes an open notification list.
 */
export function useUnreadCount(): number {
  const queryClient = useQueryClient();
  const { data = 0 } = useQuery({ queryKey: messageKeys.count, queryFn: fetchUnread, refetchInterval: MESSAGE_LIMITS.refreshMs });

  useEffect(() => {
    const abort = new AbortController();
    let retryMs = RETRY_MIN_MS;
    let timer: ReturnType<typeof setTimeout> | undefined;

    const connect = async (): Promise<void> => {
      if (!storedSession.read()) return;
      try {
        const response = await authorizedFetch('/api/v1/live?types=message', {
          headers: { accept: 'text/event-stream' },
          signal: abort.signal,
        });
        // A refusal (115 while two-factor sign-in is not set up) is an envelope, not a stream: back off.
        if (response.ok && response.body && response.headers.get('content-type')?.includes('text/event-stream')) {
          retryMs = RETRY_MIN_MS;
          // Whatever arrived while the stream was down.
          void queryClient.invalidateQueries({ queryKey: messageKeys.count });
          const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
          let buffer = '';
          for (;;) {
            const { done, value } = await reader.read();
            if (done) break;
            const parsed = parseSse(buffer + value);
            buffer = parsed.rest;
            for (const message of parsed.messages) {
              const unread = unreadOf(message.data);
              if (unread === undefined) continue;
              queryClient.setQueryData(messageKeys.count, unread);
              void queryClient.invalidateQueries({ queryKey: [...messageKeys.all, 'page'] });
            }
          }
        }
      } catch {
        if (abort.signal.aborted) return;
      }
      if (abort.signal.aborted) return;
      timer = setTimeout(() => void connect(), retryMs);
      retryMs = Math.min(RETRY_MAX_MS, retryMs * 2);
    };

    void connect();
    return () => {
      abort.abort();
      if (timer) clearTimeout(timer);
    };
  }, [queryClient]);

  return data;
}
