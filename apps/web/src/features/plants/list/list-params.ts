import { PLANT_LIMITS, PLANT_SORT_FIELDS, PLANT_TYPES, type PlantSortField } from '@sunward/contracts/plants';

/**
 * The plant list's view as URL search parameters (spec: "URL search params hold filters so the view
 * is shareable and survives reload"). The names are the list call's own, so a shared link reads the
 * same as the request it makes. Parsing is forgiving: a hand-edited bad value is dropped, never fatal.
 */
export type PlantListView = 'table' | 'map';
export type SortOrder = 'asc' | 'desc';

export interface PlantListParams {
  keyword: string;
  status: number[];
  plantType: number[];
  capacityMin: number | undefined;
  capacityMax: number | undefined;
  region: string | undefined;
  gridDateFrom: string | undefined;
  gridDateTo: string | undefined;
  page: number;
  size: number;
  sort: PlantSortField | undefined;
  order: SortOrder | undefined;
  view: PlantListView;
}

/** Statuses a filter can name (spec 01 §4: 1 normal … 6 protect). */
const STATUS_VALUES = [1, 2, 3, 4, 5, 6];
export const PAGE_SIZES = [10, 20, 50, 100] as const;

export const DEFAULT_LIST_PARAMS: PlantListParams = {
  keyword: '',
  status: [],
  plantType: [],
  capacityMin: undefined,
  capacityMax: undefined,
  region: undefined,
  gridDateFrom: undefined,
  gridDateTo: undefined,
  page: 1,
  size: 20,
  sort: undefined,
  order: undefined,
  view: 'table',
};

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

function numberList(raw: string | null, allowed: readonly number[]): number[] {
  if (!raw) return [];
  const values = raw.split(',').map(Number);
  return [...new Set(values.filter((v) => allowed.includes(v)))].sort((a, b) => a - b);
}

function nonNegative(raw: string | null): number | undefined {
  if (raw === null || raw.trim() === '') return undefined;
  const value = Number(raw);
  return Number.isFinite(value) && value >= 0 ? value : undefined;
}

function positiveInt(raw: string | null, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
  const value = Number(raw);
  return Number.isInteger(value) && value >= 1 && value <= max ? value : fallback;
}

function isoDate(raw: string | null): string | undefined {
  return raw && ISO_DATE.test(raw) && !Number.isNaN(Date.parse(raw)) ? raw : undefined;
}

function text(raw: string | null, max = 64): string | undefined {
  const value = raw?.trim();
  return value ? value.slice(0, max) : undefined;
}

/** `defaultSize`: rows per page when the address names none (the user's personalized setting). */
export function parseListParams(search: string, defaultSize: number = DEFAULT_LIST_PARAMS.size): PlantListParams {
  const q = new URLSearchParams(search);
  const sort = q.get('sort');
  const order = q.get('order');
  return {
    keyword: text(q.get('keyword')) ?? '',
    status: numberList(q.get('status'), STATUS_VALUES),
    plantType: numberList(q.get('plantType'), PLANT_TYPES),
    capacityMin: nonNegative(q.get('capacityMin')),
    capacityMax: nonNegative(q.get('capacityMax')),
    region: text(q.get('region')),
    gridDateFrom: isoDate(q.get('gridDateFrom')),
    gridDateTo: isoDate(q.get('gridDateTo')),
    page: positiveInt(q.get('page'), 1),
    size: (PAGE_SIZES as readonly number[]).includes(Number(q.get('size'))) ? Number(q.get('size')) : defaultSize,
    sort: (PLANT_SORT_FIELDS as readonly string[]).includes(sort ?? '') ? (sort as PlantSortField) : undefined,
    order: order === 'asc' || order === 'desc' ? order : undefined,
    view: q.get('view') === 'map' ? 'map' : 'table',
  };
}

/** The search string for the address bar: defaults left out, a fixed key order so equal views give equal strings. */
export function serializeListParams(params: PlantListParams, defaultSize: number = DEFAULT_LIST_PARAMS.size): string {
  const q = new URLSearchParams();
  const put = (key: string, value: string | number | undefined) => {
    if (value !== undefined && value !== '') q.set(key, String(value));
  };
  put('keyword', params.keyword.trim());
  put('status', params.status.join(','));
  put('plantType', params.plantType.join(','));
  put('capacityMin', params.capacityMin);
  put('capacityMax', params.capacityMax);
  put('region', params.region);
  put('gridDateFrom', params.gridDateFrom);
  put('gridDateTo', params.gridDateTo);
  if (params.view !== 'table') put('view', params.view);
  if (params.page !== 1) put('page', params.page);
  if (params.size !== defaultSize) put('size', params.size);
  if (params.sort && params.order) {
    put('sort', params.sort);
    put('order', params.order);
  }
  const out = q.toString();
  return out ? `?${out}` : '';
}

export type FilterPatch = Partial<
  Pick<PlantListParams, 'keyword' | 'status' | 'plantType' | 'capacityMin' | 'capacityMax' | 'region' | 'gridDateFrom' | 'gridDateTo'>
>;

/** A changed filter shows its first page again. */
export function withFilters(params: PlantListParams, patch: FilterPatch): PlantListParams {
  return { ...params, ...patch, page: 1 };
}

/** Clears search and filters, keeping the view, page size and sorting the user chose. */
export function resetFilters(params: PlantListParams): PlantListParams {
  return { ...DEFAULT_LIST_PARAMS, view: params.view, size: params.size, sort: params.sort, order: params.order };
}

/** How many advanced-search fields are set (the keyword has its own box). */
export function advancedFilterCount(params: PlantListParams): number {
  return [
    params.status.length > 0,
    params.plantType.length > 0,
    params.capacityMin !== undefined || params.capacityMax !== undefined,
    params.region !== undefined,
    params.gridDateFrom !== undefined || params.gridDateTo !== undefined,
  ].filter(Boolean).length;
}

export type ApiQuery = Record<string, string | number | undefined>;

/** The filters as the list, map and count calls take them. */
export function filterQuery(params: PlantListParams): ApiQuery {
  const min = params.capacityMin;
  const max = params.capacityMax;
  // A reversed range is read the way the user meant it rather than matching nothing.
  const [capacityMin, capacityMax] = min !== undefined && max !== undefined && min > max ? [max, min] : [min, max];
  return {
    keyword: params.keyword.trim() || undefined,
    status: params.status.length ? params.status.join(',') : undefined,
    plantType: params.plantType.length ? params.plantType.join(',') : undefined,
    capacityMin,
    capacityMax,
    region: params.region,
    gridDateFrom: params.gridDateFrom,
    gridDateTo: params.gridDateTo,
  };
}

/** The list call's query: filters, page and sorting. */
export function listQuery(params: PlantListParams): ApiQuery {
  return {
    ...filterQuery(params),
    page: params.page,
    size: Math.min(params.size, PLANT_LIMITS.pageSizeMax),
    sort: params.sort && params.order ? params.sort : undefined,
    order: params.sort && params.order ? params.order : undefined,
  };
}

/** Where the Compare button leads: 2 to 6 plants, in the order they were picked. */
export function compareLink(ids: readonly number[]): string | undefined {
  return ids.length >= 2 && ids.length <= PLANT_LIMITS.compareMax ? `/plants/compare?ids=${ids.join(',')}` : undefined;
}
