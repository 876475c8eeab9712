import { describe, expect, it } from 'vitest';
import { formatDateTime } from './format-date.js';

describe('formatDateTime', () => {
  it('uses the DD/MM/YYYY HH:mm mask', () => {
    expect(formatDateTime(new Date(2024, 0, 5, 7, 3))).toBe('05/01/2024 07:03');
    expect(formatDateTime(new Date(1999, 11, 31, 23, 59))).toBe('31/12/1999 23:59');
  });

  it('reads ISO strings in local time', () => {
    const d = new Date(2025, 6, 14, 9, 30);
    expect(formatDateTime(d.toISOString())).toBe('14/07/2025 09:30');
  });

  it('returns an empty string for nothing or an invalid date', () => {
    expect(formatDateTime(null)).toBe('');
    expect(formatDateTime('')).toBe('');
    expect(formatDateTime('not a date')).toBe('');
  });
});
