import { Code } from '@sunward/contracts/codes';
import { envelopeSchema } from '@sunward/contracts/envelope';
import { IdParamSchema } from '@sunward/contracts/ids';
import {
  RuleEnableSchema,
  RuleListQuerySchema,
  RulePlantCheckQuerySchema,
  RulePlantCheckSchema,
  RulePlantSchema,
  RulePreviewSchema,
  SmartRuleInputSchema,
  SmartRuleRunSchema,
  SmartRuleSchema,
} from '@sunward/contracts/smart-home';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../lib/envelope.js';
import type { SmartRulesService } from './smart-rules.service.js';

const TAGS = ['Smart rules'];
const IdParams = z.object({ id: IdParamSchema });
const WRITE = { kind: 'manage', key: 'station.edit' } as const;
/** Spec 01 §7: codes 1, 2, 4, 600, 4000, 4002 are handled by the rule screens; Sunward's own are 4410-4414. */
const RULE_CODES = [Code.APP_NOT_ENABLED, Code.SMART_RULE_NOT_FOUND];
const WRITE_CODES = [
  ...RULE_CODES,
  Code.PLANT_NOT_FOUND,
  Code.SMART_RULE_NAME_EXISTS,
  Code.SMART_RULE_DEVICE_TWICE,
  Code.SMART_RULE_DEVICE_INVALID,
  Code.CONFIRM_PASSWORD_WRONG,
];

/** Spec 01 §7 Smart rules: smart/rule/plant, plant/check, the rule list, create, update, enable, delete; runs and a dry run. */
export const smartRulesRoutes: FastifyPluginAsyncZod<{ service: SmartRulesService }> = async (app, { service }) => {
  app.get(
    '/api/v1/smart/rule/plant',
    {
      config: { access: 'station.view' },
      schema: {
        tags: TAGS,
        summary: 'Plants the caller sees, with their bound bulbs and rules counted',
        'x-codes': [Code.APP_NOT_ENABLED],
        response: { 200: envelopeSchema(z.array(RulePlantSchema)) },
      },
    },
    async (request) => ok(request, await service.plants(request.requireAuth())),
  );

  app.get(
    '/api/v1/smart/rule/plant/check',
    {
      config: { access: 'station.view' },
      schema: {
        tags: TAGS,
        summary: 'Whether a rule can be made for the plant: its bound bulbs and AC switches, and whether the name is free there',
        'x-codes': [Code.APP_NOT_ENABLED, Code.PLANT_NOT_FOUND],
        querystring: RulePlantCheckQuerySchema,
        response: { 200: envelopeSchema(RulePlantCheckSchema) },
      },
    },
    async (request) =>
      ok(request, await service.check(request.requireAuth(), request.query.plantId, request.query.name, request.query.ruleId)),
  );

  app.get(
    '/api/v1/smart/rule',
    {
      config: { access: 'station.view' },
      schema: {
        tags: TAGS,
        summary: 'Rules of the plants the caller sees (or of one plant)',
        'x-codes': [Code.APP_NOT_ENABLED, Code.PLANT_NOT_FOUND],
        querystring: RuleListQuerySchema,
        response: { 200: envelopeSchema(z.array(SmartRuleSchema)) },
      },
    },
    async (request) => ok(request, await service.list(request.requireAuth(), request.query.plantId)),
  );

  app.post(
    '/api/v1/smart/rule',
    {
      config: { access: WRITE },
      schema: {
        tags: TAGS,
        summary:
          'Creates a rule: conditions on the plant’s live data, actions on its bulbs (brightness 0–100) and AC switches (on/off; the password again, 708), a device once; it acts for the saver',
        'x-codes': WRITE_CODES,
        body: SmartRuleInputSchema,
        response: { 200: envelopeSchema(SmartRuleSchema) },
      },
    },
    async (request) => ok(request, await service.create(request.requireAuth(), request.body, request.language)),
  );

  app.post(
    '/api/v1/smart/rule/:id',
    {
      config: { access: WRITE },
      schema: {
        tags: TAGS,
        summary: 'Updates a rule (it starts afresh: not holding, not active, acting for the saver; AC switch actions: the password again)',
        'x-codes': WRITE_CODES,
        params: IdParams,
        body: SmartRuleInputSchema,
        response: { 200: envelopeSchema(SmartRuleSchema) },
      },
    },
    async (request) => ok(request, await service.update(request.requireAuth(), request.params.id, request.body, request.language)),
  );

  app.post(
    '/api/v1/smart/rule/:id/enable',
    {
      config: { access: WRITE },
      schema: {
        tags: TAGS,
        summary: 'Enables or disables a rule',
        'x-codes': RULE_CODES,
        params: IdParams,
        body: RuleEnableSchema,
        response: { 200: envelopeSchema(SmartRuleSchema) },
      },
    },
    async (request) => ok(request, await service.setEnabled(request.requireAuth(), request.params.id, request.body.enabled)),
  );

  app.post(
    '/api/v1/smart/rule/:id/delete',
    {
      config: { access: WRITE },
      schema: {
        tags: TAGS,
        summary: 'Deletes a rule and its run history',
        'x-codes': RULE_CODES,
        params: IdParams,
        response: { 200: envelopeSchema(z.null()) },
      },
    },
    async (request) => {
      await service.remove(request.requireAuth(), request.params.id);
      return ok(request, null);
    },
  );

  app.get(
    '/api/v1/smart/rule/:id/runs',
    {
      config: { access: 'station.view' },
      schema: {
        tags: TAGS,
        summary: 'The rule’s last 50 runs: what it saw and what each device answered (a refusal with its code)',
        'x-codes': RULE_CODES,
        params: IdParams,
        response: { 200: envelopeSchema(z.array(SmartRuleRunSchema)) },
      },
    },
    async (request) => ok(request, await service.runs(request.requireAuth(), request.params.id)),
  );

  app.get(
    '/api/v1/smart/rule/:id/preview',
    {
      config: { access: 'station.view' },
      schema: {
        tags: TAGS,
        summary: 'Dry run: the plant’s values now against the rule’s conditions, and whether it would fire (nothing is sent)',
        'x-codes': RULE_CODES,
        params: IdParams,
        response: { 200: envelopeSchema(RulePreviewSchema) },
      },
    },
    async (request) => ok(request, await service.preview(request.requireAuth(), request.params.id)),
  );
};
