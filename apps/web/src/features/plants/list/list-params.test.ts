import { describe, expect, it } from 'vitest';
import {
  advancedFilterCount,
  compareLink,
  DEFAULT_LIST_PARAMS,
  filterQuery,
  listQuery,
  parseListParams,
  resetFilters,
  serializeListParams,
  withFilters,
} from './list-params';

describe('plant list URL parameters', () => {
  it('reads nothing into the defaults', () => {
    expect(parseListParams('')).toEqual(DEFAULT_LIST_PARAMS);
    expect(serializeListParams(DEFAULT_LIST_PARAMS)).toBe('');
  });

  it('round-trips every filter, the page, sorting and the map view', () => {
    const params = {
      ...DEFAULT_LIST_PARAMS,
      keyword: 'Solar farm',
      status: [3, 4],
      plantType: [1, 2],
      capacityMin: 10,
      capacityMax: 99.5,
      region: 'Bavaria',
      gridDateFrom: '2024-01-01',
      gridDateTo: '2024-12-31',
      page: 3,
      size: 50,
      sort: 'powerW' as const,
      order: 'desc' as const,
      view: 'map' as const,
    };
    const search = serializeListParams(params);
    expect(search).toContain('status=3%2C4');
    expect(parseListParams(search)).toEqual(params);
  });

  it('drops values a hand-edited link got wrong instead of failing', () => {
    const parsed = parseListParams(
      '?status=4,9,x&plantType=7&capacityMin=-3&page=0&size=33&sort=drop&order=up&gridDateFrom=2024-13-45&view=globe',
    );
    expect(parsed.status).toEqual([4]);
    expect(parsed.plantType).toEqual([]);
    expect(parsed.capacityMin).toBeUndefined();
    expect(parsed.page).toBe(1);
    expect(parsed.size).toBe(20);
    expect(parsed.sort).toBeUndefined();
    expect(parsed.order).toBeUndefined();
    expect(parsed.gridDateFrom).toBeUndefined();
    expect(parsed.view).toBe('table');
  });

  it('takes the user’s rows per page when the address names none, and leaves that default out of links', () => {
    expect(parseListParams('', 50).size).toBe(50);
    expect(parseListParams('?size=10', 50).size).toBe(10);
    expect(serializeListParams({ ...DEFAULT_LIST_PARAMS, size: 50 }, 50)).toBe('');
    expect(serializeListParams({ ...DEFAULT_LIST_PARAMS, size: 20 }, 50)).toBe('?size=20');
  });

  it('sorts and de-duplicates status lists so equal filters give equal links', () => {
    expect(parseListParams('?status=4,1,4').status).toEqual([1, 4]);
  });

  it('goes back to the first page when a filter changes', () => {
    const onPage3 = { ...DEFAULT_LIST_PARAMS, page: 3 };
    expect(withFilters(onPage3, { status: [4] })).toMatchObject({ page: 1, status: [4] });
  });

  it('resets filters but keeps the view, page size and sorting', () => {
    const params = {
      ...DEFAULT_LIST_PARAMS,
      keyword: 'x',
      status: [2],
      view: 'map' as const,
      size: 50,
      sort: 'name' as const,
      order: 'asc' as const,
    };
    expect(resetFilters(params)).toEqual({ ...DEFAULT_LIST_PARAMS, view: 'map', size: 50, sort: 'name', order: 'asc' });
  });

  it('counts the advanced filters in use', () => {
    expect(advancedFilterCount(DEFAULT_LIST_PARAMS)).toBe(0);
    expect(advancedFilterCount({ ...DEFAULT_LIST_PARAMS, keyword: 'x', status: [1], capacityMax: 5, gridDateTo: '2024-01-01' })).toBe(3);
  });

  it('builds the API query, swapping a reversed capacity range', () => {
    const params = { ...DEFAULT_LIST_PARAMS, keyword: '  Farm ', status: [1, 3], capacityMin: 100, capacityMax: 10 };
    expect(filterQuery(params)).toEqual({
      keyword: 'Farm',
      status: '1,3',
      plantType: undefined,
      capacityMin: 10,
      capacityMax: 100,
      region: undefined,
      gridDateFrom: undefined,
      gridDateTo: undefined,
    });
    expect(listQuery({ ...params, sort: 'name', order: 'asc' })).toMatchObject({ page: 1, size: 20, sort: 'name', order: 'asc' });
    expect(listQuery({ ...params, sort: 'name', order: undefined })).toMatchObject({ sort: undefined, order: undefined });
  });

  it('links Compare only for 2 to 6 plants', () => {
    expect(compareLink([1])).toBeUndefined();
    expect(compareLink([5, 2, 9])).toBe('/plants/compare?ids=5,2,9');
    expect(compareLink([1, 2, 3, 4, 5, 6, 7])).toBeUndefined();
  });
});
