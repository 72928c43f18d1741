import { randomUUID } from 'node:crypto';
import {
  type CommandPayload,
  GATEWAY_PROTOCOL_VERSION,
  type ReplyPayload,
  ReplyPayloadSchema,
  type ReplyRefusalReason,
} from '@sunward/contracts/gateway-protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { GatewayFeedback } from '../../ingest/gateway-feedback.js';
import { createLogThrottle } from '../../lib/log-throttle.js';
import { commandMetrics } from '../../lib/metrics.js';

export type CommandRequest = Omit<CommandPayload, 'v' | 'id'>;

interface Pending {
  gatewaySn: string;
  resolve: (reply: ReplyPayload) => void;
  onProgress: ((percent: number) => void) | undefined;
  timer: NodeJS.Timeout;
  timeoutMs: number;
}

export class CommandTimeoutError extends Error {}
/** The server is stopping: the command is neither answered nor timed out here; the next process hears its reply. */
export class CommandChannelClosedError extends Error {}

/**
 * Commands down, replies up, matched by correlation id. A progress reply extends the wait (upgrades
 * take minutes); a reply after the timeout is logged as late, not lost. Remote operation (issue 6)
 * adds authorisation, audit and idempotency on top.
 */
export function createCommandChannel(deps: {
  publish: (gatewaySn: string, payload: string) => Promise<void>;
  log: FastifyBaseLogger;
  /** Answers a reply that cannot be read on the gateway's `…/reply/refused` topic. */
  feedback?: Pick<GatewayFeedback, 'replyRefused'> | undefined;
}) {
  const pending = new Map<string, Pending & { reject: (error: Error) => void }>();
  const late: { id: string; gatewaySn: string; reply: ReplyPayload; at: Date }[] = [];
  const lateListeners = new Set<(late: { id: string; gatewaySn: string; reply: ReplyPayload }) => void>();
  const warnings = createLogThrottle(deps.log);

  function deliver(gatewaySn: string, reply: ReplyPayload): boolean {
    const waiting = pending.get(reply.id);
    if (!waiting || waiting.gatewaySn !== gatewaySn) return false;
    if (reply.status === 'progress') {
      waiting.onProgress?.(reply.progress ?? 0);
      clearTimeout(waiting.timer);
      waiting.timer = setTimeout(() => {
        pending.delete(reply.id);
        waiting.resolve({ v: GATEWAY_PROTOCOL_VERSION, id: reply.id, status: 'error', message: 'timed out during progress' });
      }, waiting.timeoutMs);
      return true;
    }
    clearTimeout(waiting.timer);
    pending.delete(reply.id);
    waiting.resolve(reply);
    return true;
  }

  return {
    /** Sends a command and resolves with the gateway's final reply (ok or error), or rejects on timeout. */
    send(
      gatewaySn: string,
      command: CommandRequest,
      options: { timeoutMs?: number; onProgress?: (percent: number) => void; id?: string } = {},
    ): Promise<ReplyPayload> {
      // The caller may name the command (the audit row's id), so a late reply finds its record.
      const id = options.id ?? randomUUID();
      const timeoutMs = options.timeoutMs ?? 30_000;
      const payload: CommandPayload = { v: GATEWAY_PROTOCOL_VERSION, id, ...command };
      const settled = new Promise<ReplyPayload>((resolve, reject) => {
        const timer = setTimeout(() => {
          pending.delete(id);
          reject(new CommandTimeoutError(`no reply from ${gatewaySn} within ${timeoutMs} ms`));
        }, timeoutMs);
        pending.set(id, { gatewaySn, resolve, reject, onProgress: options.onProgress, timer, timeoutMs });
        deps.publish(gatewaySn, JSON.stringify(payload)).catch((error: unknown) => {
          clearTimeout(timer);
          pending.delete(id);
          reject(error);
        });
      });
      // Every command's outcome, for /metrics: the gateway's answer, no answer in time, or not sent at all.
      settled.then(
        (reply) => commandMetrics.outcomes.inc({ outcome: reply.status === 'ok' ? 'ok' : 'error' }),
        (error: unknown) =>
          commandMetrics.outcomes.inc({
            outcome:
              error instanceof CommandTimeoutError ? 'timeout' : error instanceof CommandChannelClosedError ? 'interrupted' : 'unsent',
          }),
      );
      return settled;
    },

    /** A reply arrived on a gateway's reply topic. */
    handleReply(gatewaySn: string, raw: Buffer): void {
      const read = readReply(raw);
      if (!read.ok) {
        // Neither dropped in silence nor guessed at: logged with the wrong field, and answered to the gateway,
        // which may send a corrected reply while the command still waits.
        const { refusal } = read;
        warnings.warn(
          'reply_rejected',
          {
            event: 'reply_rejected',
            gateway: gatewaySn,
            id: refusal.id,
            reason: refusal.reason,
            field: refusal.field,
            detail: refusal.detail,
          },
          'command reply refused',
        );
        deps.feedback?.replyRefused(gatewaySn, refusal);
        return;
      }
      const reply = read.reply;
      if (deliver(gatewaySn, reply)) return;
      late.push({ id: reply.id, gatewaySn, reply, at: new Date() });
      if (late.length > 1000) late.shift();
      for (const listener of lateListeners) listener({ id: reply.id, gatewaySn, reply });
      deps.log.info(
        { event: 'late_reply', gateway: gatewaySn, id: reply.id, status: reply.status },
        'reply to a command this process does not wait for',
      );
    },

    /**
     * A reply to a command this process waits for (heard here, or relayed by another process): progress
     * extends the wait, a final reply settles it. False when nothing here waits for it.
     */
    deliver,

    /** The correlation ids this process waits for. */
    waiting(): string[] {
      return [...pending.keys()];
    },

    /** Whether this process waits for the command with this correlation id. */
    isWaiting(id: string): boolean {
      return pending.has(id);
    },

    /** Called with each reply no command here waits for: timed out, or sent by another or an earlier process (the tracker records it). */
    onLateReply(listener: (late: { id: string; gatewaySn: string; reply: ReplyPayload }) => void): () => void {
      lateListeners.add(listener);
      return () => lateListeners.delete(listener);
    },

    /**
     * Stops waiting for replies (server shutdown): no command is reported as timed out because its server
     * stopped; each is left pending in the audit, where the next process records its reply.
     */
    close(): void {
      for (const waiting of pending.values()) {
        clearTimeout(waiting.timer);
        waiting.reject(new CommandChannelClosedError('the server is stopping'));
      }
      pending.clear();
      warnings.flush();
    },

    /** Replies that came after their command had timed out (kept for the command log). */
    lateReplies() {
      return [...late];
    },
  };
}

export type CommandChannel = ReturnType<typeof createCommandChannel>;

/** Reads a reply; a wrong one gives the reason, the first wrong field and the reply's id when readable. */
export function readReply(
  raw: Buffer,
):
  | { ok: true; reply: ReplyPayload }
  | { ok: false; refusal: { id: string | null; reason: ReplyRefusalReason; field?: string; detail: string } } {
  let json: unknown;
  try {
    json = JSON.parse(raw.toString('utf8'));
  } catch {
    return { ok: false, refusal: { id: null, reason: 'malformed_json', detail: 'not JSON' } };
  }
  const parsed = ReplyPayloadSchema.safeParse(json);
  if (parsed.success) return { ok: true, reply: parsed.data };
  const issue = parsed.error.issues[0];
  const id = typeof json === 'object' && json !== null ? (json as { id?: unknown }).id : undefined;
  return {
    ok: false,
    refusal: {
      id: typeof id === 'string' && id.length <= 64 ? id : null,
      reason: 'malformed_payload',
      field: issue?.path.join('.') ?? '',
      detail: issue?.message ?? 'invalid',
    },
  };
}
