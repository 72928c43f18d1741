import { useEffect, useRef } from 'react';
import { z } from 'zod';
import { apiRequest } from '../../../../lib/api-client';
import { storedSession } from '../../../../lib/storage';
import { parseSse } from '../overview-format';

const RETRY_MIN_MS = 3000;
const RETRY_MAX_MS = 30_000;

interface LiveEvent {
  type: string;
  plantId: number | null;
}

function isLiveEvent(value: unknown): value is LiveEvent {
  return typeof value === 'object' && value !== null && 'type' in value && 'plantId' in value;
}

/**
 * Calls `onChange` when the server pushes a change of this plant (GET /api/v1/live, Server-Sent Events).
 * EventSource cannot send the bearer token, so the stream is read with fetch; it reconnects with a
 * growing pause, and after an expired token it lets the API client refresh the session first.
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
      const token = storedSession.read()?.access_token;
      if (!token) return;
      try {
        const response = await fetch('/api/v1/live', {
          headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
          signal: abort.signal,
        });
        if (response.status === 401) {
          // Any API call refreshes an expired session (or ends it); then the stream is opened again.
          await apiRequest(`/api/v1/plant/${plantId}/eventCount`, { schema: z.unknown() }).catch(() => undefined);
        } else if (response.ok && response.body) {
          retryMs = RETRY_MIN_MS;
          const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
          let buffer = '';
          for (;;) {
            const { done, value } = await reader.read();
            if (done) break;
            const parsed = parseSse(buffer + value);
            buffer = parsed.rest;
            for (const message of parsed.messages) {
              try {
                const event: unknown = JSON.parse(message.data);
                if (isLiveEvent(event) && event.plantId === plantId) callback.current();
              } catch {
                // A malformed message is skipped; the next one still counts.
              }
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
