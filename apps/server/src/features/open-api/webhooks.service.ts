import { randomBytes, randomUUID } from 'node:crypto';
import { Code } from '@sunward/contracts/codes';
import type { LiveEvent } from '@sunward/contracts/live-events';
import {
  OPEN_API_LIMITS,
  WEBHOOK_SIGNATURE_HEADER,
  type WebhookCreate,
  type WebhookCreated,
  type WebhookDelivery,
  type WebhookEvent,
  type WebhookPayload,
  type WebhookRow,
} from '@sunward/contracts/open-api';
import type { FastifyBaseLogger } from 'fastify';
import { every } from '../../jobs/timers.js';
import { ApiError } from '../../lib/envelope.js';
import { AddressRefusedError, postOutbound, urlRefusal } from '../../lib/outbound-address.js';
import type { AuthContext } from '../../plugins/auth.js';
import type { OpenApiRepository, WebhookRecord } from './open-api.repository.js';
import { backoffSeconds, signWebhook } from './webhook-signature.js';

const OFFLINE = 2;

export interface WebhookSettings {
  /** How often due deliveries and finished commands are looked for. */
  pollMs: number;
  /** One backoff step (1 s in production: 1 s, 2 s, 4 s … between tries). */
  backoffUnitMs: number;
  /** How long a receiver has to answer one try. */
  timeoutMs: number;
  /**
   * Deliveries may reach private, loopback and link-local addresses (WEBHOOK_ALLOW_PRIVATE: on-premise receivers,
   * tests). Off: such URLs are refused when a webhook is added, and every delivery's connection checks the address
   * it reaches (a name that resolves to a private address later, DNS rebinding, is refused then).
   */
  allowPrivate: boolean;
}

/**
 * Per-company webhooks (issue 25): events raised and cleared, devices going offline and online (from the live
 * hub), commands finished (from the command audit); each becomes one persisted delivery per subscribed webhook,
 * posted signed (webhook-signature.ts) and retried with exponential backoff until it succeeds or
 * OPEN_API_LIMITS.deliveryAttemptsMax tries have failed. A restart resumes the pending ones.
 */
