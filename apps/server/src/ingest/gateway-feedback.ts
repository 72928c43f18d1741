import {
  GATEWAY_PROTOCOL_VERSION,
  gatewayRefusedTopic,
  type ReplyRefusalPayload,
  type ReplyRefusalReason,
  type ReportRefusalPayload,
  type ReportRefusalReason,
} from '@sunward/contracts/gateway-protocol';
import type { FastifyBaseLogger } from 'fastify';
import { ingestMetrics } from '../lib/metrics.js';
import type { ConnectionLog } from './connection-log.js';

/** The connection log's reason for a refused reply: `reply.<reason>: <field>: <detail>` (reports have no prefix). */
export const REPLY_REFUSAL_PREFIX = 'reply.';

/**
 * Feedback to gateways (issue 25): a refused report or command reply is answered on the gateway's own
 * `…/report/refused` or `…/reply/refused` topic (QoS 1), counted by reason for /metrics, and (replies; the
 * pipeline records reports itself) written to the gateway's communication log, which the console shows
 * per gateway. Publishing never blocks ingest: a failed answer is logged at debug level and forgotten.
 */
export function createGatewayFeedback(deps: {
  publish: (topic: string, payload: string) => Promise<void>;
  log: FastifyBaseLogger;
  connectionLog?: ConnectionLog | undefined;
}) {
  const send = (topic: string, payload: ReportRefusalPayload | ReplyRefusalPayload) => {
    deps.publish(topic, JSON.stringify(payload)).catch((error: unknown) => deps.log.debug({ err: error, topic }, 'refusal not answered'));
  };
  return {
    reportRefused(
      gatewaySn: string,
      refusal: {
        reason: ReportRefusalReason;
        seq: number | null;
        ts: number | null;
        device?: string | undefined;
        field?: string | undefined;
        detail?: string | undefined;
      },
    ): void {
      ingestMetrics.answered.inc({ of: 'report', reason: refusal.reason });
      send(gatewayRefusedTopic(gatewaySn, 'report'), {
        v: GATEWAY_PROTOCOL_VERSION,
        seq: refusal.seq,
        ts: refusal.ts,
        reason: refusal.reason,
        ...(refusal.device ? { device: refusal.device } : {}),
        ...(refusal.field !== undefined ? { field: refusal.field } : {}),
        ...(refusal.detail ? { detail: refusal.detail.slice(0, 500) } : {}),
      });
    },

    replyRefused(
      gatewaySn: string,
      refusal: { id: string | null; reason: ReplyRefusalReason; field?: string | undefined; detail?: string | undefined },
    ): void {
      ingestMetrics.answered.inc({ of: 'reply', reason: refusal.reason });
      const said = [refusal.field, refusal.detail].filter((s) => s !== undefined && s !== '').join(': ');
      deps.connectionLog?.record({
        at: new Date(),
        gatewaySn,
        kind: 'refused',
        reason: `${REPLY_REFUSAL_PREFIX}${refusal.reason}${said ? `: ${said}` : ''}`,
      });
      send(gatewayRefusedTopic(gatewaySn, 'reply'), {
        v: GATEWAY_PROTOCOL_VERSION,
        id: refusal.id,
        reason: refusal.reason,
        ...(refusal.field !== undefined ? { field: refusal.field } : {}),
        ...(refusal.detail ? { detail: refusal.detail.slice(0, 500) } : {}),
      });
    },
  };
}

export type GatewayFeedback = ReturnType<typeof createGatewayFeedback>;
