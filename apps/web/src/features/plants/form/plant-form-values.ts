import type { Language } from '@sunward/contracts/languages';
import { isMessageKey, type MessageKey, translate } from '@sunward/contracts/messages';
import {
  type GatewayBinding,
  type MeteringTopology,
  type PlantDetail,
  type PlantFields,
  PlantFieldsSchema,
  type PricingMethodValue,
  type Tariff,
  TariffSchema,
} from '@sunward/contracts/plants';
import type { z } from 'zod';
import { initialTouRows, type TouRow } from './tou';

/**
 * What the plant forms hold, and the way to and from the contracts' shapes. The forms keep strings
 * and nullable numbers as the inputs give them; the request is built here and checked with the same
 * zod schemas the server applies, so a refusal can only come from what the server alone knows.
 */
export interface PlantFieldValues {
  name?: string;
  alias?: string;
  capacityKwp?: number | null;
  plantType?: number;
  /** YYYY-MM-DD. */
  gridDate?: string | null;
  address?: string;
  latitude?: number | null;
  longitude?: number | null;
  region?: string;
  timezone?: string;
  picture?: string | null;
  contactName?: string;
  contactPhone?: string;
  installer?: string;
  ownerName?: string;
  meteringTopology?: MeteringTopology;
}

export interface TariffValues {
  currency?: string;
  pricingMethod?: PricingMethodValue;
  price?: number | null;
  segments?: TouRow[];
  feedInPrice?: number | null;
  selfUsePrice?: number | null;
  totalInvestment?: number | null;
}

export interface GatewayRowValues {
  sn?: string;
  key?: string;
}

export interface WizardValues extends PlantFieldValues {
  gateways?: GatewayRowValues[];
  tariff?: TariffValues;
}

export interface FieldIssue {
  field: string;
  message: string;
}

export type Checked<T> = { ok: true; value: T } | { ok: false; issues: FieldIssue[] };

const text = (value: string | null | undefined) => (value === undefined || value === null || value === '' ? undefined : value);
const number = (value: number | null | undefined) => (value === undefined || value === null ? undefined : value);

export function defaultTariffValues(currency = 'EUR'): TariffValues {
  return { currency, pricingMethod: 'constant', segments: initialTouRows() };
}

export function defaultPlantFieldValues(timezone?: string): PlantFieldValues {
  return { plantType: 1, meteringTopology: 'gross', ...(timezone ? { timezone } : {}) };
}

/** zod issues as field problems, worded from the shared message catalogue in the user's language. */
export function issuesOf(error: z.ZodError, language: Language, prefix = ''): FieldIssue[] {
  return error.issues.map((issue) => {
    const key: MessageKey = isMessageKey(issue.message)
      ? issue.message
      : issue.code === 'invalid_type' && issue.input === undefined
        ? 'validation.required'
        : 'validation.invalidValue';
    return { field: prefix + issue.path.map(String).join('.'), message: translate(language, key) };
  });
}

export function toPlantFields(values: PlantFieldValues, language: Language): Checked<PlantFields> {
  const input = {
    name: values.name ?? '',
    alias: text(values.alias),
    capacityKwp: number(values.capacityKwp),
    plantType: values.plantType,
    gridDate: text(values.gridDate),
    latitude: number(values.latitude),
    longitude: number(values.longitude),
    address: text(values.address),
    region: text(values.region),
    timezone: values.timezone ?? '',
    picture: text(values.picture),
    contactName: text(values.contactName),
    contactPhone: text(values.contactPhone),
    installer: text(values.installer),
    ownerName: text(values.ownerName),
    meteringTopology: values.meteringTopology ?? 'gross',
  };
  const parsed = PlantFieldsSchema.safeParse(input);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, issues: issuesOf(parsed.error, language) };
}

/** The tariff carries only the prices of its pricing method. */
export function toTariff(values: TariffValues, language: Language, prefix = 'tariff.'): Checked<Tariff> {
  const method = values.pricingMethod ?? 'constant';
  const input = {
    currency: values.currency,
    pricingMethod: method,
    ...(method === 'constant' ? { price: number(values.price) } : {}),
    ...(method === 'tou'
      ? { segments: (values.segments ?? []).map((s) => ({ start: s.start, end: s.end, price: s.price ?? Number.NaN })) }
      : {}),
    ...(method === 'generation' ? { feedInPrice: number(values.feedInPrice), selfUsePrice: number(values.selfUsePrice) } : {}),
    totalInvestment: number(values.totalInvestment),
  };
  const parsed = TariffSchema.safeParse(input);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, issues: issuesOf(parsed.error, language, prefix) };
}

export function toGatewayBindings(rows: readonly GatewayRowValues[] | undefined): GatewayBinding[] {
  return (rows ?? []).filter((r) => text(r.sn) && text(r.key)).map((r) => ({ sn: r.sn ?? '', key: r.key ?? '' }));
}

export function plantFieldValuesOf(plant: PlantDetail): PlantFieldValues {
  return {
    name: plant.name,
    alias: plant.alias ?? undefined,
    capacityKwp: plant.capacityKwp,
    plantType: plant.plantType,
    gridDate: plant.gridDate,
    address: plant.address ?? undefined,
    latitude: plant.latitude,
    longitude: plant.longitude,
    region: plant.region ?? undefined,
    timezone: plant.timezone,
    picture: plant.picture,
    contactName: plant.contactName ?? undefined,
    contactPhone: plant.contactPhone ?? undefined,
    installer: plant.installer ?? undefined,
    ownerName: plant.ownerName ?? undefined,
    meteringTopology: plant.meteringTopology,
  };
}

export function tariffValuesOf(tariff: Tariff | null): TariffValues {
  if (!tariff) return defaultTariffValues();
  return {
    currency: tariff.currency,
    pricingMethod: tariff.pricingMethod,
    price: tariff.price ?? null,
    segments: tariff.segments?.length ? tariff.segments.map((s) => ({ ...s })) : initialTouRows(),
    feedInPrice: tariff.feedInPrice ?? null,
    selfUsePrice: tariff.selfUsePrice ?? null,
    totalInvestment: tariff.totalInvestment ?? null,
  };
}

export type NamePath = (string | number)[];

/**
 * Where a problem the server (or the schema) names is shown: "tariff.segments.2" → the end time of
 * the third period, "gateways.0" → the first gateway's serial number. Numbers become list indexes.
 */
export function fieldNamePath(field: string): NamePath {
  const path: NamePath = field.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part));
  if (path[0] === 'gateways' && path.length === 2) return [...path, 'sn'];
  if (path[0] === 'tariff' && path[1] === 'segments' && path.length === 3) return [...path, 'end'];
  if (path[0] === 'tariff' && path.length === 1) return ['tariff', 'pricingMethod'];
  return path;
}

/** The wizard step holding a field: gateways first, the tariff second, the rest on the third. */
export function wizardStepOf(field: string): 0 | 1 | 2 {
  if (field === 'gateways' || field.startsWith('gateways.')) return 0;
  if (field === 'tariff' || field.startsWith('tariff.')) return 1;
  return 2;
}