export function createWebhooksService(deps: {
  repository: OpenApiRepository;
  live: { subscribe(listener: (event: LiveEvent) => void): () => void };
  settings: WebhookSettings;
  log: FastifyBaseLogger;
  now?: () => number;
}) {
  const { repository, settings, log } = deps;
  const now = deps.now ?? Date.now;
  const lastStatus = new Map<number, number>();
  const inFlight = new Set<number>();
  let unsubscribe: (() => void) | undefined;
  let stopTimer: (() => void) | undefined;
  let commandsSince = new Date(now());
  const pending = new Set<Promise<unknown>>();

  function toRow(h: WebhookRecord & { counts: Record<'pending' | 'delivered' | 'failed', number> }): WebhookRow {
    return { id: h.id, url: h.url, events: h.events, createdAt: h.createdAt.toISOString(), ...h.counts };
  }

  function companyAdmin(auth: AuthContext): number {
    if (auth.companyId === null || auth.roleKey !== 'company_admin') throw new ApiError(Code.NO_PERMISSION);
    return auth.companyId;
  }

  /** One delivery per webhook of the company that takes this kind of event. */
  async function raise(type: WebhookEvent, companyId: number, data: Record<string, unknown>): Promise<void> {
    const hooks = (await repository.webhooksFor([companyId])).filter((h) => h.events.includes(type));
    if (hooks.length === 0) return;
    const payload: WebhookPayload = { id: randomUUID(), type, createdAt: new Date(now()).toISOString(), companyId, data };
    await repository.enqueue(hooks.map((h) => ({ webhookId: h.id, eventId: payload.id, eventType: type, payload })));
    // Sent at once rather than at the next pass.
    track(deliverDue());
  }

  async function fromLive(event: LiveEvent): Promise<void> {
    if (event.type === 'event' || event.type === 'device') {
      if (event.plantId === null) return;
      let type: WebhookEvent | undefined;
      if (event.type === 'event') type = event.change === 'opened' ? 'event.raised' : 'event.cleared';
      else {
        const before = lastStatus.get(event.deviceId);
        lastStatus.set(event.deviceId, event.status);
        if (before === undefined ? event.status === OFFLINE : (before === OFFLINE) !== (event.status === OFFLINE))
          type = event.status === OFFLINE ? 'device.offline' : 'device.online';
      }
      if (!type) return;
      const companyId = (await repository.plantCompanies([event.plantId])).get(event.plantId);
      if (companyId === undefined) return;
      const sn = (await repository.deviceSns([event.deviceId])).get(event.deviceId) ?? null;
      const data =
        event.type === 'event'
          ? { plantId: event.plantId, deviceId: event.deviceId, sn, code: event.code, level: event.level, at: event.ts }
          : { plantId: event.plantId, deviceId: event.deviceId, sn, status: event.status, at: event.ts };
      await raise(type, companyId, data);
    }
  }

  async function finishedCommands(): Promise<void> {
    const rows = await repository.commandsFinishedSince(commandsSince, 200);
    const last = rows.at(-1)?.finishedAt;
    if (last) commandsSince = last;
    const companies = await repository.plantCompanies(rows.flatMap((r) => (r.plantId === null ? [] : [r.plantId])));
    for (const r of rows) {
      const companyId = (r.plantId === null ? undefined : companies.get(r.plantId)) ?? r.companyId;
      if (companyId === null || companyId === undefined) continue;
      await raise('command.finished', companyId, {
        commandId: r.id,
        plantId: r.plantId,
        sn: r.deviceSn,
        op: r.op,
        status: r.status,
        account: r.account,
        finishedAt: r.finishedAt?.toISOString() ?? null,
      });
    }
  }

  async function deliverOne(d: Awaited<ReturnType<OpenApiRepository['due']>>[number]): Promise<void> {
    const body = JSON.stringify(d.payload);
    const at = now();
    let responseStatus: number | null = null;
    let error: string | null = null;
    let refused = false;
    try {
      responseStatus = await postOutbound(
        d.url,
        body,
        {
          'content-type': 'application/json',
          'user-agent': 'Sunward-Webhook/1',
          [WEBHOOK_SIGNATURE_HEADER]: signWebhook(d.secret, body, Math.floor(at / 1000)),
          'sunward-event-id': d.eventId,
          'sunward-event-type': d.eventType,
        },
        { timeoutMs: settings.timeoutMs, allowPrivate: settings.allowPrivate },
      );
      // Redirects are not followed: a 3xx is an answer that is not a success, like any other.
      if (responseStatus < 200 || responseStatus >= 300) error = `HTTP ${responseStatus}`;
    } catch (caught) {
      // A refused address is not tried again: the log says why.
      refused = caught instanceof AddressRefusedError;
      error = caught instanceof Error ? caught.message.slice(0, 200) : 'delivery failed';
    }
    const attempts = d.attempts + 1;
    const delivered = error === null;
    const failed = !delivered && (refused || attempts >= OPEN_API_LIMITS.deliveryAttemptsMax);
    await repository.attempted(d.id, {
      status: delivered ? 'delivered' : failed ? 'failed' : 'pending',
      attempts,
      at: new Date(now()),
      responseStatus,
      error,
      nextAttemptAt: new Date(now() + (delivered || failed ? 0 : backoffSeconds(attempts) * settings.backoffUnitMs)),
    });
  }

  async function deliverDue(): Promise<void> {
    const due = (await repository.due(new Date(now()), 20)).filter((d) => !inFlight.has(d.id));
    await Promise.all(
      due.map(async (d) => {
        inFlight.add(d.id);
        try {
          await deliverOne(d);
        } catch (error) {
          log.warn({ err: error, delivery: d.id }, 'webhook delivery not recorded');
        } finally {
          inFlight.delete(d.id);
        }
      }),
    );
  }

  function track(work: Promise<unknown>): void {
    const settled = work.catch((error: unknown) => log.warn({ err: error }, 'webhook pass failed')).finally(() => pending.delete(settled));
    pending.add(settled);
  }

  return {
    async create(auth: AuthContext, input: WebhookCreate): Promise<WebhookCreated> {
      const companyId = companyAdmin(auth);
      if ((await repository.webhookCount(companyId)) >= OPEN_API_LIMITS.webhooksPerCompanyMax)
        throw new ApiError(Code.WEBHOOK_LIMIT, { max: OPEN_API_LIMITS.webhooksPerCompanyMax });
      if (!settings.allowPrivate) {
        const refusal = await urlRefusal(input.url);
        if (refusal)
          throw new ApiError(
            Code.WEBHOOK_URL_REFUSED,
            { address: refusal.address },
            { field: 'url', address: refusal.address, kind: refusal.kind },
          );
      }
      const secret = `whsec_${randomBytes(24).toString('base64url')}`;
      const id = await repository.insertWebhook({
        companyId,
        createdBy: auth.userId,
        url: input.url,
        secret,
        events: [...new Set(input.events)],
      });
      const hook = (await repository.webhooksOf(companyId)).find((h) => h.id === id);
      if (!hook) throw new ApiError(Code.SERVER_ERROR);
      return { webhook: toRow(hook), secret };
    },

    /** The company's webhooks (members of a company see them; only its administrator changes them). */
    async list(auth: AuthContext): Promise<WebhookRow[]> {
      if (auth.companyId === null) return [];
      return (await repository.webhooksOf(auth.companyId)).map(toRow);
    },

    async remove(auth: AuthContext, id: number): Promise<void> {
      if (!(await repository.deleteWebhook(id, companyAdmin(auth), new Date(now())))) throw new ApiError(Code.WEBHOOK_NOT_FOUND);
    },

    async deliveries(auth: AuthContext, id: number): Promise<WebhookDelivery[]> {
      if (auth.companyId === null || !(await repository.webhookOfCompany(id, auth.companyId))) throw new ApiError(Code.WEBHOOK_NOT_FOUND);
      return (await repository.deliveries(id, OPEN_API_LIMITS.deliveriesShown)).map((d) => ({
        id: d.id,
        eventId: d.eventId,
        eventType: d.eventType,
        status: d.status,
        attempts: d.attempts,
        responseStatus: d.responseStatus,
        error: d.error,
        createdAt: d.createdAt.toISOString(),
        lastAttemptAt: d.lastAttemptAt?.toISOString() ?? null,
        nextAttemptAt: d.status === 'pending' ? d.nextAttemptAt.toISOString() : null,
        deliveredAt: d.deliveredAt?.toISOString() ?? null,
      }));
    },

    start(): void {
      commandsSince = new Date(now());
      unsubscribe = deps.live.subscribe((event) => track(fromLive(event)));
      stopTimer = every(settings.pollMs, () => {
        track(finishedCommands());
        track(deliverDue());
      });
    },

    async close(): Promise<void> {
      unsubscribe?.();
      stopTimer?.();
      await Promise.all([...pending]);
    },
  };
}

export type WebhooksService = ReturnType<typeof createWebhooksService>;
