import { describe, expect, it } from 'vitest';
import { liveHashQuery, patchQuery } from './use-query-values.js';

describe('query values of the hash route', () => {
  it('reads the query the window shows for the current route only', () => {
    expect(liveHashQuery('#/admin/projects/list?search=ada&page=2', '/admin/projects/list')?.toString()).toBe(
      'search=ada&page=2',
    );
    expect(liveHashQuery('#/admin/projects/list', '/admin/projects/list')?.toString()).toBe('');
    // Another route (the screen changed meanwhile), or no hash route at all (another router): not used.
    expect(liveHashQuery('#/user?search=ada', '/admin/projects/list')).toBeNull();
    expect(liveHashQuery('', '/admin/projects/list')).toBeNull();
  });

  it('patches onto the newest query: values the patch does not name are kept', () => {
    // The URL got a search after the handler's render; a sort patch keeps it.
    const live = liveHashQuery('#/admin/projects/list?tableUrlId=p&search=ada', '/admin/projects/list')!;
    const next = patchQuery(live, { sortBy: 'name', descending: false, page: 1 });
    expect(Object.fromEntries(next)).toEqual({
      tableUrlId: 'p',
      search: 'ada',
      sortBy: 'name',
      descending: 'false',
      page: '1',
    });
    expect(patchQuery(next, { search: null, view: '' }).has('search')).toBe(false);
  });
});
