import { gatewayKeyMatches, isValidGatewayIdentity, mayPublish, maySubscribe } from '../../ingest/gateway-auth.js';
import type { SecretThrottle } from '../auth/secret-throttle.js';
import type { MqttAuthRepository } from './mqtt-auth.repository.js';

/** Compared with a key given for an unknown SN, so that refusal takes as long as a wrong key's. */
const UNKNOWN_GATEWAY_HASH = '0'.repeat(64);

/** mosquitto-go-auth's access bits in an ACL check: read (deliver), write (publish), subscribe. */
export const ACL_READ = 1;
export const ACL_WRITE = 2;
export const ACL_SUBSCRIBE = 4;

/**
 * Gateway logins and topic rights for an external broker that asks the server (the mosquitto-go-auth HTTP
 * backend protocol, docs/mosquitto.md): the same rules as the embedded broker. A gateway logs in with its
 * SN as user name and client id and its registration key as password, counted by the secret throttle like
 * every key; it publishes only on its own up topics and reads only its own command topic. No gateway is a
 * superuser. The server's own broker login is not a gateway: the broker checks it itself (files backend).
 */
export function createMqttAuth(deps: { repository: MqttAuthRepository; throttle: SecretThrottle }) {
  return {
    async user(input: { username: string; password: string; clientid: string }, ip: string): Promise<boolean> {
      if (!isValidGatewayIdentity(input.clientid, input.username) || input.password === '') return false;
      let known = false;
      const verdict = await deps.throttle.check({ kind: 'gateway-key', subject: input.username, ip }, async () => {
        const hash = await deps.repository.keyHashOf(input.username);
        known = hash !== undefined;
        return gatewayKeyMatches(input.password, hash ?? UNKNOWN_GATEWAY_HASH);
      });
      return verdict.outcome === 'right' && known;
    },
    acl(input: { username: string; clientid: string; topic: string; acc: number }): boolean {
      if (!isValidGatewayIdentity(input.clientid, input.username)) return false;
      if (input.acc === ACL_WRITE) return mayPublish(input.username, input.topic) !== undefined;
      if (input.acc === ACL_READ || input.acc === ACL_SUBSCRIBE) return maySubscribe(input.username, input.topic);
      return false;
    },
  };
}

export type MqttAuth = ReturnType<typeof createMqttAuth>;
