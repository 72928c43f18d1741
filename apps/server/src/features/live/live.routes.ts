import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { LiveEvent, LiveHub } from '../../ingest/live-hub.js';
import { every } from '../../jobs/timers.js';
import type { PlantAccess } from '../plants/plant-access.js';

const HEARTBEAT_MS = 25_000;
const VISIBILITY_REFRESH_MS = 60_000;

/**
 * GET /api/v1/live: Server-Sent Events with device and plant changes the caller may see, pushed as
 * reports are stored (no polling). Sunward addition; the spec has no push channel.
 */
export const liveRoutes: FastifyPluginAsyncZod<{ live: LiveHub; plantAccess: PlantAccess }> = async (app, { live, plantAccess }) => {
  app.get(
    '/api/v1/live',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['Live'],
        summary: 'Server-Sent Events: device status and power, plant status, device events, the unread message count, as they change',
        // The bell asks for `types=message` only, so it does not carry every device report of a fleet.
        querystring: z.object({ types: z.string().max(100).optional() }),
      },
    },
    async (request, reply) => {
      const auth = request.requireAuth();
      const types = request.query.types ? new Set(request.query.types.split(',')) : undefined;
      let visible = await plantAccess.visiblePlantIds(auth);
      const stopRefresh = every(VISIBILITY_REFRESH_MS, () => {
        plantAccess.visiblePlantIds(auth).then(
          (ids) => {
            visible = ids;
          },
          () => undefined,
        );
      });
      const canSee = (event: LiveEvent) => {
        if (types && !types.has(event.type)) return false;
        // A user's message count is theirs alone, whatever plants they see.
        if (event.type === 'message') return event.userId === auth.userId;
        return visible === undefined || (event.plantId !== null && visible.has(event.plantId));
      };
      reply.hijack();
      const raw = reply.raw;
      raw.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      raw.write('retry: 3000\n\n');
      // Changes published by every server process (the live bus), not only this one's.
      const unsubscribe = live.subscribe(
        (event) => {
          if (canSee(event)) raw.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
        },
        { scope: 'cluster' },
      );
      const stopHeartbeat = every(HEARTBEAT_MS, () => raw.write(': keep-alive\n\n'));
      request.raw.on('close', () => {
        stopHeartbeat();
        stopRefresh();
        unsubscribe();
      });
    },
  );
};
