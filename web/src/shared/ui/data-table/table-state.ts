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

/** The query values of one table's state (spec §2), besides `tableUrlId`. */
export const TABLE_QUERY_KEYS = ['page', 'rowsPerPage', 'sortBy', 'descending', 'search', 'view'] as const;

/**
 * The query key under which a table that is not the active one keeps a value:
 * `users.sortBy`. The active table (named by `tableUrlId`) uses the plain keys
 * of spec §2; the others keep theirs prefixed, so two tables on one page each
 * keep their own state in the URL.
 */
export function stashedKey(tableUrlId: string, key: string): string {
  return `${tableUrlId}.${key}`;
}

/**
 * Reads a table's state from the query values: the plain values when the
 * query's `tableUrlId` names this table, else its stashed (prefixed) values,
 * else the defaults. Anything malformed falls back to its default rather than
 * failing.
 */
export function readTableState(query: Record<string, string>, tableUrlId: string, d: TableDefaults): TableState {
  const mine = query.tableUrlId === tableUrlId;
  const get = (k: string) => (mine ? query[k] : query[stashedKey(tableUrlId, k)]);
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

/**
 * The query patch for a change from state `from` to `to`: the keys of the
 * table that change (and the table's id and stashes, as
 * {@link writeTableState}) and the page with any change, never another key that stays. A handler made in an
 * earlier render (a sort clicked just as a typed search reached the URL) then
 * cannot put back a value the URL has moved on from: the patch applies to
 * the URL as it is when it lands.
 *
 * @example
 * tableStatePatch('projects', state, toggleSort(state, 'name'), query); // { tableUrlId, page, sortBy, descending }
 */
export function tableStatePatch(
  tableUrlId: string,
  from: TableState,
  to: TableState,
  query: Record<string, string> = {},
): Record<string, string | null> {
  const next = writeTableState(tableUrlId, to, query);
  const before = writeTableState(tableUrlId, from, query);
  const keys: readonly string[] = TABLE_QUERY_KEYS;
  const changed = Object.entries(next).filter(([k, v]) => keys.includes(k) && before[k] !== v);
  // The page goes with any change (a sort, a search, a size puts it back to the first).
  const page: Record<string, string | null> = changed.length > 0 ? { page: next.page ?? null } : {};
  return {
    ...Object.fromEntries(Object.entries(next).filter(([k]) => !keys.includes(k))),
    ...page,
    ...Object.fromEntries(changed),
  };
}

/**
 * The query patch that records a table state under the plain keys (with its
 * tableUrlId). Given the current `query`, the values of the table that was
 * active until now move to its stashed keys first, and this table's stashed
 * keys are removed: each table keeps its own state.
 */
export function writeTableState(
  tableUrlId: string,
  s: TableState,
  query: Record<string, string> = {},
): Record<string, string | null> {
  const patch: Record<string, string | null> = {};
  const previous = query.tableUrlId;
  if (previous && previous !== tableUrlId) {
    for (const k of TABLE_QUERY_KEYS) {
      const v = query[k];
      if (v !== undefined && v !== '') patch[stashedKey(previous, k)] = v;
    }
  }
  for (const k of TABLE_QUERY_KEYS) {
    if (query[stashedKey(tableUrlId, k)] !== undefined) patch[stashedKey(tableUrlId, k)] = null;
  }
  return {
    ...patch,
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

/** A function whose calls wait `ms` after the last one; `cancel` drops a waiting call. */
export interface Debounced<A extends unknown[]> {
  (...args: A): void;
  cancel(): void;
  /** Runs the waiting call now, if any. */
  flush(): void;
}

/**
 * Delays `fn` until `ms` have passed without a new call; only the last call's
 * arguments run (the search box: one request 50 ms after the last key, spec §9).
 *
 * @example
 * const search = debounce((text: string) => setQuery({ search: text }), 50);
 * search('a'); search('ad'); search('ada'); // one setQuery, with 'ada', 50 ms later
 */
export function debounce<A extends unknown[]>(fn: (...args: A) => void, ms: number): Debounced<A> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let pending: A | undefined;
  const run = () => {
    timer = undefined;
    const args = pending;
    pending = undefined;
    if (args) fn(...args);
  };
  const debounced = (...args: A) => {
    pending = args;
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(run, ms);
  };
  debounced.cancel = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    pending = undefined;
  };
  debounced.flush = () => {
    if (timer !== undefined) clearTimeout(timer);
    run();
  };
  return debounced;
}
