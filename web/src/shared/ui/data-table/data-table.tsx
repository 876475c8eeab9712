import {
  Button,
  ButtonGroup,
  Card,
  Checkbox,
  HTMLSelect,
  HTMLTable,
  Icon,
  InputGroup,
  NonIdealState,
  Spinner,
  Tooltip,
} from '@blueprintjs/core';
import { Cell, Column as GridColumn, Table2 } from '@blueprintjs/table';
import { Fragment, type ReactNode, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import useSWR from 'swr';
import type { Page } from '../../api/types.js';
import { ErrorCallout } from '../error-callout.js';
import { useQueryValues } from '../use-query-values.js';
import './data-table.css';
import {
  debounce,
  pageCount,
  pageRequest,
  ROWS_PER_PAGE_OPTIONS,
  type RowsPerPage,
  readTableState,
  TABLE_VIEWS,
  type TableState,
  type TableView,
  tableStatePatch,
  toggleSort,
} from './table-state.js';

/** Delay between the last key typed in the search box and the request (spec §9). */
export const SEARCH_DEBOUNCE_MS = 50;

/** One column of a {@link DataTable}. */
export interface DataColumn<T> {
  /** The column's id; also the `sortBy` value sent to the server when sortable. */
  id: string;
  header: string;
  render: (row: T) => ReactNode;
  /** Plain text of the cell, for the spreadsheet (columns) view; defaults to the rendered node. */
  text?: (row: T) => string;
  sortable?: boolean;
  /** Width in the spreadsheet view, in pixels. */
  width?: number;
  /**
   * Long values (names, file names, emails) stay on one line, cut with an
   * ellipsis at `maxWidth` pixels (default 320) with the whole text in a
   * tooltip, so one long value cannot push the table off the screen.
   */
  truncate?: boolean;
  maxWidth?: number;
  /** Right-aligned, tabular figures. */
  numeric?: boolean;
}

/** Default width, in pixels, at which a truncated column cuts its text. */
export const TRUNCATE_MAX_WIDTH = 320;

export interface DataTableProps<T> {
  /** Names the table in the query values (spec §2 tableUrlId). */
  tableUrlId: string;
  /** Caption read by screen readers and shown above the rows. */
  label: string;
  columns: DataColumn<T>[];
  /** The table contract call (spec §7): limit, offset, sortBy, ASC|DESC, search → count and results. */
  fetchPage: (request: ReturnType<typeof pageRequest>) => Promise<Page<T>>;
  rowKey: (row: T) => string;
  defaultRowsPerPage?: RowsPerPage;
  defaultSortBy?: string;
  defaultDescending?: boolean;
  searchable?: boolean;
  searchPlaceholder?: string;
  /** Details shown under a row when it is expanded. */
  renderExpanded?: (row: T) => ReactNode;
  /** Actions on the selected rows; the table shows checkboxes when set. */
  selectionActions?: (selected: T[], clear: () => void) => ReactNode;
  /** Buttons at the right of the toolbar. */
  toolbar?: ReactNode;
  /** Milliseconds between refreshes given the page shown (0: none), e.g. while a row is in progress. */
  refreshInterval?: (page: Page<T> | undefined) => number;
  /** Extra attributes of a row (`data-testid`, `data-*`), in every view. */
  rowAttributes?: (row: T) => Record<string, string>;
  /** Double-click on a row (table and line views). */
  onRowDoubleClick?: (row: T) => void;
  /** Shown instead of "No data available" when there is no row at all (no search typed). */
  empty?: ReactNode;
}

/** SWR key prefix of a table's pages: `mutate(tableKeyMatcher(id))` refreshes the table. */
export function tableKeyMatcher(tableUrlId: string) {
  return (key: unknown) => Array.isArray(key) && key[0] === 'table' && key[1] === tableUrlId;
}

/**
 * The reusable table of spec §2: server-side paging (10, 50, 100, all),
 * sorting, search with a 50 ms debounce, selection, expandable rows and three
 * views (table, columns, line). Its state lives in the query values page,
 * rowsPerPage, sortBy, descending, search, view and tableUrlId, so a link or a
 * reload shows the same rows.
 */
export function DataTable<T>(props: DataTableProps<T>) {
  const {
    tableUrlId,
    label,
    columns,
    fetchPage,
    rowKey,
    defaultRowsPerPage = '10',
    defaultSortBy = 'id',
    defaultDescending = true,
    searchable = true,
    searchPlaceholder,
    renderExpanded,
    selectionActions,
    toolbar,
    refreshInterval,
    rowAttributes,
    onRowDoubleClick,
    empty,
  } = props;
  const { t } = useTranslation();
  const [query, setQuery] = useQueryValues();
  const sortable = useMemo(() => columns.filter((c) => c.sortable).map((c) => c.id), [columns]);
  const state = readTableState(query, tableUrlId, {
    rowsPerPage: defaultRowsPerPage,
    sortBy: defaultSortBy,
    descending: defaultDescending,
    sortable,
  });
  // Only what changes is written: a handler of an earlier render cannot undo a newer search or sort.
  const update = (next: TableState) => setQuery(tableStatePatch(tableUrlId, state, next, query));
  const request = pageRequest(state);
  const { data, error, isLoading, isValidating, mutate } = useSWR(
    ['table', tableUrlId, request.limit, request.offset, request.sortBy, request.order, request.search ?? ''],
    () => fetchPage(request),
    { keepPreviousData: true, ...(refreshInterval ? { refreshInterval } : {}) },
  );

  // Search: typed text is local, the query (and the request) follows 50 ms after the last key.
  const [searchText, setSearchText] = useState(state.search);
  useEffect(() => setSearchText(state.search), [state.search]);
  // The debounced call reads the state when it fires: a sort or view chosen while it waited survives.
  const latest = useRef({ state, update });
  latest.current = { state, update };
  const pushSearch = useMemo(
    () =>
      debounce((text: string) => {
        const { state: now, update: write } = latest.current;
        if (text !== now.search) write({ ...now, search: text, page: 1 });
      }, SEARCH_DEBOUNCE_MS),
    [],
  );
  useEffect(() => () => pushSearch.cancel(), [pushSearch]);
  const onSearch = (text: string) => {
    setSearchText(text);
    pushSearch(text);
  };

  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [expanded, setExpanded] = useState<Set<string>>(new Set());
  const rows = data?.results ?? [];
  const count = data?.count ?? 0;
  const pages = pageCount(count, state);
  const visibleKeys = rows.map(rowKey);
  const selectedRows = rows.filter((r) => selected.has(rowKey(r)));
  const allSelected = visibleKeys.length > 0 && visibleKeys.every((k) => selected.has(k));
  const someSelected = visibleKeys.some((k) => selected.has(k));
  const clearSelection = () => setSelected(new Set());
  // Selection belongs to the rows on screen: a new page starts without any.
  const pageKey = `${request.offset}-${request.limit}-${request.sortBy}-${request.order}-${request.search ?? ''}`;
  useEffect(() => {
    void pageKey;
    setSelected(new Set());
    setExpanded(new Set());
  }, [pageKey]);

  const toggle = (set: Set<string>, key: string) => {
    const next = new Set(set);
    if (next.has(key)) next.delete(key);
    else next.add(key);
    return next;
  };

  const first = count === 0 ? 0 : request.offset + 1;
  const last = Math.min(count, request.offset + rows.length);

  const cell = (c: DataColumn<T>, row: T): ReactNode => {
    if (!c.truncate) return c.render(row);
    const full = c.text?.(row) ?? '';
    return (
      <Tooltip
        content={<span className="nu-table__tooltip">{full}</span>}
        disabled={full === ''}
        hoverOpenDelay={300}
        targetTagName="span"
        className="nu-table__truncate"
        targetProps={{ style: { maxWidth: c.maxWidth ?? TRUNCATE_MAX_WIDTH } }}
      >
        {c.render(row)}
      </Tooltip>
    );
  };

  const viewLabels: Record<TableView, string> = {
    table: t('common:table.viewTable'),
    columns: t('common:table.viewColumns'),
    line: t('common:table.viewLine'),
  };
  const viewIcons = { table: 'th', columns: 'grid', line: 'list' } as const;

  const sortIcon = (id: string) =>
    state.sortBy !== id ? 'double-caret-vertical' : state.descending ? 'caret-down' : 'caret-up';
  const ariaSort = (id: string) =>
    state.sortBy !== id ? undefined : state.descending ? ('descending' as const) : ('ascending' as const);

  const header = (
    <div className="nu-table__toolbar">
      {searchable && (
        <InputGroup
          type="search"
          leftIcon="search"
          placeholder={searchPlaceholder ?? t('common:table.search')}
          aria-label={searchPlaceholder ?? t('common:table.search')}
          value={searchText}
          onValueChange={onSearch}
          className="nu-table__search"
          rightElement={isValidating && !isLoading ? <Spinner size={16} className="nu-table__busy" /> : undefined}
        />
      )}
      {selectionActions && selectedRows.length > 0 && (
        <div className="nu-table__selection" role="status">
          <span>{t('common:table.selected', { count: selectedRows.length })}</span>
          {selectionActions(selectedRows, clearSelection)}
        </div>
      )}
      <div className="nu-table__spacer" />
      <ButtonGroup aria-label={t('common:table.view')}>
        {TABLE_VIEWS.map((v) => (
          <Button
            key={v}
            icon={viewIcons[v]}
            active={state.view === v}
            aria-pressed={state.view === v}
            aria-label={viewLabels[v]}
            title={viewLabels[v]}
            onClick={() => update({ ...state, view: v })}
          />
        ))}
      </ButtonGroup>
      {toolbar}
    </div>
  );

  const footer = (
    <div className="nu-table__footer">
      <div className="nu-table__rpp">
        <label htmlFor={`${tableUrlId}-rpp`}>{t('common:table.rowsPerPage')}</label>
        <HTMLSelect
          id={`${tableUrlId}-rpp`}
          value={state.rowsPerPage}
          onChange={(e) => update({ ...state, rowsPerPage: e.currentTarget.value as RowsPerPage, page: 1 })}
          options={ROWS_PER_PAGE_OPTIONS.map((o) => ({ value: o, label: o === 'all' ? t('common:table.all') : o }))}
        />
      </div>
      <span className="nu-table__range" aria-live="polite">
        {t('common:table.range', { first, last, count })}
      </span>
      <ButtonGroup>
        <Button
          icon="chevron-left"
          aria-label={t('common:table.previous')}
          disabled={state.page <= 1}
          onClick={() => update({ ...state, page: state.page - 1 })}
        />
        <span className="nu-table__page">{t('common:table.page', { page: Math.min(state.page, pages), pages })}</span>
        <Button
          icon="chevron-right"
          aria-label={t('common:table.next')}
          disabled={state.page >= pages}
          onClick={() => update({ ...state, page: state.page + 1 })}
        />
      </ButtonGroup>
    </div>
  );

  let body: ReactNode;
  if (error && !data) {
    body = (
      <div className="nu-table__state">
        <ErrorCallout error={error} />
        <Button icon="refresh" onClick={() => void mutate()}>
          {t('common:table.retry')}
        </Button>
      </div>
    );
  } else if (isLoading && !data) {
    body = (
      <div className="nu-table__state">
        <Spinner aria-label={t('common:loading')} />
      </div>
    );
  } else if (rows.length === 0) {
    body =
      empty && !state.search && count === 0 ? (
        <div className="nu-table__state">{empty}</div>
      ) : (
        <NonIdealState icon="inbox" title={t('common:table.empty')} className="nu-table__state" />
      );
  } else if (state.view === 'columns') {
    body = (
      <div className="nu-table__grid" style={{ height: Math.min(48 + rows.length * 20, 640) }}>
        <Table2
          numRows={rows.length}
          enableRowHeader={false}
          columnWidths={columns.map((c) => c.width ?? 160)}
          getCellClipboardData={(r, c) => {
            const col = columns[c]!;
            return col.text ? col.text(rows[r]!) : '';
          }}
        >
          {columns.map((c) => (
            <GridColumn
              key={c.id}
              name={c.header}
              cellRenderer={(r) => <Cell>{c.text ? c.text(rows[r]!) : c.render(rows[r]!)}</Cell>}
            />
          ))}
        </Table2>
      </div>
    );
  } else if (state.view === 'line') {
    body = (
      <ul className="nu-table__lines" aria-label={label}>
        {rows.map((row) => {
          const key = rowKey(row);
          const [primary, ...rest] = columns;
          return (
            <li
              key={key}
              className={`nu-table__line${selectionActions ? ' nu-table__line--check' : ''}`}
              onDoubleClick={onRowDoubleClick ? () => onRowDoubleClick(row) : undefined}
              {...rowAttributes?.(row)}
            >
              {selectionActions && (
                <Checkbox
                  className="nu-table__check"
                  checked={selected.has(key)}
                  onChange={() => setSelected((s) => toggle(s, key))}
                  aria-label={t('common:table.selectRow')}
                />
              )}
              <div className="nu-table__line-main">{primary?.render(row)}</div>
              <div className="nu-table__line-rest">
                {rest
                  .filter((c) => c.text?.(row) !== '')
                  .map((c) => (
                    <span key={c.id} className="nu-table__line-item">
                      <span className="nu-muted">{c.header}</span> {cell(c, row)}
                    </span>
                  ))}
              </div>
            </li>
          );
        })}
      </ul>
    );
  } else {
    const span = columns.length + (selectionActions ? 1 : 0) + (renderExpanded ? 1 : 0);
    body = (
      <HTMLTable className="nu-table__table" interactive striped>
        <caption className="nu-visually-hidden">{label}</caption>
        <thead>
          <tr>
            {renderExpanded && (
              <th className="nu-table__narrow">
                <span className="nu-visually-hidden">{t('common:table.details')}</span>
              </th>
            )}
            {selectionActions && (
              <th className="nu-table__narrow">
                <Checkbox
                  className="nu-table__check"
                  checked={allSelected}
                  indeterminate={someSelected && !allSelected}
                  onChange={() => setSelected(allSelected ? new Set() : new Set(visibleKeys))}
                  aria-label={t('common:table.selectAll')}
                />
              </th>
            )}
            {columns.map((c) => (
              <th
                key={c.id}
                aria-sort={c.sortable ? ariaSort(c.id) : undefined}
                data-column={c.id}
                className={c.numeric ? 'nu-table__num' : undefined}
              >
                {c.sortable ? (
                  <button type="button" className="nu-table__sort" onClick={() => update(toggleSort(state, c.id))}>
                    {c.header}
                    <Icon icon={sortIcon(c.id)} size={12} />
                  </button>
                ) : (
                  c.header
                )}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const key = rowKey(row);
            const open = expanded.has(key);
            return (
              <Fragment key={key}>
                <tr
                  className={selected.has(key) ? 'nu-table__row--selected' : undefined}
                  onDoubleClick={onRowDoubleClick ? () => onRowDoubleClick(row) : undefined}
                  {...rowAttributes?.(row)}
                >
                  {renderExpanded && (
                    <td className="nu-table__narrow">
                      <Button
                        variant="minimal"
                        size="small"
                        icon={open ? 'chevron-down' : 'chevron-right'}
                        aria-expanded={open}
                        aria-label={open ? t('common:table.collapse') : t('common:table.expand')}
                        onClick={() => setExpanded((s) => toggle(s, key))}
                      />
                    </td>
                  )}
                  {selectionActions && (
                    <td className="nu-table__narrow">
                      <Checkbox
                        className="nu-table__check"
                        checked={selected.has(key)}
                        onChange={() => setSelected((s) => toggle(s, key))}
                        aria-label={t('common:table.selectRow')}
                      />
                    </td>
                  )}
                  {columns.map((c) => (
                    <td key={c.id} className={c.numeric ? 'nu-table__num' : undefined}>
                      {cell(c, row)}
                    </td>
                  ))}
                </tr>
                {open && renderExpanded && (
                  <tr className="nu-table__expanded">
                    <td colSpan={span}>{renderExpanded(row)}</td>
                  </tr>
                )}
              </Fragment>
            );
          })}
        </tbody>
      </HTMLTable>
    );
  }

  // A failed refresh (a search, a sort, a page) over rows already shown: say so, or the old rows pass for the answer.
  const staleError =
    error && data ? (
      <div className="nu-table__stale" data-testid="table-stale-error">
        <ErrorCallout error={error} title={t('common:table.staleError')} />
        <Button icon="refresh" small onClick={() => void mutate()}>
          {t('common:table.retry')}
        </Button>
      </div>
    ) : null;

  return (
    <Card className="nu-table" data-table={tableUrlId}>
      {header}
      {staleError}
      <div className="nu-table__body">{body}</div>
      {footer}
    </Card>
  );
}
