import { Code } from '@sunward/contracts/codes';
import { envelopeSchema } from '@sunward/contracts/envelope';
import { DownloadRecordSchema } from '@sunward/contracts/files';
import { IdParamSchema } from '@sunward/contracts/ids';
import {
  DeviceReportQuerySchema,
  DeviceReportSchema,
  ReportConfigInputSchema,
  ReportConfigListQuerySchema,
  ReportConfigSchema,
  ReportDeviceOptionSchema,
  ReportQuerySchema,
  ReportScheduleInputSchema,
  ReportScheduleRunSchema,
  ReportScheduleSchema,
  ReportScheduleUpdateSchema,
  ReportSchema,
  ReportSendListQuerySchema,
  ReportSendPageSchema,
} from '@sunward/contracts/reports';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { XLSX_TYPE } from '../../lib/download.js';
import { ok } from '../../lib/envelope.js';
import type { ReportsService } from './reports.service.js';

const TAGS = ['Reports'];
const IdParams = z.object({ id: IdParamSchema });
const Done = z.object({ ok: z.literal(true) });

/** Content-Disposition with an ASCII fallback and the UTF-8 name (RFC 6266): report titles are in any language. */
function disposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/** The reports family (issue 21; calls.tsv FAMILY /api/v1/reports): reports, plant report configs, schedules, send log. */
export const reportsRoutes: FastifyPluginAsyncZod<{ service: ReportsService }> = async (app, { service }) => {
  app.get(
    '/api/v1/reports',
    {
      config: { access: 'report.view' },
      schema: {
        'x-codes': [Code.PLANT_NOT_FOUND, Code.REPORT_CUSTOMER_NOT_FOUND, Code.REPORT_CONFIG_NOT_FOUND],
        tags: TAGS,
        summary: 'A plant, set-of-plants or customer report for a day, month or year, from the daily rollups (the console preview)',
        querystring: ReportQuerySchema,
        response: { 200: envelopeSchema(ReportSchema) },
      },
    },
    async (request) => ok(request, await service.build(request.requireAuth(), request.query, request.language)),
  );

  app.get(
    '/api/v1/reports/file',
    {
      config: { access: 'report.view' },
      schema: {
        'x-codes': [Code.PLANT_NOT_FOUND, Code.REPORT_CUSTOMER_NOT_FOUND, Code.REPORT_CONFIG_NOT_FOUND],
        tags: TAGS,
        summary: 'The same report as an A4 PDF (charts, the company logo and colour, the caller’s language) or .xlsx (format=pdf|xlsx)',
        querystring: ReportQuerySchema,
      },
    },
    async (request, reply) => {
      const format = request.query.format ?? 'pdf';
      const file = await service.file(request.requireAuth(), request.query, request.language, format);
      return reply
        .type(format === 'pdf' ? 'application/pdf' : XLSX_TYPE)
        .header('content-disposition', disposition(file.fileName))
        .header('cache-control', 'no-store')
        .send(file.bytes);
    },
  );

  app.get(
    '/api/v1/reports/device',
    {
      config: { access: 'report.view' },
      schema: {
        'x-codes': [Code.DEVICE_NOT_FOUND],
        tags: TAGS,
        summary:
          'A device report for a day, month or year: its energy counters (the device page’s figures), peak power, running hours, availability, events (602: no such device here)',
        querystring: DeviceReportQuerySchema,
        response: { 200: envelopeSchema(DeviceReportSchema) },
      },
    },
    async (request) => ok(request, await service.buildDevice(request.requireAuth(), request.query, request.language)),
  );

  app.get(
    '/api/v1/reports/devices',
    {
      config: { access: 'report.view' },
      schema: {
        'x-codes': [Code.PLANT_NOT_FOUND],
        tags: TAGS,
        summary: 'The devices of a plant, for picking a device report (700: not a plant the caller sees)',
        querystring: ReportConfigListQuerySchema,
        response: { 200: envelopeSchema(z.array(ReportDeviceOptionSchema)) },
      },
    },
    async (request) => ok(request, await service.deviceOptions(request.requireAuth(), request.query.plantId)),
  );

  app.get(
    '/api/v1/reports/device/file',
    {
      config: { access: 'report.view' },
      schema: {
        'x-codes': [Code.DEVICE_NOT_FOUND],
        tags: TAGS,
        summary: 'The device report as an A4 PDF or .xlsx (format=pdf|xlsx)',
        querystring: DeviceReportQuerySchema,
      },
    },
    async (request, reply) => {
      const format = request.query.format ?? 'pdf';
      const file = await service.deviceFile(request.requireAuth(), request.query, request.language, format);
      return reply
        .type(format === 'pdf' ? 'application/pdf' : XLSX_TYPE)
        .header('content-disposition', disposition(file.fileName))
        .header('cache-control', 'no-store')
        .send(file.bytes);
    },
  );

  app.post(
    '/api/v1/reports/export',
    {
      config: {
        access: { kind: 'view', key: 'report.view', readsOnly: "prepares the report as a file in the caller's own download centre" },
      },
      schema: {
        'x-codes': [Code.PLANT_NOT_FOUND, Code.REPORT_CUSTOMER_NOT_FOUND, Code.REPORT_CONFIG_NOT_FOUND, Code.EXPORT_JOBS_BUSY],
        tags: TAGS,
        summary:
          'The report file made in the background for a large set of plants; answers the download record (GET fileDownloadRecord/list)',
        body: ReportQuerySchema,
        response: { 200: envelopeSchema(DownloadRecordSchema) },
      },
    },
    async (request) =>
      ok(request, await service.exportInBackground(request.requireAuth(), request.body, request.language, request.body.format ?? 'pdf')),
  );

  app.get(
    '/api/v1/reports/configs',
    {
      config: { access: 'report.view' },
      schema: {
        'x-codes': [Code.PLANT_NOT_FOUND],
        tags: TAGS,
        summary: "A plant's saved report configurations (spec 01 plant entity: report configs)",
        querystring: ReportConfigListQuerySchema,
        response: { 200: envelopeSchema(z.array(ReportConfigSchema)) },
      },
    },
    async (request) => ok(request, await service.configs(request.requireAuth(), request.query.plantId)),
  );

  app.post(
    '/api/v1/reports/configs',
    {
      config: { access: { kind: 'manage', key: 'report.edit' } },
      schema: {
        'x-codes': [
          Code.PLANT_NOT_FOUND,
          Code.REPORT_TOO_MANY_PARAMETERS,
          Code.REPORT_TOO_MANY_UNITS,
          Code.REPORT_UNIT_NOT_IN_PLANT,
          Code.REPORT_CONFIG_NOT_FOUND,
          Code.REPORT_CONFIG_NAME_EXISTS,
        ],
        tags: TAGS,
        summary: 'Saves a report configuration of a plant: at most 6 parameters (1000) and 6 units (1001), units of the plant (1002)',
        body: ReportConfigInputSchema,
        response: { 200: envelopeSchema(ReportConfigSchema) },
      },
    },
    async (request) => ok(request, await service.saveConfig(request.requireAuth(), null, request.body)),
  );

  app.put(
    '/api/v1/reports/configs/:id',
    {
      config: { access: { kind: 'manage', key: 'report.edit' } },
      schema: {
        'x-codes': [
          Code.PLANT_NOT_FOUND,
          Code.REPORT_TOO_MANY_PARAMETERS,
          Code.REPORT_TOO_MANY_UNITS,
          Code.REPORT_UNIT_NOT_IN_PLANT,
          Code.REPORT_CONFIG_NOT_FOUND,
          Code.REPORT_CONFIG_NAME_EXISTS,
        ],
        tags: TAGS,
        summary: 'Changes a report configuration',
        params: IdParams,
        body: ReportConfigInputSchema,
        response: { 200: envelopeSchema(ReportConfigSchema) },
      },
    },
    async (request) => ok(request, await service.saveConfig(request.requireAuth(), request.params.id, request.body)),
  );

  app.delete(
    '/api/v1/reports/configs/:id',
    {
      config: { access: { kind: 'manage', key: 'report.edit' } },
      schema: {
        'x-codes': [Code.REPORT_CONFIG_NOT_FOUND],
        tags: TAGS,
        summary: 'Deletes a report configuration',
        params: IdParams,
        response: { 200: envelopeSchema(Done) },
      },
    },
    async (request) => {
      await service.deleteConfig(request.requireAuth(), request.params.id);
      return ok(request, { ok: true as const });
    },
  );

  app.get(
    '/api/v1/reports/schedules',
    {
      config: { access: 'report.view' },
      schema: { tags: TAGS, summary: "The caller's scheduled reports", response: { 200: envelopeSchema(z.array(ReportScheduleSchema)) } },
    },
    async (request) => ok(request, await service.schedules(request.requireAuth())),
  );

  app.post(
    '/api/v1/reports/schedules',
    {
      config: { access: { kind: 'manage', key: 'report.edit' } },
      schema: {
        'x-codes': [Code.PLANT_NOT_FOUND, Code.REPORT_CUSTOMER_NOT_FOUND, Code.REPORT_CONFIG_NOT_FOUND],
        tags: TAGS,
        summary: 'Schedules a weekly or monthly report e-mailed to recipients in their language (a deleted plant is refused with 700)',
        body: ReportScheduleInputSchema,
        response: { 200: envelopeSchema(ReportScheduleSchema) },
      },
    },
    async (request) => ok(request, await service.addSchedule(request.requireAuth(), request.body)),
  );

  app.put(
    '/api/v1/reports/schedules/:id',
    {
      config: { access: { kind: 'manage', key: 'report.edit' } },
      schema: {
        'x-codes': [Code.REPORT_SCHEDULE_NOT_FOUND, Code.REPORT_SCHEDULE_TARGET_DELETED],
        tags: TAGS,
        summary:
          'Pauses or resumes a scheduled report, or changes its recipients, format or frequency (1007: its plant or customer was deleted)',
        params: IdParams,
        body: ReportScheduleUpdateSchema,
        response: { 200: envelopeSchema(ReportScheduleSchema) },
      },
    },
    async (request) => ok(request, await service.updateSchedule(request.requireAuth(), request.params.id, request.body)),
  );

  app.delete(
    '/api/v1/reports/schedules/:id',
    {
      config: { access: { kind: 'manage', key: 'report.edit' } },
      schema: {
        'x-codes': [Code.REPORT_SCHEDULE_NOT_FOUND],
        tags: TAGS,
        summary: 'Deletes a scheduled report (its send log goes with it)',
        params: IdParams,
        response: { 200: envelopeSchema(Done) },
      },
    },
    async (request) => {
      await service.deleteSchedule(request.requireAuth(), request.params.id);
      return ok(request, { ok: true as const });
    },
  );

  app.post(
    '/api/v1/reports/schedules/:id/run',
    {
      config: { access: { kind: 'manage', key: 'report.edit' } },
      schema: {
        'x-codes': [Code.REPORT_SCHEDULE_NOT_FOUND, Code.REPORT_SCHEDULE_TARGET_DELETED],
        tags: TAGS,
        summary: "Sends a schedule's last period now (1007 when its plant or customer was deleted: the schedule is disabled)",
        params: IdParams,
        response: { 200: envelopeSchema(ReportScheduleRunSchema) },
      },
    },
    async (request) => ok(request, await service.runNow(request.requireAuth(), request.params.id)),
  );

  app.get(
    '/api/v1/reports/sends',
    {
      config: { access: 'report.view' },
      schema: {
        tags: TAGS,
        summary: "The send log of the caller's scheduled reports: recipient, period, e-mail state (outbox, retries)",
        querystring: ReportSendListQuerySchema,
        response: { 200: envelopeSchema(ReportSendPageSchema) },
      },
    },
    async (request) =>
      ok(request, await service.sends(request.requireAuth(), request.query.scheduleId, request.query.page, request.query.size)),
  );
};
