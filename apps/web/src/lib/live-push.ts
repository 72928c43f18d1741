import { type LiveEvent, type LiveEventType, parseLiveEvent } from '@sunward/contracts/live-events';
import { useEffect, useRef } from 'react';
import { authorizedFetch } from './api-client';
import { storedSession } from './storage';

/**
 * The tab's ONE live-push connection (GET /api/v1/live, Server-Sent Events), shared by every hook that wants
 * pushed changes. Each subscriber names the event types it needs; the stream asks the server for the union
 * (`?types=message` while only the bell listens, so a fleet's device reports are not carried for nothing) and
 * reconnects at once when the union changes. EventSource cannot send the bearer token, so the stream is read
 * with fetch (authorizedFetch refreshes an expired session like any other call); a dropped stream reconnects
 * with a growing pause, and the last subscriber leaving closes it.
 */

const RETRY_MIN_MS = 3000;
const RETRY_MAX_MS = 30_000;

export interface LiveSubscription {
  /** The event types wanted. */
  types: readonly LiveEventType[];
  onEvent: (event: LiveEvent) => void;
  /** Called each time the stream (re)opens: whatever happened while it was down is refetched here. */
  onOpen?: () => void;
}

/** One Server-Sent Event as the live endpoint sends it. */
export interface SseMessage {
  event: string;
  data: string;
}

/** Splits a text stream into complete events; returns them and the unfinished rest for the next chunk. */
export function parseSse(buffer: string): { messages: SseMessage[]; rest: string } {
  const normalized = buffer.replace(/\r\n/g, '\n');
  const blocks = normalized.split('\n\n');
  const rest = blocks.pop() ?? '';
  const messages: SseMessage[] = [];
  for (const block of blocks) {
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith(':') || line === '') continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
    }
    if (data.length > 0) messages.push({ event, data: data.join('\n') });
  }
  return { messages, rest };
}

/** The `types` query for a set of subscriptions: sorted, comma-separated; '' when nobody listens. */
export function typesQuery(subscriptions: Iterable<LiveSubscription>): string {
  const wanted = new Set<LiveEventType>();
  for (const subscription of subscriptions) for (const type of subscription.types) wanted.add(type);
  return [...wanted].sort().join(',');
}

const subscribers = new Set<LiveSubscription>();
let connection: { types: string; abort: AbortController; timer?: ReturnType<typeof setTimeout> } | undefined;
let scheduled = false;

/** Opens, re-opens (the wanted types changed) or closes the tab's connection; batched to one change per tick. */
function reconcile(): void {
  if (scheduled) return;
  scheduled = true;
  queueMicrotask(() => {
    scheduled = false;
    const types = typesQuery(subscribers);
    if (connection?.types === types) return;
    if (connection) {
      connection.abort.abort();
      if (connection.timer) clearTimeout(connection.timer);
      connection = undefined;
    }
    if (types) open(types);
  });
}

function open(types: string): void {
  const current: NonNullable<typeof connection> = { types, abort: new AbortController() };
  connection = current;
  const { signal } = current.abort;
  let retryMs = RETRY_MIN_MS;

  const connect = async (): Promise<void> => {
    if (!storedSession.read()) return;
    try {
      const response = await authorizedFetch(`/api/v1/live?types=${types}`, { headers: { accept: 'text/event-stream' }, signal });
      // A refusal (115 while two-factor sign-in is not set up) is an envelope, not a stream: back off.
      if (response.ok && response.body && response.headers.get('content-type')?.includes('text/event-stream')) {
        retryMs = RETRY_MIN_MS;
        for (const subscriber of subscribers) subscriber.onOpen?.();
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = '';
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          const parsed = parseSse(buffer + value);
          buffer = parsed.rest;
          for (const message of parsed.messages) {
            // A malformed or unknown message is skipped; the next one still counts.
            const event = parseLiveEvent(message.data);
            if (!event) continue;
            for (const subscriber of [...subscribers]) if (subscriber.types.includes(event.type)) subscriber.onEvent(event);
          }
        }
      }
    } catch {
      if (signal.aborted) return;
    }
    if (signal.aborted) return;
    current.timer = setTimeout(() => void connect(), retryMs);
    retryMs = Math.min(RETRY_MAX_MS, retryMs * 2);
  };
  void connect();
}

/** Adds a subscriber to the tab's connection; returns the function that removes it. */
export function subscribeLive(subscription: LiveSubscription): () => void {
  subscribers.add(subscription);
  reconcile();
  return () => {
    subscribers.delete(subscription);
    reconcile();
  };
}

/** Hook form of {@link subscribeLive}; the latest callbacks are used without re-subscribing. */
export function useLiveSubscription(
  types: readonly LiveEventType[],
  onEvent: (event: LiveEvent) => void,
  options: { enabled?: boolean; onOpen?: () => void } = {},
): void {
  const callbacks = useRef({ onEvent, onOpen: options.onOpen });
  callbacks.current = { onEvent, onOpen: options.onOpen };
  const enabled = options.enabled ?? true;
  const key = [...types].sort().join(',');
  useEffect(() => {
    if (!enabled || !key) return;
    return subscribeLive({
      types: key.split(',') as LiveEventType[],
      onEvent: (event) => callbacks.current.onEvent(event),
      onOpen: () => callbacks.current.onOpen?.(),
    });
  }, [key, enabled]);
}

const PLANT_EVENTS: readonly LiveEventType[] = ['device', 'event', 'plant', 'upgrade'];

/**
 * Calls `onChange` when the server pushes a change of this plant (a device, an event, its status, an upgrade), at
 * most once per `throttleMs` (default 2 s; the last change in a window is never dropped: a trailing call follows).
 * A report brings one event per device: without the throttle a page refetched once per device, and on a slow
 * server each refetch cancelled the one before it, so the page never showed new figures.
 */
export function usePlantLiveEvents(plantId: number, enabled: boolean, onChange: () => void, throttleMs = 2000): void {
  const last = useRef(0);
  const trailing = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const latest = useRef(onChange);
  latest.current = onChange;
  useEffect(() => () => clearTimeout(trailing.current), []);
  useLiveSubscription(
    PLANT_EVENTS,
    (event) => {
      if (event.plantId !== plantId) return;
      const run = () => {
        last.current = Date.now();
        latest.current();
      };
      const wait = last.current + throttleMs - Date.now();
      if (wait <= 0) run();
      else if (!trailing.current)
        trailing.current = setTimeout(() => {
          trailing.current = undefined;
          run();
        }, wait);
    },
    { enabled: enabled && Number.isFinite(plantId) },
  );
}
