import { Code } from '@sunward/contracts/codes';
import { envelopeSchema } from '@sunward/contracts/envelope';
import { IdParamSchema } from '@sunward/contracts/ids';
import type { Language } from '@sunward/contracts/languages';
import {
  BenefitsSchema,
  CompareQuerySchema,
  CompareSchema,
  DayQuerySchema,
  DeviceCountSchema,
  EnergyBarsSchema,
  EventsQuerySchema,
  GenerationSchema,
  IncomeSummarySchema,
  InverterCountSchema,
  MonthQuerySchema,
  PerformanceSchema,
  PlantEventCountSchema,
  PlantEventPageSchema,
  PlantInverterSchema,
  PlantRealtimeSchema,
  PowerDaySchema,
  RangeQuerySchema,
  UseSchema,
  YearQuerySchema,
} from '@sunward/contracts/plant-energy';
import { EnergyFlowSchema } from '@sunward/contracts/plants';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../../config.js';
import type { Database } from '../../db/client.js';
import { ApiError, ok } from '../../lib/envelope.js';
import { weatherRoutes } from '../weather/weather.routes.js';
import { type WeatherProvider, weatherProviderFor } from '../weather/weather-provider.js';
import type { PlantAccess } from './plant-access.js';
import { createPlantEnergyRepository } from './plant-energy.repository.js';
import { createPlantEnergyService } from './plant-energy.service.js';

const TAGS = ['Plant overview'];
const IdParams = z.object({ id: IdParamSchema });

const PERIOD_QUERIES = { day: DayQuerySchema, month: MonthQuerySchema, year: YearQuerySchema, total: z.object({}) } as const;

/** The query parameter of a period as the service takes it (a day, a month, a year, or nothing). */
function periodParam(query: { date?: string; month?: string; year?: number }): string | undefined {
  return query.date ?? query.month ?? (query.year === undefined ? undefined : String(query.year));
}

export interface PlantEnergyRoutesOptions {
  db: Database;
  plantAccess: PlantAccess;
  config: Pick<Config, 'benefitFactors' | 'weatherProvider'>;
  /** Tests pass their own provider; otherwise the WEATHER_PROVIDER setting decides. */
  weatherProvider?: WeatherProvider;
}

/**
 * The plant overview (spec 01 §7): realtime figures, power curves and energy bars, energy flow,
 * generation and use, income, benefits, performance, events, devices, weather and the comparison.
 * Every call answers only for plants the caller may view (700 otherwise, like a missing plant).
 */
