import { Code } from '@sunward/contracts/codes';
import { envelopeSchema } from '@sunward/contracts/envelope';
import { translate } from '@sunward/contracts/messages';
import type { FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { Histogram, Registry } from 'prom-client';
import { z } from 'zod';
import { ApiError, ok } from '../../lib/envelope.js';
import { metricsRegistry } from '../../lib/metrics.js';
import { metricsAccess } from './metrics-access.js';
import type { Readiness } from './readiness.js';

/** Request time per route pattern (never the raw URL: ids would make one series per plant). */
const httpDuration = new Histogram({
  name: 'sunward_http_request_duration_seconds',
  help: 'HTTP request time by method, route pattern and status code',
  labelNames: ['method', 'route', 'status_code'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [metricsRegistry],
});

const ReadySchema = z.object({
  status: z.literal('ready'),
  database: z.literal('ok'),
  broker: z.literal('ok'),
});

declare module 'fastify' {
  interface FastifyInstance {
    /** Readiness (features/observability): shutdown calls startDraining() before it stops anything. */
    readiness: Readiness;
  }
}

/**
 * Observability (issue 17): Prometheus /metrics, the liveness and readiness probes, and the HTTP
 * latency histogram. `/api/health` (systemRoutes) stays as it was.
 */
export const observabilityRoutes = fp<{ metricsToken: string | undefined; readiness: Readiness; gauges: Registry }>(
  async (root, { metricsToken, readiness, gauges }) => {
    const app = root.withTypeProvider<ZodTypeProvider>();
    app.decorate('readiness', readiness);
    app.addHook('onResponse', async (request, reply) => {
      // Unrouted requests (404s, console pages served by the not-found handler) share one series.
      const route = request.routeOptions.url ?? 'unmatched';
      httpDuration.observe({ method: request.method, route, status_code: String(reply.statusCode) }, reply.elapsedTime / 1000);
    });

    app.get('/metrics', { config: { access: 'public' }, schema: { hide: true } }, async (request, reply) => {
      const access = metricsAccess(metricsToken, { remoteAddress: request.socket.remoteAddress, headers: request.headers });
      if (access === 'not-found') throw new ApiError(Code.NOT_FOUND);
      if (access === 'unauthorised') {
        reply.header('www-authenticate', 'Bearer realm="metrics"');
        throw new ApiError(Code.TOKEN_INVALID);
      }
      const registry = Registry.merge([metricsRegistry, gauges]);
      return reply
        .type(registry.contentType)
        .header('cache-control', 'no-store')
        .send(await registry.metrics());
    });

    app.get(
      '/api/health/live',
      {
        config: { access: 'public' },
        schema: {
          tags: ['System'],
          summary: 'Liveness: the process answers (nothing else is checked; restart it when this fails)',
          response: { 200: envelopeSchema(z.object({ status: z.literal('ok') })) },
        },
      },
      async (request) => ok(request, { status: 'ok' as const }),
    );

    app.get(
      '/api/health/ready',
      {
        config: { access: 'public' },
        schema: {
          tags: ['System'],
          summary:
            'Readiness: the database answers and the MQTT broker is up; 503 (code 170) while starting, migrating, shutting down, or when either fails',
          response: { 200: envelopeSchema(ReadySchema) },
        },
      },
      async (request, reply) => {
        const report = await readiness.check();
        if (report.ready) return ok(request, { status: 'ready' as const, database: 'ok' as const, broker: 'ok' as const });
        const { ready: _, ...checks } = report;
        // Outside the route's 200 schema: the same envelope every refusal uses, with what failed in data.
        return (reply as FastifyReply)
          .status(503)
          .header('retry-after', '5')
          .header('cache-control', 'no-store')
          .serializer(JSON.stringify)
          .send({ code: Code.SERVER_NOT_READY, data: checks, message: translate(request.language, 'code.170') });
      },
    );
  },
  { name: 'observability' },
);
