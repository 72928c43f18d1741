import { Code } from '@sunward/contracts/codes';
import {
  BenefitsSchema,
  CompareSchema,
  DeviceCountSchema,
  EnergyBarsSchema,
  GenerationSchema,
  IncomeSummarySchema,
  PerformanceSchema,
  PlantEventCountSchema,
  PlantEventPageSchema,
  PlantInverterSchema,
  PlantRealtimeSchema,
  PowerDaySchema,
  UseSchema,
  WeatherSchema,
} from '@sunward/contracts/plant-energy';
import { EnergyFlowSchema, PlantDetailSchema } from '@sunward/contracts/plants';
import { z } from 'zod';
import { apiRequest } from '../../../lib/api-client';

export type BarPeriod = 'month' | 'year' | 'total';
export type SplitPeriod = 'day' | 'month' | 'year' | 'total';

/** Query keys: everything under ['plantOverview', id] is refetched when the plant's live data changes. */
export const overviewKeys = {
  plant: (id: number) => ['plantOverview', id] as const,
  detail: (id: number) => ['plantOverview', id, 'detail'] as const,
  realtime: (id: number) => ['plantOverview', id, 'realtime'] as const,
  flow: (id: number) => ['plantOverview', id, 'flow'] as const,
  powerDay: (id: number, date: string) => ['plantOverview', id, 'powerDay', date] as const,
  bars: (id: number, period: BarPeriod, param: string) => ['plantOverview', id, 'bars', period, param] as const,
  split: (id: number, kind: 'generation' | 'use', period: SplitPeriod, param: string) =>
    ['plantOverview', id, kind, period, param] as const,
  income: (id: number) => ['plantOverview', id, 'income'] as const,
  benefits: (id: number) => ['plantOverview', id, 'benefits'] as const,
  performance: (id: number, from: string, to: string) => ['plantOverview', id, 'performance', from, to] as const,
  events: (id: number, page: number) => ['plantOverview', id, 'events', page] as const,
  eventCount: (id: number) => ['plantOverview', id, 'eventCount'] as const,
  inverters: (id: number) => ['plantOverview', id, 'inverters'] as const,
  deviceCount: (id: number) => ['plantOverview', id, 'deviceCount'] as const,
  weather: (id: number) => ['plantOverview', id, 'weather'] as const,
};

const plant = (id: number, path: string) => `/api/v1/plant/${id}/${path}`;

/** A plant that does not exist or is not the caller's (700) is shown by the page itself, without a toast. */
export const fetchPlantDetail = (id: number) =>
  apiRequest(`/api/v1/plant/${id}`, { schema: PlantDetailSchema, tolerate: [Code.PLANT_NOT_FOUND] });
export const fetchRealtime = (id: number) => apiRequest(plant(id, 'realtime'), { schema: PlantRealtimeSchema });
export const fetchFlow = (id: number) => apiRequest(plant(id, 'energy/flow'), { schema: EnergyFlowSchema });
export const fetchPowerDay = (id: number, date: string) => apiRequest(plant(id, 'power/day'), { query: { date }, schema: PowerDaySchema });

/** The query parameter of a period: month YYYY-MM, year YYYY, total nothing. */
function periodQuery(period: SplitPeriod | BarPeriod, param: string): Record<string, string> {
  if (period === 'day') return { date: param };
  if (period === 'month') return { month: param };
  if (period === 'year') return { year: param };
  return {};
}

export const fetchBars = (id: number, period: BarPeriod, param: string) =>
  apiRequest(plant(id, `power/${period}`), { query: periodQuery(period, param), schema: EnergyBarsSchema });
export const fetchGeneration = (id: number, period: SplitPeriod, param: string) =>
  apiRequest(plant(id, `generation/${period}`), { query: periodQuery(period, param), schema: GenerationSchema });
export const fetchUse = (id: number, period: SplitPeriod, param: string) =>
  apiRequest(plant(id, `use/${period}`), { query: periodQuery(period, param), schema: UseSchema });
export const fetchIncome = (id: number) => apiRequest(plant(id, 'income/summary'), { schema: IncomeSummarySchema });
export const fetchBenefits = (id: number) => apiRequest(plant(id, 'benefits'), { schema: BenefitsSchema });
export const fetchPerformance = (id: number, from: string, to: string) =>
  apiRequest(plant(id, 'performance'), { query: { from, to }, schema: PerformanceSchema });
export const fetchEvents = (id: number, page: number, size: number) =>
  apiRequest(plant(id, 'events'), { query: { page, size }, schema: PlantEventPageSchema });
export const fetchEventCount = (id: number) => apiRequest(plant(id, 'eventCount'), { schema: PlantEventCountSchema });
export const fetchInverters = (id: number) => apiRequest(plant(id, 'inverters'), { schema: z.array(PlantInverterSchema) });
export const fetchDeviceCount = (id: number) => apiRequest(plant(id, 'deviceCount'), { schema: DeviceCountSchema });
export const fetchWeather = (id: number) => apiRequest('/api/v1/weather', { query: { plantId: id }, schema: WeatherSchema });

export const fetchCompare = (ids: readonly number[], from: string, to: string) =>
  apiRequest('/api/v1/plants/compare', { query: { ids: ids.join(','), from, to }, schema: CompareSchema });
