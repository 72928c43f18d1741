import { Card, Input, Select, Space, type TablePaginationConfig } from 'antd';
import type { ReactNode } from 'react';
import { usePageSize } from '../lib/personalized';
import { useUrlList } from '../lib/use-url-list';

/** antd's paging of a table: this page of `total` rows, a fixed page size, the total said in words. */
export function pager(
  current: number,
  pageSize: number,
  total: number | undefined,
  onChange?: (page: number) => void,
  showTotal?: (total: number) => ReactNode,
): TablePaginationConfig {
  return { current, pageSize, total: total ?? 0, showSizeChanger: false, showTotal, onChange };
}

/**
 * The address-kept state of a list page: its filters, page and sort live in the URL (reload, bookmark,
 * share), its rows per page come from the user's personal settings. `pagination` gives antd's table
 * its paging; `text`/`number` read a filter; `update` sets filters (and returns to the first page).
 */
export function useListState<S extends string = string>(sorts: readonly S[] = [], defaultSort = '' as S) {
  const url = useUrlList(sorts, defaultSort);
  const size = usePageSize();
  const text = (name: string) => url.search.get(name) || undefined;
  return {
    ...url,
    size,
    text,
    number: (name: string) => {
      const value = Number(text(name));
      return text(name) !== undefined && Number.isFinite(value) ? value : undefined;
    },
    /**
     * antd's paging for the table. With `viaTableChange` the table's `onChange={onTableChange}` moves
     * pages (sortable tables), otherwise the pager does.
     */
    pagination: (total: number | undefined, showTotal?: (total: number) => ReactNode, viaTableChange = false): TablePaginationConfig =>
      pager(url.page, size, total, viaTableChange ? undefined : (page) => url.update({ page: String(page) }), showTotal),
  };
}

/** A keyword box bound to one filter of the address (`?keyword=`): searching sets it and goes to page 1. */
export function ListSearch({
  list,
  name = 'keyword',
  placeholder,
  width = 240,
  testId,
}: {
  list: Pick<ReturnType<typeof useListState>, 'text' | 'update'>;
  name?: string;
  placeholder: string;
  width?: number;
  testId?: string;
}) {
  return (
    <Input.Search
      allowClear
      aria-label={placeholder}
      placeholder={placeholder}
      defaultValue={list.text(name)}
      onSearch={(value) => list.update({ [name]: value.trim() || undefined })}
      style={{ width }}
      data-testid={testId}
    />
  );
}

/**
 * A list page: one card with the page's title (its h1) and the tools (filters, add button) on one line
 * that wraps, then the table and anything else (dialogs) below. Use with `useListState`.
 */
export function ListPage({ title, tools, testId, children }: { title: ReactNode; tools?: ReactNode; testId: string; children: ReactNode }) {
  return (
    <Card className="sw-page-card" data-testid={testId}>
      <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 16 }} wrap>
        {title}
        {tools && <Space wrap>{tools}</Space>}
      </Space>
      {children}
    </Card>
  );
}

/**
 * A filter of a list as a select: its label is both the placeholder and the accessible name, it can be
 * cleared, and it has a fixed width so the filter line does not jump.
 */
export function FilterSelect<T extends string | number>({
  label,
  value,
  onChange,
  options,
  width,
  testId,
}: {
  label: string;
  value: T | undefined;
  onChange(value: T | undefined): void;
  options: { value: T; label: ReactNode }[];
  width: number;
  testId?: string;
}) {
  return (
    <Select<T>
      aria-label={label}
      allowClear
      placeholder={label}
      style={{ width }}
      value={value}
      onChange={(next?: T) => onChange(next)}
      options={options}
      data-testid={testId}
    />
  );
}
