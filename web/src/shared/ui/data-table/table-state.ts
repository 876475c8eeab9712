/** Page sizes of spec §9; `all` asks the server for everything it will give (its ceiling is 10 000). */
export const ROWS_PER_PAGE_OPTIONS = ['10', '50', '100', 'all'] as const;
export type RowsPerPage = (typeof ROWS_PER_PAGE_OPTIONS)[number];
/** The server's ceiling for one page. */
export const ALL_ROWS_LIMIT = 10_000;

/** Ways to show a table's rows (spec §2: line, columns, table). */
export const TABLE_VIEWS = ['table', 'columns', 'line'] as const;
export type TableView = (typeof TABLE_VIEWS)[number];

/** The state of one table, as kept in the query values of spec §2. */
export interface TableState {
  page: number;
  rowsPerPage: RowsPerPage;
  sortBy: string;
  descending: boolean;
  search: string;
  view: TableView;
}

export interface TableDefaults {
  rowsPerPage: RowsPerPage;
  sortBy: string;
  descending: boolean;
  sortable: readonly string[];
}

/**
 * Reads a table's state from the query values. Values belong to the table
 * named by `tableUrlId`; another table's values (or none) give the defaults.
 * Anything malformed falls back to its default rather than failing.
 */
export function readTableState(query: Record<string, string>, tableUrlId: string, d: TableDefaults): TableState {
  const mine = query.tableUrlId === tableUrlId;
  const get = (k: string) => (mine ? query[k] : undefined);
  const page = Number.parseInt(get('page') ?? '', 10);
  const rpp = get('rowsPerPage');
  const sortBy = get('sortBy');
  const desc = get('descending');
  const view = get('view');
  return {
    page: Number.isFinite(page) && page >= 1 ? page : 1,
    rowsPerPage: (ROWS_PER_PAGE_OPTIONS as readonly string[]).includes(rpp ?? '')
      ? (rpp as RowsPerPage)
      : d.rowsPerPage,
    sortBy: sortBy && d.sortable.includes(sortBy) ? sortBy : d.sortBy,
    descending: desc === 'true' ? true : desc === 'false' ? false : d.descending,
    search: get('search') ?? '',
    view: (TABLE_VIEWS as readonly string[]).includes(view ?? '') ? (view as TableView) : 'table',
  };
}

/** The query values that record a table state (with its tableUrlId). */
export function writeTableState(tableUrlId: string, s: TableState): Record<string, string | null> {
  return {
    tableUrlId,
    page: String(s.page),
    rowsPerPage: s.rowsPerPage,
    sortBy: s.sortBy,
    descending: String(s.descending),
    search: s.search || null,
    view: s.view === 'table' ? null : s.view,
  };
}

/** The request of the table contract (spec §7): limit, offset, sortBy, ASC or DESC, search. */
export function pageRequest(s: TableState): {
  limit: number;
  offset: number;
  sortBy: string;
  order: 'ASC' | 'DESC';
  search?: string;
} {
  const limit = s.rowsPerPage === 'all' ? ALL_ROWS_LIMIT : Number(s.rowsPerPage);
  return {
    limit,
    offset: s.rowsPerPage === 'all' ? 0 : (s.page - 1) * limit,
    sortBy: s.sortBy,
    order: s.descending ? 'DESC' : 'ASC',
    ...(s.search ? { search: s.search } : {}),
  };
}

/** Number of pages for `count` rows (at least 1). */
export function pageCount(count: number, s: TableState): number {
  if (s.rowsPerPage === 'all') return 1;
  return Math.max(1, Math.ceil(count / Number(s.rowsPerPage)));
}

/** The state after a click on a column header: the same column flips, another sorts ascending. */
export function toggleSort(s: TableState, column: string): TableState {
  return s.sortBy === column
    ? { ...s, descending: !s.descending, page: 1 }
    : { ...s, sortBy: column, descending: false, page: 1 };
}
