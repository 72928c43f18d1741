import './lite-table.css';
import { ConfigProvider } from 'antd';
import { type ReactNode, useContext } from 'react';

/**
 * A table for the views every user opens first (plant list, plant overview), drawn like antd's Table but without its
 * code: antd's Table brings its filter tree, menus, radio and checkbox, pagination and the select of the page size
 * (about 60 KB of JavaScript gzip, issue 18's first-load budget). Sorting and paging are the page's (server-side);
 * the sort buttons say their order (aria-sort), the pager is a labelled navigation, the box scrolls by keyboard.
 * Other pages keep antd's Table.
 */
export interface LiteColumn<T> {
  key: string;
  title?: ReactNode;
  width?: number;
  align?: 'left' | 'right';
  /** The column sorts (the page sorts its rows by `key`). */
  sortable?: boolean;
  /** Stays in view at the right edge while the table scrolls sideways. */
  fixedRight?: boolean;
  render(row: T): ReactNode;
}

export type LiteSortOrder = 'asc' | 'desc';

export interface LitePagination {
  page: number;
  size: number;
  total: number;
  /** Offers these page sizes (a page size change starts again at page 1); without, the size is fixed. */
  sizes?: readonly number[];
  showTotal?(total: number): ReactNode;
  onChange(page: number, size: number): void;
}

interface Props<T> {
  rows: readonly T[];
  rowKey(row: T): string | number;
  columns: LiteColumn<T>[];
  size?: 'middle' | 'small';
  showHeader?: boolean;
  loading?: boolean;
  empty: ReactNode;
  /** Sideways scrolling below this width. */
  minWidth?: number;
  sort?: {
    key: string | undefined;
    order: LiteSortOrder | undefined;
    onSort(key: string | undefined, order: LiteSortOrder | undefined): void;
  };
  selection?: { isSelected(row: T): boolean; isDisabled(row: T): boolean; label(row: T): string; onToggle(row: T, checked: boolean): void };
  pagination?: LitePagination | false;
  testId?: string;
}

const ARIA_SORT = { asc: 'ascending', desc: 'descending' } as const;

/** antd's order of a sorter's clicks: ascending, descending, none. */
function nextOrder(order: LiteSortOrder | undefined): LiteSortOrder | undefined {
  return order === undefined ? 'asc' : order === 'asc' ? 'desc' : undefined;
}

export function LiteTable<T>(props: Props<T>) {
  const {
    rows,
    rowKey,
    columns,
    size = 'middle',
    showHeader = true,
    loading,
    empty,
    minWidth,
    sort,
    selection,
    pagination,
    testId,
  } = props;
  const span = columns.length + (selection ? 1 : 0);
  const cellClass = (column: LiteColumn<T>) =>
    [column.align === 'right' ? 'sw-lt-right' : '', column.fixedRight ? 'sw-lt-fixed' : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`sw-lt sw-lt-${size}`} data-testid={testId}>
      <div className="sw-lt-box" aria-busy={loading || undefined}>
        {/* The scrolling box takes focus when it scrolls sideways, so a keyboard can scroll it (WCAG 2.1.1). */}
        <div className="sw-lt-scroll" tabIndex={minWidth ? 0 : undefined}>
          <table style={minWidth ? { minWidth } : undefined}>
            <colgroup>
              {selection && <col style={{ width: 40 }} />}
              {columns.map((column) => (
                <col key={column.key} style={column.width ? { width: column.width } : undefined} />
              ))}
            </colgroup>
            {showHeader && (
              <thead>
                <tr>
                  {selection && <td className="sw-lt-select" />}
                  {columns.map((column) => {
                    const order = sort && sort.key === column.key ? sort.order : undefined;
                    return (
                      <th
                        key={column.key}
                        scope="col"
                        className={cellClass(column)}
                        aria-sort={column.sortable && order ? ARIA_SORT[order] : undefined}
                      >
                        {column.sortable && sort ? (
                          <button
                            type="button"
                            className="sw-lt-sorter"
                            onClick={() => {
                              const next = nextOrder(order);
                              sort.onSort(next ? column.key : undefined, next);
                            }}
                          >
                            <span>{column.title}</span>
                            <span className="sw-lt-arrows" aria-hidden="true">
                              <span className={order === 'asc' ? 'sw-lt-on' : undefined}>▲</span>
                              <span className={order === 'desc' ? 'sw-lt-on' : undefined}>▼</span>
                            </span>
                          </button>
                        ) : (
                          column.title
                        )}
                      </th>
                    );
                  })}
                </tr>
              </thead>
            )}
            <tbody>
              {rows.length === 0 ? (
                <tr className="sw-lt-empty">
                  <td colSpan={span}>{loading ? null : empty}</td>
                </tr>
              ) : (
                rows.map((row) => {
                  const key = rowKey(row);
                  const selected = selection?.isSelected(row) ?? false;
                  return (
                    <tr key={key} data-row-key={key} className={selected ? 'sw-lt-selected' : undefined}>
                      {selection && (
                        <td className="sw-lt-select">
                          <input
                            type="checkbox"
                            checked={selected}
                            disabled={selection.isDisabled(row)}
                            aria-label={selection.label(row)}
                            onChange={(event) => selection.onToggle(row, event.target.checked)}
                          />
                        </td>
                      )}
                      {columns.map((column) => (
                        <td key={column.key} className={cellClass(column)}>
                          {column.render(row)}
                        </td>
                      ))}
                    </tr>
                  );
                })
              )}
            </tbody>
          </table>
        </div>
        {loading && (
          <div className="sw-lt-loading">
            <span className="sw-spin sw-spin-small" aria-hidden="true">
              <i />
              <i />
              <i />
              <i />
            </span>
          </div>
        )}
      </div>
      {pagination && pagination.total > 0 && <LitePager {...pagination} />}
    </div>
  );
}

