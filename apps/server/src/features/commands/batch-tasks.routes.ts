import {
  BatchTaskBodySchema,
  BatchTaskCreatedSchema,
  BatchTaskDetailSchema,
  BatchTaskPageQuerySchema,
  BatchTaskPageSchema,
  BatchTaskRetriedSchema,
} from '@sunward/contracts/batch-tasks';
import { envelopeSchema } from '@sunward/contracts/envelope';
import { IdParamSchema } from '@sunward/contracts/ids';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../lib/envelope.js';
import type { BatchTasksService } from './batch-tasks.service.js';

const TAGS = ['Remote operation'];
const IdParams = z.object({ id: IdParamSchema });

/** Batch upgrade tasks (spec 02 §4 Batch task): create, list, read with items, terminate, restart, retry. */
export const batchTasksRoutes: FastifyPluginAsyncZod<{ service: BatchTasksService }> = async (app, { service }) => {
  app.post(
    '/api/v1/tasks',
    {
      config: { access: { kind: 'operate', key: 'inverter.upgrade' } },
      schema: {
        tags: TAGS,
        summary: 'Creates a batch upgrade task (password once); it runs at once or at runAt, in waves',
        body: BatchTaskBodySchema,
        response: { 200: envelopeSchema(BatchTaskCreatedSchema) },
      },
    },
    async (request) => ok(request, await service.create(request.requireAuth(), request.language, request.body)),
  );

  app.get(
    '/api/v1/tasks',
    {
      config: { access: { kind: 'operate', key: 'inverter.upgrade' } },
      schema: {
        tags: TAGS,
        summary: 'Batch tasks with their item counts, newest first',
        querystring: BatchTaskPageQuerySchema,
        response: { 200: envelopeSchema(BatchTaskPageSchema) },
      },
    },
    async (request) => {
      const auth = request.requireAuth();
      return ok(
        request,
        await service.page(
          { companyId: auth.companyId, userId: auth.userId, all: auth.roleKey === 'platform_admin' },
          request.query.page,
          request.query.size,
        ),
      );
    },
  );

  app.get(
    '/api/v1/tasks/:id',
    {
      config: { access: { kind: 'operate', key: 'inverter.upgrade' } },
      schema: {
        tags: TAGS,
        summary: 'A batch task with each item’s result',
        params: IdParams,
        response: { 200: envelopeSchema(BatchTaskDetailSchema) },
      },
    },
    async (request) => ok(request, await service.detail(request.requireAuth(), request.params.id)),
  );

  for (const action of ['terminate', 'restart', 'retry'] as const)
    app.post(
      `/api/v1/tasks/:id/${action}`,
      {
        config: { access: { kind: 'operate', key: 'inverter.upgrade' } },
        schema: {
          tags: TAGS,
          summary:
            action === 'terminate'
              ? 'Terminates a task (items not started stay pending)'
              : action === 'restart'
                ? 'Runs a terminated or paused task again from where it stopped'
                : 'Tries the failed items again',
          params: IdParams,
          // retry answers how many items run again; terminate and restart answer null.
          response: { 200: envelopeSchema(action === 'retry' ? BatchTaskRetriedSchema : z.null()) },
        },
      },
      async (request) => {
        const auth = request.requireAuth();
        const id = request.params.id;
        if (action === 'retry') return ok(request, await service.retry(auth, id));
        await (action === 'terminate' ? service.terminate(auth, id) : service.restart(auth, id));
        return ok(request, null);
      },
    );
};
