import {
  AliasBodySchema,
  BatchDeleteBodySchema,
  DayQuerySchema,
  DaySeriesSchema,
  DEVICE_KIND_INFO,
  DEVICE_KINDS,
  DeleteResultSchema,
  DeviceCountsSchema,
  DeviceDetailSchema,
  DeviceListQuerySchema,
  DevicePageSchema,
  DeviceRealtimeSchema,
  EnergyBarsSchema,
  MeterSettingsSchema,
  PeriodQuerySchema,
  PvIvSchema,
  type SectionKey,
  WorkdataPageSchema,
  WorkdataQuerySchema,
} from '@sunward/contracts/devices';
import { envelopeSchema } from '@sunward/contracts/envelope';
import { DownloadRecordSchema } from '@sunward/contracts/files';
import { IdParamSchema } from '@sunward/contracts/ids';
import { DEVICE_KIND_ACCESS } from '@sunward/contracts/permissions';
import {
  ProtocolSwitchBodySchema,
  ProtocolSwitchPreviewSchema,
  ProtocolSwitchQuerySchema,
  ProtocolSwitchResultSchema,
} from '@sunward/contracts/protocol-switch';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendDownload, XLSX_TYPE } from '../../lib/download.js';
import { ok } from '../../lib/envelope.js';
import { batteriesWorkbook, devicesWorkbook } from './device-export.js';
import type { DevicesService } from './devices.service.js';

const TAGS = ['Devices'];
const SnParams = z.object({ sn: z.string().min(1).max(64) });
const IdParams = z.object({ id: IdParamSchema });

/** Sections of an inverter with their own realtime/day/month/year/total calls (spec 01 §7). */
const INVERTER_SECTIONS = ['grid', 'meter', 'battery', 'eps', 'load'] as const satisfies readonly SectionKey[];

export interface DevicesRoutesOptions {
  service: DevicesService;
}

/**
 * Every device family's calls (spec 01 §7: inverters, optimizers, meters, batteries, meteorological,
 * boxs, switchs, and heat pumps), generated from one table so each family answers the same way; the
 * inverter's extra sections and the meter's main flag and settings are added below.
 */