export const plantEnergyRoutes: FastifyPluginAsyncZod<PlantEnergyRoutesOptions> = async (app, options) => {
  const { plantAccess } = options;
  const service = createPlantEnergyService({
    repository: createPlantEnergyRepository(options.db),
    benefitFactors: options.config.benefitFactors,
  });

  /** GET /api/v1/plant/{id}/<path>: checks the caller may view the plant, then answers. */
  function plantGet<Q extends z.ZodType, R extends z.ZodType>(
    path: string,
    summary: string,
    querystring: Q,
    data: R,
    handler: (id: number, query: z.infer<Q>, language: Language) => Promise<z.infer<R>>,
  ) {
    app.get(
      `/api/v1/plant/:id/${path}`,
      {
        config: { access: 'station.view' },
        // The generic helper keeps its handlers typed by R; Fastify only needs the schema to serialize.
        schema: {
          tags: TAGS,
          summary,
          'x-codes': [Code.PLANT_NOT_FOUND],
          params: IdParams,
          querystring,
          response: { 200: envelopeSchema(data) as z.ZodType },
        },
      },
      async (request) => {
        const id = (request.params as z.infer<typeof IdParams>).id;
        await plantAccess.require(request.requireAuth(), id, 'view');
        return ok(request, await handler(id, request.query as z.infer<Q>, request.language));
      },
    );
  }

  const none = z.object({});

  plantGet('realtime', 'Power now, energy today, this month, this year and in total, specific yield', none, PlantRealtimeSchema, (id) =>
    service.realtime(id),
  );
  plantGet(
    'power/day',
    'Power curve of a plant-local day (5-minute points) and its predicted energy',
    DayQuerySchema,
    PowerDaySchema,
    (id, q) => service.powerDay(id, q.date),
  );
  plantGet('power/month', 'Energy per day of a month, with predictions', MonthQuerySchema, EnergyBarsSchema, (id, q) =>
    service.powerMonth(id, q.month),
  );
  plantGet('power/year', 'Energy per month of a year, with predictions', YearQuerySchema, EnergyBarsSchema, (id, q) =>
    service.powerYear(id, q.year),
  );
  plantGet('power/total', 'Energy per year since the first measured day', none, EnergyBarsSchema, (id) => service.powerTotal(id));
  plantGet('energy/flow', 'Energy flow now: PV, grid (+import), battery (+discharge) and SOC, load', none, EnergyFlowSchema, (id) =>
    service.flow(id),
  );
  for (const period of ['day', 'month', 'year', 'total'] as const) {
    plantGet(
      `generation/${period}`,
      `Generation of a ${period === 'total' ? 'plant’s lifetime (per year)' : period} split into self-use and export`,
      PERIOD_QUERIES[period],
      GenerationSchema,
      (id, q) => service.generation(id, period, periodParam(q)),
    );
    plantGet(
      `use/${period}`,
      `Consumption of a ${period === 'total' ? 'plant’s lifetime (per year)' : period} split into PV, battery and grid`,
      PERIOD_QUERIES[period],
      UseSchema,
      (id, q) => service.use(id, period, periodParam(q)),
    );
  }
  plantGet(
    'income/summary',
    'Income today, this month, this year and in total under the tariff; ROI and payback',
    none,
    IncomeSummarySchema,
    (id) => service.income(id),
  );
  plantGet(
    'benefits',
    'Environmental benefits of the lifetime generation (factors from the BENEFIT_* settings)',
    none,
    BenefitsSchema,
    (id) => service.benefits(id),
  );
  plantGet(
    'performance',
    'Specific yield, performance ratio, self-consumption and self-sufficiency over plant-local days, with their inputs',
    RangeQuerySchema,
    PerformanceSchema,
    (id, q) => service.performance(id, q.from, q.to),
  );
  plantGet(
    'events',
    'Device events of the plant, newest first, with their description',
    EventsQuerySchema,
    PlantEventPageSchema,
    (id, q, language) => service.events(id, q.page, q.size, language),
  );
  plantGet('eventCount', 'Events of the plant: all, open, and open by level', none, PlantEventCountSchema, (id) => service.eventCount(id));
  plantGet('inverters', 'Generating devices with status, power and today’s energy', none, z.array(PlantInverterSchema), (id) =>
    service.inverters(id),
  );
  plantGet('inverterCount', 'Generating devices by status', none, InverterCountSchema, (id) => service.inverterCount(id));
  plantGet('deviceCount', 'Devices by family and by status', none, DeviceCountSchema, (id) => service.deviceCount(id));

  app.get(
    '/api/v1/plants/compare',
    {
      config: { access: 'station.view' },
      schema: {
        tags: TAGS,
        summary: 'Daily energy and specific yield of up to six plants over the same days (code 4 beyond six)',
        'x-codes': [Code.PLANT_NOT_FOUND],
        querystring: CompareQuerySchema,
        response: { 200: envelopeSchema(CompareSchema) },
      },
    },
    async (request) => {
      const { ids, from, to } = request.query;
      const levels = await plantAccess.levels(request.requireAuth(), ids);
      if (ids.some((id) => !levels.has(id))) throw new ApiError(Code.PLANT_NOT_FOUND);
      return ok(request, await service.compare(ids, from, to));
    },
  );

  await app.register(weatherRoutes, {
    db: options.db,
    plantAccess,
    provider: options.weatherProvider ?? weatherProviderFor(options.config.weatherProvider),
  });
};
