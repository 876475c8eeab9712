import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  debounce,
  pageCount,
  pageRequest,
  readTableState,
  type TableState,
  tableStatePatch,
  toggleSort,
  writeTableState,
} from './table-state.js';

const defaults = { rowsPerPage: '10' as const, sortBy: 'id', descending: true, sortable: ['id', 'email'] };

describe('table state in query values', () => {
  it('uses the defaults without query values, or with another table’s', () => {
    const expected = { page: 1, rowsPerPage: '10', sortBy: 'id', descending: true, search: '', view: 'table' };
    expect(readTableState({}, 'users', defaults)).toEqual(expected);
    expect(readTableState({ tableUrlId: 'projects', page: '4', sortBy: 'email' }, 'users', defaults)).toEqual(expected);
  });

  it('reads its own values and ignores malformed ones', () => {
    const q = {
      tableUrlId: 'users',
      page: '3',
      rowsPerPage: '50',
      sortBy: 'email',
      descending: 'false',
      search: 'ada',
    };
    expect(readTableState(q, 'users', defaults)).toEqual({
      page: 3,
      rowsPerPage: '50',
      sortBy: 'email',
      descending: false,
      search: 'ada',
      view: 'table',
    });
    const bad = {
      tableUrlId: 'users',
      page: '-2',
      rowsPerPage: '7',
      sortBy: 'password_hash',
      descending: 'maybe',
      view: 'x',
    };
    expect(readTableState(bad, 'users', defaults)).toEqual(readTableState({}, 'users', defaults));
  });

  it('round-trips through the query', () => {
    const s = {
      page: 2,
      rowsPerPage: 'all' as const,
      sortBy: 'email',
      descending: false,
      search: 'x',
      view: 'line' as const,
    };
    const q = Object.fromEntries(
      Object.entries(writeTableState('users', s)).filter((e): e is [string, string] => e[1] !== null),
    );
    expect(q.tableUrlId).toBe('users');
    expect(readTableState(q, 'users', defaults)).toEqual(s);
  });

  it('patches only what changes, so a sort from an earlier render keeps a newer search', () => {
    const before: TableState = {
      page: 1,
      rowsPerPage: '10',
      sortBy: 'id',
      descending: true,
      search: '',
      view: 'table',
    };
    // The sort handler was made while the search was still empty; the URL has the search since.
    const patch = tableStatePatch('users', before, toggleSort(before, 'email'), {
      tableUrlId: 'users',
      search: 'ada@example.com',
    });
    expect(patch).toEqual({ tableUrlId: 'users', page: '1', sortBy: 'email', descending: 'false' });
    expect('search' in patch).toBe(false);
    // A real change of the search is written, with the page it resets.
    const typed = tableStatePatch('users', { ...before, page: 3 }, { ...before, search: 'ada', page: 1 });
    expect(typed).toEqual({ tableUrlId: 'users', search: 'ada', page: '1' });
    // Clearing it removes it from the query.
    expect(tableStatePatch('users', { ...before, search: 'ada' }, before).search).toBeNull();
  });

  it('turns the state into the table contract request', () => {
    const s = readTableState({ tableUrlId: 't', page: '3', rowsPerPage: '50', sortBy: 'email' }, 't', defaults);
    expect(pageRequest(s)).toEqual({ limit: 50, offset: 100, sortBy: 'email', order: 'DESC' });
    expect(pageRequest({ ...s, rowsPerPage: 'all', search: 'ada', descending: false })).toEqual({
      limit: 10_000,
      offset: 0,
      sortBy: 'email',
      order: 'ASC',
      search: 'ada',
    });
  });

  it('counts pages and toggles the sort', () => {
    const s = readTableState({}, 't', defaults);
    expect(pageCount(0, s)).toBe(1);
    expect(pageCount(10, s)).toBe(1);
    expect(pageCount(11, s)).toBe(2);
    expect(pageCount(5000, { ...s, rowsPerPage: 'all' })).toBe(1);
    const byEmail = toggleSort({ ...s, page: 4 }, 'email');
    expect(byEmail).toMatchObject({ sortBy: 'email', descending: false, page: 1 });
    expect(toggleSort(byEmail, 'email')).toMatchObject({ sortBy: 'email', descending: true });
  });
});

/** Applies a query patch the way useQueryValues does (null or '' removes), through a real URL. */
function applyPatch(url: string, patch: Record<string, string | null>): string {
  const u = new URL(url);
  for (const [k, v] of Object.entries(patch)) {
    if (v === null || v === '') u.searchParams.delete(k);
    else u.searchParams.set(k, v);
  }
  return u.toString();
}
const queryOf = (url: string) => Object.fromEntries(new URL(url).searchParams.entries());

describe('two tables on one page', () => {
  const projects = { rowsPerPage: '50' as const, sortBy: 'id', descending: true, sortable: ['id', 'name'] };

  it('keeps each table’s state through a real URL when the other one is used', () => {
    let url = 'http://localhost/admin?tab=subscribed';
    const users: TableState = { ...readTableState({}, 'users', defaults), sortBy: 'email', descending: false, page: 3 };
    url = applyPatch(url, writeTableState('users', users, queryOf(url)));
    expect(queryOf(url)).toMatchObject({ tableUrlId: 'users', sortBy: 'email', descending: 'false', page: '3' });

    // The second table becomes active: the first one's values move to its own keys.
    const byName = toggleSort(readTableState(queryOf(url), 'projects', projects), 'name');
    url = applyPatch(url, writeTableState('projects', { ...byName, search: 'quarry' }, queryOf(url)));
    const q = queryOf(url);
    expect(q).toMatchObject({
      tab: 'subscribed',
      tableUrlId: 'projects',
      sortBy: 'name',
      descending: 'false',
      search: 'quarry',
      'users.sortBy': 'email',
      'users.descending': 'false',
      'users.page': '3',
    });
    expect(readTableState(q, 'users', defaults)).toEqual(users);
    expect(readTableState(q, 'projects', projects)).toMatchObject({ sortBy: 'name', search: 'quarry', page: 1 });

    // Back to the first table: its stashed keys are gone, the second one's are stashed.
    url = applyPatch(url, writeTableState('users', { ...users, page: 4 }, q));
    const back = queryOf(url);
    expect(Object.keys(back).filter((k) => k.startsWith('users.'))).toEqual([]);
    expect(back).toMatchObject({ tableUrlId: 'users', page: '4', sortBy: 'email', 'projects.search': 'quarry' });
    expect(readTableState(back, 'projects', projects)).toMatchObject({
      sortBy: 'name',
      descending: false,
      search: 'quarry',
    });
  });
});

describe('search debounce', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs once, with the last value, 50 ms after the last call', () => {
    vi.useFakeTimers();
    const seen: string[] = [];
    const search = debounce((text: string) => seen.push(text), 50);
    search('a');
    vi.advanceTimersByTime(30);
    search('ad');
    vi.advanceTimersByTime(30);
    search('ada');
    vi.advanceTimersByTime(49);
    expect(seen).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(seen).toEqual(['ada']);
    vi.advanceTimersByTime(500);
    expect(seen).toEqual(['ada']);
  });

  it('cancels and flushes a waiting call', () => {
    vi.useFakeTimers();
    const seen: string[] = [];
    const search = debounce((text: string) => seen.push(text), 50);
    search('x');
    search.cancel();
    vi.advanceTimersByTime(100);
    expect(seen).toEqual([]);
    search('y');
    search.flush();
    expect(seen).toEqual(['y']);
    search.flush();
    vi.advanceTimersByTime(100);
    expect(seen).toEqual(['y']);
  });
});