export const devicesRoutes: FastifyPluginAsyncZod<DevicesRoutesOptions> = async (app, { service }) => {
  // The list exports become download-centre job kinds once the centre exists (made after this plugin in
  // app.ts); onReady hooks run in order, so this one runs before the centre resumes unfinished jobs.
  app.addHook('onReady', async () => service.prepareExports());
  const ListFilters = DeviceListQuerySchema.omit({ page: true, size: true, sort: true, order: true });

  for (const kind of DEVICE_KINDS) {
    const { plural, singular } = DEVICE_KIND_INFO[kind];
    const access = DEVICE_KIND_ACCESS[kind];
    const base = `/api/v1/${singular}`;

    app.get(
      `/api/v1/${plural}`,
      {
        config: { access: access.view },
        schema: {
          tags: TAGS,
          summary: `List of ${plural} the caller sees: search by SN or alias, filters, sorting and paging in the database`,
          querystring: DeviceListQuerySchema,
          response: { 200: envelopeSchema(DevicePageSchema) },
        },
      },
      async (request) => ok(request, await service.list(request.requireAuth(), kind, request.query)),
    );

    app.get(
      `/api/v1/${plural}/count`,
      {
        config: { access: access.view },
        schema: {
          tags: TAGS,
          summary: `Counts of ${plural} by status under the same filters`,
          querystring: ListFilters,
          response: { 200: envelopeSchema(DeviceCountsSchema) },
        },
      },
      async (request) => ok(request, await service.counts(request.requireAuth(), kind, request.query)),
    );

    const detailPaths = kind === 'optimizer' ? [`${base}/:sn/info`, `${base}/:sn`] : [`${base}/:sn`];
    for (const path of detailPaths)
      app.get(
        path,
        {
          config: { access: access.view },
          schema: {
            tags: TAGS,
            summary: `One ${singular}: identity, plant, status, sections, chartable points (600/602 when not visible)`,
            params: SnParams,
            response: { 200: envelopeSchema(DeviceDetailSchema) },
          },
        },
        async (request) => ok(request, await service.detail(request.requireAuth(), kind, request.params.sn, request.language)),
      );

    app.get(
      `${base}/:sn/realtime`,
      {
        config: { access: access.view },
        schema: {
          tags: TAGS,
          summary: `Latest values of a ${singular} by section, enumerations and events in words`,
          params: SnParams,
          response: { 200: envelopeSchema(DeviceRealtimeSchema) },
        },
      },
      async (request) => ok(request, await service.realtime(request.requireAuth(), kind, request.params.sn, request.language)),
    );

    app.get(
      `${base}/:sn/day`,
      {
        config: { access: access.view },
        schema: {
          tags: TAGS,
          summary: `Curves of a ${singular}'s day for up to 6 points and 6 units (points=W,DCW...)`,
          params: SnParams,
          querystring: DayQuerySchema,
          response: { 200: envelopeSchema(DaySeriesSchema) },
        },
      },
      async (request) => ok(request, await service.day(request.requireAuth(), kind, request.params.sn, request.language, request.query)),
    );

    for (const period of ['month', 'year', 'total'] as const)
      app.get(
        `${base}/:sn/${period}`,
        {
          config: { access: access.view },
          schema: {
            tags: TAGS,
            summary: `Energy of a ${singular} by ${period === 'month' ? 'day of a month' : period === 'year' ? 'month of a year' : 'year'}, per counter`,
            params: SnParams,
            querystring: PeriodQuerySchema,
            response: { 200: envelopeSchema(EnergyBarsSchema) },
          },
        },
        async (request) =>
          ok(request, await service.energy(request.requireAuth(), kind, request.params.sn, request.language, period, request.query.date)),
      );

    app.post(
      `${base}/:id/alias`,
      {
        config: { access: { kind: 'manage', key: access.edit } },
        schema: {
          tags: TAGS,
          summary: `Renames a ${singular} (at most 32 bytes, no special characters; empty clears it)`,
          params: IdParams,
          body: AliasBodySchema,
        },
      },
      async (request) => {
        await service.setAlias(request.requireAuth(), kind, request.params.id, request.body.alias, request.language);
        return ok(request, null);
      },
    );

    app.post(
      `${base}/:id/delete`,
      {
        config: { access: { kind: 'manage', key: access.remove } },
        schema: {
          tags: TAGS,
          summary: `Deletes a ${singular} the caller manages (a battery master with its slaves)`,
          params: IdParams,
          response: { 200: envelopeSchema(DeleteResultSchema) },
        },
      },
      async (request) => ok(request, await service.remove(request.requireAuth(), kind, [request.params.id])),
    );

    app.post(
      `${base}/batchDelete`,
      {
        config: { access: { kind: 'manage', key: access.remove } },
        schema: {
          tags: TAGS,
          summary: `Deletes several ${plural}: those the caller may not delete are listed, the rest deleted`,
          body: BatchDeleteBodySchema,
          response: { 200: envelopeSchema(DeleteResultSchema) },
        },
      },
      async (request) => ok(request, await service.remove(request.requireAuth(), kind, request.body.ids)),
    );
  }

  // ---------------------------------------------------------------------------------------------------
  // Inverters: input/output, PV I-V, parameters, sections, export
  // ---------------------------------------------------------------------------------------------------

  for (const [path, section] of [
    ['realtime/input', 'input'],
    ['realtime/output', 'output'],
  ] as const)
    app.get(
      `/api/v1/inverter/:sn/${path}`,
      {
        config: { access: 'inverter.view' },
        schema: {
          tags: TAGS,
          summary: `Latest ${section === 'input' ? 'DC input (per string/MPPT)' : 'AC output (per phase)'} values of an inverter`,
          params: SnParams,
          response: { 200: envelopeSchema(DeviceRealtimeSchema) },
        },
      },
      async (request) =>
        ok(request, await service.realtime(request.requireAuth(), 'inverter', request.params.sn, request.language, section)),
    );

  app.get(
    '/api/v1/inverter/:sn/pvIVRealtime',
    {
      config: { access: 'inverter.view' },
      schema: {
        tags: TAGS,
        summary: 'PV I-V readings now: voltage, current, power (and energy) per string/MPPT',
        params: SnParams,
        response: { 200: envelopeSchema(PvIvSchema) },
      },
    },
    async (request) => ok(request, await service.pvIv(request.requireAuth(), request.params.sn)),
  );

  app.get(
    '/api/v1/inverter/:sn/params',
    {
      config: { access: 'inverter.view' },
      schema: {
        tags: TAGS,
        summary: 'Nameplate, rating, protocol and the writable parameters with their current values',
        params: SnParams,
      },
    },
    async (request) => ok(request, await service.params(request.requireAuth(), request.params.sn, request.language)),
  );

  for (const section of INVERTER_SECTIONS) {
    app.get(
      `/api/v1/inverter/:sn/${section}/realtime`,
      {
        config: { access: 'inverter.view' },
        schema: {
          tags: TAGS,
          summary: `Latest ${section} values of an inverter (empty where the model has none)`,
          params: SnParams,
          response: { 200: envelopeSchema(DeviceRealtimeSchema) },
        },
      },
      async (request) =>
        ok(request, await service.realtime(request.requireAuth(), 'inverter', request.params.sn, request.language, section)),
    );
    app.get(
      `/api/v1/inverter/:sn/${section}/day`,
      {
        config: { access: 'inverter.view' },
        schema: {
          tags: TAGS,
          summary: `Curves of an inverter's ${section} points over a day`,
          params: SnParams,
          querystring: DayQuerySchema,
          response: { 200: envelopeSchema(DaySeriesSchema) },
        },
      },
      async (request) =>
        ok(request, await service.day(request.requireAuth(), 'inverter', request.params.sn, request.language, request.query, section)),
    );
    for (const period of ['month', 'year', 'total'] as const)
      app.get(
        `/api/v1/inverter/:sn/${section}/${period}`,
        {
          config: { access: 'inverter.view' },
          schema: {
            tags: TAGS,
            summary: `Energy of an inverter's ${section} counters by ${period}`,
            params: SnParams,
            querystring: PeriodQuerySchema,
            response: { 200: envelopeSchema(EnergyBarsSchema) },
          },
        },
        async (request) =>
          ok(
            request,
            await service.energy(
              request.requireAuth(),
              'inverter',
              request.params.sn,
              request.language,
              period,
              request.query.date,
              section,
            ),
          ),
      );
  }

  app.get(
    '/api/v1/inverters/exportInvertersExcel',
    {
      config: { access: 'inverter.export' },
      schema: {
        tags: TAGS,
        summary: 'The inverter list under the same filters as an .xlsx file; refused above 20,000 rows (706)',
        querystring: DeviceListQuerySchema,
      },
    },
    async (request, reply) => {
      const rows = await service.exportRows(request.requireAuth(), 'inverter', request.query);
      const bytes = await devicesWorkbook(rows, request.language);
      return sendDownload(reply, { type: XLSX_TYPE, fileName: `inverters-${new Date().toISOString().slice(0, 10)}.xlsx`, bytes });
    },
  );

  app.get(
    '/api/v1/batteriesDown',
    {
      config: { access: { kind: 'operate', key: 'battery.upgrade' } },
      schema: {
        tags: TAGS,
        summary: 'The batteries under the list’s filters as .xlsx, with master/slave and firmware version (to pick a batch upgrade)',
        querystring: DeviceListQuerySchema,
      },
    },
    async (request, reply) => {
      const rows = await service.exportRows(request.requireAuth(), 'battery', request.query);
      const bytes = await batteriesWorkbook(rows, request.language);
      return sendDownload(reply, { type: XLSX_TYPE, fileName: `batteries-${new Date().toISOString().slice(0, 10)}.xlsx`, bytes });
    },
  );

  app.post(
    '/api/v1/inverters/exportInvertersExcel/background',
    {
      config: {
        access: { kind: 'view', key: 'inverter.export', readsOnly: "prepares the export as a file in the caller's own download centre" },
      },
      schema: {
        tags: TAGS,
        summary:
          'The inverter list under the same filters as a background job in the download centre, with no row cap; answers the download record (issue 21)',
        querystring: DeviceListQuerySchema,
        response: { 200: envelopeSchema(DownloadRecordSchema) },
      },
    },
    async (request) => ok(request, await service.exportInBackground(request.requireAuth(), 'inverter', request.query, request.language)),
  );

  app.post(
    '/api/v1/batteriesDown/background',
    {
      config: { access: { kind: 'operate', key: 'battery.upgrade' } },
      schema: {
        tags: TAGS,
        summary: 'The battery list (batteriesDown) as a background job in the download centre, with no row cap (issue 21)',
        querystring: DeviceListQuerySchema,
        response: { 200: envelopeSchema(DownloadRecordSchema) },
      },
    },
    async (request) => ok(request, await service.exportInBackground(request.requireAuth(), 'battery', request.query, request.language)),
  );

  // ---------------------------------------------------------------------------------------------------
  // Meters: main-meter flag and settings
  // ---------------------------------------------------------------------------------------------------

  app.post(
    '/api/v1/meter/:id/main',
    {
      config: { access: { kind: 'manage', key: 'meter.edit' } },
      schema: {
        tags: TAGS,
        summary: "Sets or unsets the plant's main meter (one per plant; setting one unsets the other)",
        params: IdParams,
        body: z.object({ main: z.boolean() }),
      },
    },
    async (request) => {
      await service.setMainMeter(request.requireAuth(), request.params.id, request.body.main, request.language);
      return ok(request, null);
    },
  );

  app.get(
    '/api/v1/meter/:sn/settings',
    {
      config: { access: 'equip.view' },
      schema: {
        tags: TAGS,
        summary: 'CT and PT ratio, buy and sell offsets, period prices and discount',
        params: SnParams,
        response: { 200: envelopeSchema(MeterSettingsSchema) },
      },
    },
    async (request) => ok(request, await service.meterSettings(request.requireAuth(), request.params.sn)),
  );

  // Saved at meter/{id}/settings/save: meter/{id}/settings, the console's path before issue 25, is still answered
  // for existing callers but left out of the API document, where it would be the same path as GET meter/{sn}/settings.
  for (const [path, hide] of [
    ['/api/v1/meter/:id/settings/save', false],
    ['/api/v1/meter/:id/settings', true],
  ] as const)
    app.post(
      path,
      {
        config: { access: { kind: 'manage', key: 'meter.edit' } },
        schema: {
          hide,
          tags: TAGS,
          summary: 'Saves a meter’s settings (ranges checked; manage level needed)',
          params: IdParams,
          body: MeterSettingsSchema,
        },
      },
      async (request) => {
        await service.saveMeterSettings(request.requireAuth(), request.params.id, request.body);
        return ok(request, null);
      },
    );

  // ---------------------------------------------------------------------------------------------------
  // Operation data records
  // ---------------------------------------------------------------------------------------------------

  app.get(
    '/api/v1/workdata',
    {
      config: { access: 'workdata.view' },
      schema: {
        tags: TAGS,
        summary: 'A device’s stored readings in a time range (default the last 24 h), newest first, one column per point',
        querystring: WorkdataQuerySchema,
        response: { 200: envelopeSchema(WorkdataPageSchema) },
      },
    },
    async (request) => {
      const { sn, ...range } = request.query;
      return ok(request, await service.workdata(request.requireAuth(), sn, request.language, range));
    },
  );

  // A device's protocol switch (issue 19): platform administrators (spec 02 §6, the protocols' manage key).
  const SWITCH = { kind: 'manage', key: 'system.protocol.edit' } as const;
  app.get(
    '/api/v1/device/:sn/protocol/preview',
    {
      config: { access: SWITCH },
      schema: {
        tags: TAGS,
        summary:
          'What the device’s latest reading would read with another protocol, point by point (nothing changes): 602 device, 4 naming protocolId when unknown, disabled, the same or of another device type',
        params: SnParams,
        querystring: ProtocolSwitchQuerySchema,
        response: { 200: envelopeSchema(ProtocolSwitchPreviewSchema) },
      },
    },
    async (request) =>
      ok(
        request,
        await service.protocolSwitch.preview(request.requireAuth(), request.language, request.params.sn, request.query.protocolId),
      ),
  );

  app.post(
    '/api/v1/device/:sn/protocol',
    {
      config: { access: SWITCH },
      schema: {
        tags: TAGS,
        summary:
          'Moves the device to another protocol’s current version, with the password again (708); its next reports decode with it, past readings stay as stored',
        params: SnParams,
        body: ProtocolSwitchBodySchema,
        response: { 200: envelopeSchema(ProtocolSwitchResultSchema) },
      },
    },
    async (request) =>
      ok(
        request,
        await service.protocolSwitch.apply(
          request.requireAuth(),
          request.language,
          request.params.sn,
          request.body.protocolId,
          request.body.password,
        ),
      ),
  );
};
