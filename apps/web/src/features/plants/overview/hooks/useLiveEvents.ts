import { parseLiveEvent } from '@sunward/contracts/live-events';
import { useEffect, useRef } from 'react';
import { authorizedFetch } from '../../../../lib/api-client';
import { parseSse } from '../../../../lib/plant-format';
import { storedSession } from '../../../../lib/storage';

const RETRY_MIN_MS = 3000;
const RETRY_MAX_MS = 30_000;

/**
 * Calls `onChange` when the server pushes a change of this plant (GET /api/v1/live, Server-Sent Events).
 * EventSource cannot send the bearer token, so the stream is read with fetch; it reconnects with a
 * growing pause; an expired token is refreshed by authorizedFetch like any other call.
 */
export function useLiveEvents(plantId: number, enabled: boolean, onChange: () => void): void {
  const callback = useRef(onChange);
  callback.current = onChange;

  useEffect(() => {
    if (!enabled || !Number.isFinite(plantId)) return;
    const abort = new AbortController();
    let retryMs = RETRY_MIN_MS;
    let timer: ReturnType<typeof setTimeout> | undefined;

    const connect = async (): Promise<void> => {
      if (!storedSession.read()) return;
      try {
        // authorizedFetch refreshes an expired session (once, with other calls) or ends it.
        const response = await authorizedFetch('/api/v1/live', { headers: { accept: 'text/event-stream' }, signal: abort.signal });
        if (response.ok && response.body) {
          retryMs = RETRY_MIN_MS;
          const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
          let buffer = '';
          for (;;) {
            const { done, value } = await reader.read();
            if (done) break;
            const parsed = parseSse(buffer + value);
            buffer = parsed.rest;
            for (const message of parsed.messages) {
              // A malformed or unknown message is skipped; the next one still counts.
              if (parseLiveEvent(message.data)?.plantId === plantId) callback.current();
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
  }, [plantId, enabled]);
}