/** The pages a pager offers: the first, the last, two either side of the current one, gaps as ellipses. */
export function pagerItems(page: number, pages: number): (number | 'gap')[] {
  const items: (number | 'gap')[] = [];
  for (let p = 1; p <= pages; p++) {
    if (p === 1 || p === pages || Math.abs(p - page) <= 2) items.push(p);
    else if (items[items.length - 1] !== 'gap') items.push('gap');
  }
  return items;
}

/** antd's pager (its texts from antd's locale of the console language): total, previous, pages, next, page size. */
function LitePager({ page, size, total, sizes, showTotal, onChange }: LitePagination) {
  const texts = useContext(ConfigProvider.ConfigContext).locale?.Pagination;
  const pages = Math.max(1, Math.ceil(total / size));
  return (
    <nav className="sw-lt-pager" aria-label={texts?.page ?? 'Page'}>
      {showTotal && <span className="sw-lt-total">{showTotal(total)}</span>}
      <button
        type="button"
        className="sw-lt-page"
        disabled={page <= 1}
        aria-label={texts?.prev_page ?? 'Previous Page'}
        onClick={() => onChange(page - 1, size)}
      >
        ‹
      </button>
      {pagerItems(page, pages).map((item, i) =>
        item === 'gap' ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: gaps have no identity but their place
          <span key={`gap-${i}`} className="sw-lt-gap" aria-hidden="true">
            •••
          </span>
        ) : (
          <button
            key={item}
            type="button"
            className={`sw-lt-page${item === page ? ' sw-lt-current' : ''}`}
            aria-current={item === page ? 'page' : undefined}
            aria-label={`${texts?.page ?? 'Page'} ${item}`}
            onClick={() => onChange(item, size)}
          >
            {item}
          </button>
        ),
      )}
      <button
        type="button"
        className="sw-lt-page"
        disabled={page >= pages}
        aria-label={texts?.next_page ?? 'Next Page'}
        onClick={() => onChange(page + 1, size)}
      >
        ›
      </button>
      {sizes && (
        <select
          className="sw-lt-size"
          aria-label={texts?.page_size ?? 'Page Size'}
          value={size}
          onChange={(event) => onChange(1, Number(event.target.value))}
        >
          {sizes.map((option) => (
            <option key={option} value={option}>
              {option} {texts?.items_per_page ?? '/ page'}
            </option>
          ))}
        </select>
      )}
    </nav>
  );
}
