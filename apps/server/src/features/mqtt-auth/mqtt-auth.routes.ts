import { timingSafeEqual } from 'node:crypto';
import { MqttAuthAclBodySchema, MqttAuthSuperuserBodySchema, MqttAuthUserBodySchema } from '@sunward/contracts/mqtt-auth';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { MqttAuth } from './mqtt-auth.js';

const TAGS = ['Gateway connection'];
const TokenParams = z.object({ token: z.string().max(256) });

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The mosquitto-go-auth HTTP backend (MQTT_AUTH_TOKEN set): /api/mqtt-auth/<token>/user, /superuser and
 * /acl, answered by status (200 allowed, 403 refused). The plugin sends no headers of its own, so the
 * token is part of the path; these routes never write request log lines (the token stays out of the log),
 * and a wrong token is answered 404 like a path that does not exist.
 */
export const mqttAuthRoutes: FastifyPluginAsyncZod<{ auth: MqttAuth; token: string }> = async (app, { auth, token }) => {
  const access = {
    kind: 'public-write',
    reason:
      'the broker asks whether a gateway may log in or use a topic; the path holds MQTT_AUTH_TOKEN and keys count in the secret throttle',
  } as const;
  const answer = (reply: FastifyReply, allowed: boolean) => reply.code(allowed ? 200 : 403).send();
  // The broker calls on every login and topic use (cached by the plugin): not counted against its address.
  const brokerCall = { logLevel: 'warn', config: { access, rateLimit: false } } as const;
  // A wrong token: the same 404 as a path that does not exist (this plugin's routes only).
  app.addHook('preHandler', async (request, reply) => {
    const { token: given } = request.params as { token?: string };
    if (!sameToken(given ?? '', token)) return reply.code(404).send();
  });

  app.post(
    '/api/mqtt-auth/:token/user',
    {
      ...brokerCall,
      schema: {
        tags: TAGS,
        summary: 'Broker asks: may this gateway log in (SN, key, client id)?',
        params: TokenParams,
        body: MqttAuthUserBodySchema,
      },
    },
    async (request, reply) => {
      return answer(reply, await auth.user(request.body, request.ip));
    },
  );

  app.post(
    '/api/mqtt-auth/:token/superuser',
    {
      ...brokerCall,
      schema: {
        tags: TAGS,
        summary: 'Broker asks: is this user a superuser? Never for a gateway',
        params: TokenParams,
        body: MqttAuthSuperuserBodySchema,
      },
    },
    async (_request, reply) => answer(reply, false),
  );

  app.post(
    '/api/mqtt-auth/:token/acl',
    {
      ...brokerCall,
      schema: {
        tags: TAGS,
        summary: 'Broker asks: may this gateway read, publish or subscribe on this topic?',
        params: TokenParams,
        body: MqttAuthAclBodySchema,
      },
    },
    async (request, reply) => {
      return answer(reply, auth.acl(request.body));
    },
  );
};
