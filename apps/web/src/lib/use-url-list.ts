import type { TablePaginationConfig } from 'antd';
import type { SorterResult } from 'antd/es/table/interface';
import { useSearchParams } from 'react-router';

/**
 * A list's filters, page and sort kept in the address, so a filtered list can be reloaded, bookmarked
 * and shared. Changing a filter returns to the first page; `onTableChange` maps antd's table events.
 */
export function useUrlList<S extends string>(sorts: readonly S[], defaultSort: S) {
  const [search, setSearch] = useSearchParams();
  const update = (changes: Record<string, string | undefined>) => {
    const next = new URLSearchParams(search);
    for (const [k, v] of Object.entries(changes)) {
      if (v === undefined || v === '') next.delete(k);
      else next.set(k, v);
    }
    if (!('page' in changes)) next.delete('page');
    setSearch(next, { replace: true });
  };
  const page = Number(search.get('page') ?? '1') || 1;
  const asked = search.get('sort');
  const sort: S = sorts.find((s) => s === asked) ?? defaultSort;
  const order: 'asc' | 'desc' = search.get('order') === 'desc' ? 'desc' : 'asc';
  return {
    search,
    update,
    page,
    sort,
    order,
    /** antd's sortOrder for a column. */
    sortOrder: (key: string) => (sort === key ? (order === 'desc' ? 'descend' : 'ascend') : null),
    onTableChange: <T>(pagination: TablePaginationConfig, _filters: unknown, sorter: SorterResult<T> | SorterResult<T>[]) => {
      const s = Array.isArray(sorter) ? sorter[0] : sorter;
      const key = s?.order ? String(s.columnKey) : undefined;
      update({ page: String(pagination.current ?? 1), sort: key, order: s?.order === 'descend' ? 'desc' : undefined });
    },
  };
}
