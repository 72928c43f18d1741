import { type ReplyPayload, ReplyPayloadSchema } from '@sunward/contracts/gateway-protocol';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import type { ClusterSignals } from '../../ingest/live-bus.js';
import { SIGNAL_MAX_BYTES } from '../../ingest/live-bus.js';
import { commandMetrics } from '../../lib/metrics.js';
import type { CommandChannel } from './command-channel.js';

/** The NOTIFY channel on which a process hands a reply to the process that sent the command. */
export const COMMAND_SIGNALS = 'sunward_commands';

/** How long a relayed final reply waits for its sender to record it before any process records it as late. */
const DEFAULT_GRACE_MS = 5_000;

/** What the tracker stores of replies (features/commands/commands.repository.ts). */
export interface CommandRepliesStore {
  /** A reply to a command no process waits for any more (timed out, or its process stopped): kept, and final when still pending. */
  recordLate(id: number, reply: ReplyPayload): Promise<void>;
  /**
   * Keeps a reply on a still-pending command for its sender (a final reply in `result.relayed`, progress as
   * the command's progress); false when the command is not pending (finished, timed out, unknown).
   */
  holdForSender(id: number, reply: ReplyPayload): Promise<boolean>;
  /** The final reply kept for the sender while the command is still pending. */
  heldReply(id: number): Promise<ReplyPayload | undefined>;
  /** Pending commands silent for `silentMs` that none of `waitedFor` is: recorded as timed out with `message`. */
  expireOrphans(waitedFor: readonly number[], silentMs: number, message: string): Promise<void>;
}

/** A command's correlation id on the wire (`cmd-<id>`); gateway checks use their own ids. */
export const commandCorrelationId = (commandId: number) => `cmd-${commandId}`;
const commandIdOf = (correlationId: string): number | undefined => {
  const found = /^cmd-(\d+)$/.exec(correlationId)?.[1];
  return found === undefined ? undefined : Number(found);
};

const SignalSchema = z.object({ commandId: z.number().int().positive(), gatewaySn: z.string(), reply: ReplyPayloadSchema.optional() });

/**
 * A command's life across server processes (issue 26 part 2). The channel sends and waits in this process;
 * the tracker takes every reply the channel does not wait for and records it once, in one place
 * (`recordReply`): with other processes on the same PostgreSQL (signals), a reply to a command still pending
 * is kept on the command and handed to its sender over the live bus, which settles its waiting request as if
 * the reply had come to it. A final reply nobody takes within the grace time (its sender stopped) is recorded
 * as late, as on one process. Replies reach one process each (a shared subscription), so each is recorded once.
 * Every failure is logged with the command's id and counted (sunward_command_failures_total).
 */
export function createCommandTracker(deps: {
  channel: CommandChannel;
  store: CommandRepliesStore;
  signals?: ClusterSignals | undefined;
  log: Pick<FastifyBaseLogger, 'error' | 'info'>;
  graceMs?: number;
}) {
  const { channel, store, signals, log } = deps;
  const graceMs = deps.graceMs ?? DEFAULT_GRACE_MS;
  const graceTimers = new Set<NodeJS.Timeout>();
  const stats = { relayed: 0, taken: 0, late: 0, failures: 0 };

  function failed(step: string, commandId: number | undefined, error: unknown): void {
    stats.failures += 1;
    commandMetrics.failures.inc({ step });
    log.error({ err: error, commandId, step }, 'command step failed');
  }

  /** After the grace time, a final reply its sender did not take is recorded as late (its sender stopped). */
  function recordIfUntaken(commandId: number): void {
    const timer = setTimeout(() => {
      graceTimers.delete(timer);
      store
        .heldReply(commandId)
        .then(async (held) => {
          if (!held) return;
          await store.recordLate(commandId, held);
          stats.late += 1;
          commandMetrics.replies.inc({ route: 'late' });
        })
        .catch((error: unknown) => failed('record_untaken_reply', commandId, error));
    }, graceMs);
    timer.unref();
    graceTimers.add(timer);
  }

  /** The one place a reply this process does not wait for is recorded. */
  async function recordReply(commandId: number, gatewaySn: string, reply: ReplyPayload): Promise<void> {
    try {
      if (signals && (await store.holdForSender(commandId, reply))) {
        // Pending and not waited for here: another process (or an earlier run of this one) sent it.
        if (reply.status !== 'progress') recordIfUntaken(commandId);
        const whole = JSON.stringify({ commandId, gatewaySn, reply });
        // Over a NOTIFY's size the sender reads the reply kept on the command.
        const payload = Buffer.byteLength(whole) < SIGNAL_MAX_BYTES - 64 ? whole : JSON.stringify({ commandId, gatewaySn });
        await signals.signal(COMMAND_SIGNALS, payload);
        stats.relayed += 1;
        commandMetrics.replies.inc({ route: 'relayed' });
        return;
      }
      await store.recordLate(commandId, reply);
      stats.late += 1;
      commandMetrics.replies.inc({ route: 'late' });
    } catch (error) {
      failed('record_reply', commandId, error);
    }
  }

  /** A reply another process heard for a command this process may wait for. */
  async function taken(raw: string): Promise<void> {
    let commandId: number | undefined;
    try {
      const parsed = SignalSchema.safeParse(JSON.parse(raw));
      if (!parsed.success) throw new Error(`unreadable command signal: ${parsed.error.issues[0]?.message ?? ''}`);
      commandId = parsed.data.commandId;
      if (!channel.isWaiting(commandCorrelationId(commandId))) return;
      const reply = parsed.data.reply ?? (await store.heldReply(commandId));
      if (reply && channel.deliver(parsed.data.gatewaySn, reply)) {
        stats.taken += 1;
        commandMetrics.replies.inc({ route: 'taken' });
      }
    } catch (error) {
      failed('take_relayed_reply', commandId, error);
    }
  }

  function inFlight(): number[] {
    return channel.waiting().flatMap((id) => {
      const commandId = commandIdOf(id);
      return commandId === undefined ? [] : [commandId];
    });
  }

  channel.onLateReply(({ id, gatewaySn, reply }) => {
    const commandId = commandIdOf(id);
    if (commandId !== undefined) void recordReply(commandId, gatewaySn, reply);
  });
  const stopListening = signals?.onSignal(COMMAND_SIGNALS, (payload) => void taken(payload));

  return {
    ...channel,
    /** Replies handed to other processes, taken from them, recorded as late; failures (tests, /metrics). */
    stats,
    /** This process's id among the server processes (undefined on the embedded database: one process). */
    origin: signals?.origin,
    recordReply,
    /** Logs and counts a failed step of a command (the services' background work: progress, conclusions). */
    failed,
    /** Commands this process sends and waits for. */
    inFlight,
    /**
     * Pending commands that nobody waits for and nobody has heard of for `silentMs` (their process stopped
     * before the device answered) are recorded as timed out. Waiting processes renew the time with progress.
     */
    async sweepOrphans(silentMs: number, message: string): Promise<void> {
      await store.expireOrphans(inFlight(), silentMs, message).catch((error: unknown) => failed('orphan_sweep', undefined, error));
    },
    close(): void {
      for (const timer of graceTimers) clearTimeout(timer);
      graceTimers.clear();
      stopListening?.();
      channel.close();
    },
  };
}

export type CommandTracker = ReturnType<typeof createCommandTracker>;
