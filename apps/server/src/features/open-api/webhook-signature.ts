import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Webhook signatures (issue 25), like the common ones: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`
 * with the webhook's secret. A receiver recomputes v1 over the raw body and refuses a timestamp further than
 * the tolerance from its clock (replay protection), then deduplicates on the payload's id.
 */
export function signWebhook(secret: string, body: string, timestampSeconds: number): string {
  const v1 = createHmac('sha256', secret).update(`${timestampSeconds}.${body}`).digest('hex');
  return `t=${timestampSeconds},v1=${v1}`;
}

/** Whether a Sunward-Signature header is valid for this body and secret, within the tolerance of now. */
export function verifyWebhook(secret: string, body: string, header: string, nowSeconds: number, toleranceSeconds: number): boolean {
  const parts = new Map(
    header.split(',').map((part) => {
      const at = part.indexOf('=');
      return [part.slice(0, at).trim(), part.slice(at + 1).trim()] as const;
    }),
  );
  const t = Number(parts.get('t'));
  const v1 = parts.get('v1') ?? '';
  if (!Number.isInteger(t) || Math.abs(nowSeconds - t) > toleranceSeconds) return false;
  const expected = Buffer.from(signWebhook(secret, body, t).split('v1=')[1] ?? '', 'hex');
  const given = Buffer.from(v1, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Seconds to wait before try n+1 after n failed tries: 1, 2, 4 … capped at an hour. */
export function backoffSeconds(attempts: number): number {
  return Math.min(3600, 2 ** Math.max(0, attempts - 1));
}
