import { describe, expect, it } from 'vitest';
import { pageCount, pageRequest, readTableState, toggleSort, writeTableState } from './table-state.js';

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
