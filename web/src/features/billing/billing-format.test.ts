import { describe, expect, it } from 'vitest';
import {
  BYTES_PER_GB,
  bytesToGbText,
  formatGb,
  formatHectares,
  formatMoney,
  gbToBytes,
  parseDecimal,
} from './billing-format.js';

describe('billing formats', () => {
  it('shows hectares and GB in the interface language', () => {
    expect(formatHectares(1234.567, 'en-US')).toBe('1,234.57 ha');
    expect(formatHectares(1234.5, 'fr').replace(/\s/g, ' ')).toBe('1 234,5 ha');
    expect(formatGb(10 * BYTES_PER_GB, 'en-US')).toBe('10 GB');
    expect(formatGb(1.5 * BYTES_PER_GB, 'fr')).toBe('1,5 Go');
  });

  it('turns the GB of a form into bytes and back (empty: the server default)', () => {
    expect(gbToBytes('10')).toBe(10 * BYTES_PER_GB);
    expect(gbToBytes('0,5')).toBe(BYTES_PER_GB / 2);
    expect(gbToBytes('')).toBeNull();
    expect(gbToBytes('ten')).toBeNaN();
    expect(bytesToGbText(10 * BYTES_PER_GB)).toBe('10');
    expect(bytesToGbText(null)).toBe('');
    expect(bytesToGbText(0)).toBe('0');
  });

  it('formats money from minor units and parses decimals', () => {
    expect(formatMoney(4900, 'eur', 'en-US')).toBe('€49.00');
    expect(formatMoney(4900, 'eur', 'fr').replace(/\s/g, ' ')).toBe('49,00 €');
    expect(parseDecimal('-2,5')).toBe(-2.5);
    expect(parseDecimal('')).toBeNull();
    expect(parseDecimal('1e3')).toBeNaN();
  });
});
