import {
  AcSwitchSelfCheckBodySchema,
  AcSwitchSelfCheckStartedSchema,
  AcSwitchTaskBodySchema,
  AcSwitchTaskEnableBodySchema,
  AcSwitchTaskHistoryQuerySchema,
  AcSwitchTaskHistorySchema,
  AcSwitchTasksSchema,
} from '@sunward/contracts/ac-switch-tasks';
import { envelopeSchema } from '@sunward/contracts/envelope';
import { IdParamSchema } from '@sunward/contracts/ids';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../lib/envelope.js';
import { appGate, PLATFORM_PASSES_SWITCH_GATE } from '../smart-apps/app-gate.js';
import type { SmartAppsService } from '../smart-apps/smart-apps.service.js';
import type { SwitchTasksService } from './switch-tasks.service.js';

const TAGS = ['Smart AC switches'];
const BASE = '/api/v1/acSwitch/:id/tasks';
const IdParams = z.object({ id: IdParamSchema });
const TaskParams = z.object({ id: IdParamSchema, taskId: IdParamSchema });

/**
 * Timed tasks of an AC switch (Sunward's, issue 22 part 1): list, add (single or repeat, in the plant's time zone;
 * password again), turn off or on, delete, and the history of what each run did. Gated on the smart switch app
 * like the rest of the family.
 */
export const switchTasksRoutes: FastifyPluginAsyncZod<{ service: SwitchTasksService; apps: Pick<SmartAppsService, 'require'> }> = async (
  app,
  { service, apps },
) => {
  app.addHook('onRequest', appGate(apps, 'smart_switch', PLATFORM_PASSES_SWITCH_GATE));
  const done = { 200: envelopeSchema(z.null()) };

  app.get(
    BASE,
    {
      config: { access: 'smart.acSwitch' },
      schema: {
        tags: TAGS,
        summary: "The switch's timed tasks with their next run, in the plant's time zone (4420 not the caller's)",
        params: IdParams,
        response: { 200: envelopeSchema(AcSwitchTasksSchema) },
      },
    },
    async (request) => ok(request, await service.list(request.requireAuth(), request.params.id)),
  );

  app.post(
    BASE,
    {
      config: { access: { kind: 'operate', key: 'smart.acSwitch.control' } },
      schema: {
        tags: TAGS,
        summary:
          'Adds a timed task: once at a plant-local date and time, on weekdays at a time, or a monthly self-check on a day (1–28) at a time (password again, 708 wrong; 4431 in the past; 4432 overlaps another task; 4434 switch in no plant; 4435 20 tasks already)',
        params: IdParams,
        body: AcSwitchTaskBodySchema,
        response: { 200: envelopeSchema(z.object({ id: z.number() })) },
      },
    },
    async (request) => ok(request, await service.create(request.requireAuth(), request.params.id, request.body)),
  );

  app.post(
    `${BASE}/:taskId/enabled`,
    {
      config: { access: { kind: 'operate', key: 'smart.acSwitch.control' } },
      schema: {
        tags: TAGS,
        summary: 'Turns a task off, or on again from its next occurrence (4433 no such task; 4431 a single task whose time passed)',
        params: TaskParams,
        body: AcSwitchTaskEnableBodySchema,
        response: done,
      },
    },
    async (request) => {
      await service.setEnabled(request.requireAuth(), request.params.id, request.params.taskId, request.body.enabled);
      return ok(request, null);
    },
  );

  app.delete(
    `${BASE}/:taskId`,
    {
      config: { access: { kind: 'operate', key: 'smart.acSwitch.control' } },
      schema: {
        tags: TAGS,
        summary: 'Deletes a task; its runs stay in the history (4433 no such task)',
        params: TaskParams,
        response: done,
      },
    },
    async (request) => {
      await service.remove(request.requireAuth(), request.params.id, request.params.taskId);
      return ok(request, null);
    },
  );

  app.post(
    '/api/v1/acSwitch/:id/selfCheck',
    {
      config: { access: { kind: 'operate', key: 'smart.acSwitch.control' } },
      schema: {
        tags: TAGS,
        summary:
          "Runs the switch's leakage self-check now: it cuts the circuit for 10 s (password again, 708 wrong; 4428 not reporting; 4427 off locally; 4438 off). Answers once the switch confirmed the start; the verdict lands in the history's run",
        params: IdParams,
        body: AcSwitchSelfCheckBodySchema,
        response: { 200: envelopeSchema(AcSwitchSelfCheckStartedSchema) },
      },
    },
    async (request) =>
      ok(request, await service.selfCheckNow(request.requireAuth(), request.params.id, request.body.password, request.language)),
  );

  app.get(
    `${BASE}/history`,
    {
      config: { access: 'smart.acSwitch' },
      schema: {
        tags: TAGS,
        summary: "What each run of the switch's tasks did, newest first: done, refused or failed with why, or missed",
        params: IdParams,
        querystring: AcSwitchTaskHistoryQuerySchema,
        response: { 200: envelopeSchema(AcSwitchTaskHistorySchema) },
      },
    },
    async (request) => ok(request, await service.history(request.requireAuth(), request.params.id, request.query, request.language)),
  );
};
