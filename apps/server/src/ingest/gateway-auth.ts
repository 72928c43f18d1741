import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  GATEWAY_SN_PATTERN,
  type GatewayTopicKind,
  parseGatewayRefusedTopic,
  parseGatewayTopic,
} from '@sunward/contracts/gateway-protocol';

/** A new registration key: 8 random bytes as 16 lower-case hex characters, the form printed on gateways. */
export function generateGatewayKey(): string {
  return randomBytes(8).toString('hex');
}

/** Registration keys are random secrets; SHA-256 of the key is what the registry keeps. */
export function hashGatewayKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

export function gatewayKeyMatches(key: string, storedHash: string): boolean {
  const given = Buffer.from(hashGatewayKey(key), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored);
}

/** Client id, username and topic SN must all be the gateway's own SN. */
export function isValidGatewayIdentity(clientId: string, username: string | undefined): boolean {
  return GATEWAY_SN_PATTERN.test(clientId) && username === clientId;
}

const UP: readonly GatewayTopicKind[] = ['report', 'event', 'status', 'reply'];

/** A gateway publishes only on its own up topics… */
export function mayPublish(gatewaySn: string, topic: string): GatewayTopicKind | undefined {
  const parsed = parseGatewayTopic(topic);
  return parsed && parsed.sn === gatewaySn && UP.includes(parsed.kind) ? parsed.kind : undefined;
}

/** …and subscribes only to its own command topic and its own refusal answers: no wildcards, no other gateway. */
export function maySubscribe(gatewaySn: string, topic: string): boolean {
  const parsed = parseGatewayTopic(topic);
  if (parsed) return parsed.sn === gatewaySn && parsed.kind === 'cmd';
  return parseGatewayRefusedTopic(topic)?.sn === gatewaySn;
}
