import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { backoffSeconds, signWebhook, verifyWebhook } from './webhook-signature.js';

describe('webhook signatures', () => {
  const body = '{"id":"e1","type":"event.raised"}';
  it('are the HMAC-SHA256 of "<t>.<body>", hex, with the timestamp', () => {
    const expected = createHmac('sha256', 'whsec_x').update(`1700000000.${body}`).digest('hex');
    expect(signWebhook('whsec_x', body, 1_700_000_000)).toBe(`t=1700000000,v1=${expected}`);
  });

  it('verify for the right secret and body within the tolerance only', () => {
    const header = signWebhook('whsec_x', body, 1_700_000_000);
    expect(verifyWebhook('whsec_x', body, header, 1_700_000_100, 300)).toBe(true);
    expect(verifyWebhook('whsec_y', body, header, 1_700_000_100, 300)).toBe(false);
    expect(verifyWebhook('whsec_x', `${body} `, header, 1_700_000_100, 300)).toBe(false);
    // A delivery replayed later than the tolerance fails.
    expect(verifyWebhook('whsec_x', body, header, 1_700_000_301, 300)).toBe(false);
    expect(verifyWebhook('whsec_x', body, 't=abc,v1=00', 1_700_000_000, 300)).toBe(false);
    expect(verifyWebhook('whsec_x', body, '', 1_700_000_000, 300)).toBe(false);
  });

  it('are retried after 1, 2, 4 … seconds, at most an hour apart', () => {
    expect([1, 2, 3, 4, 8].map(backoffSeconds)).toEqual([1, 2, 4, 8, 128]);
    expect(backoffSeconds(40)).toBe(3600);
  });
});
