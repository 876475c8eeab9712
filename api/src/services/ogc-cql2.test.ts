import { describe, expect, it } from 'vitest';
import { Cql2Error, cql2Properties, parseCql2 } from './ogc-cql2.js';

describe('CQL2 text parser', () => {
  it('reads comparisons with or without spaces, numbers, strings and booleans', () => {
    expect(parseCql2('height>20')).toEqual({ kind: 'compare', op: '>', property: 'height', value: 20 });
    expect(parseCql2("kind = 'major'")).toEqual({ kind: 'compare', op: '=', property: 'kind', value: 'major' });
    expect(parseCql2("name <> 'it''s'")).toEqual({ kind: 'compare', op: '<>', property: 'name', value: "it's" });
    expect(parseCql2('z <= -1.5e2')).toEqual({ kind: 'compare', op: '<=', property: 'z', value: -150 });
    expect(parseCql2('ok = TRUE')).toEqual({ kind: 'compare', op: '=', property: 'ok', value: true });
    expect(parseCql2('"tree height" >= 3')).toEqual({ kind: 'compare', op: '>=', property: 'tree height', value: 3 });
  });

  it('turns value-first comparisons around', () => {
    expect(parseCql2('20 < height')).toEqual({ kind: 'compare', op: '>', property: 'height', value: 20 });
    expect(parseCql2("'a' = kind")).toEqual({ kind: 'compare', op: '=', property: 'kind', value: 'a' });
  });

  it('gives AND precedence over OR, honours parentheses and NOT (as GDAL writes them)', () => {
    expect(parseCql2("a = 1 OR b = 2 AND c = 'x'")).toEqual({
      kind: 'or',
      args: [
        { kind: 'compare', op: '=', property: 'a', value: 1 },
        {
          kind: 'and',
          args: [
            { kind: 'compare', op: '=', property: 'b', value: 2 },
            { kind: 'compare', op: '=', property: 'c', value: 'x' },
          ],
        },
      ],
    });
    expect(parseCql2('(height > 20) AND (height < 30)')).toEqual({
      kind: 'and',
      args: [
        { kind: 'compare', op: '>', property: 'height', value: 20 },
        { kind: 'compare', op: '<', property: 'height', value: 30 },
      ],
    });
    expect(parseCql2('NOT (a = 1)')).toEqual({
      kind: 'not',
      arg: { kind: 'compare', op: '=', property: 'a', value: 1 },
    });
    expect(parseCql2('height > 1 and kind = 2').kind).toBe('and');
  });

  it('reads LIKE, BETWEEN, IN and IS [NOT] NULL, negated forms included', () => {
    expect(parseCql2("name LIKE 'Oak%'")).toEqual({ kind: 'like', property: 'name', pattern: 'Oak%' });
    expect(parseCql2("name NOT LIKE 'O_k'")).toEqual({
      kind: 'not',
      arg: { kind: 'like', property: 'name', pattern: 'O_k' },
    });
    expect(parseCql2('h BETWEEN -5 AND 10')).toEqual({ kind: 'between', property: 'h', low: -5, high: 10 });
    expect(parseCql2("kind IN ('major', 'minor')")).toEqual({
      kind: 'in',
      property: 'kind',
      values: ['major', 'minor'],
    });
    expect(parseCql2('id NOT IN (1,2)')).toEqual({ kind: 'not', arg: { kind: 'in', property: 'id', values: [1, 2] } });
    expect(parseCql2('note IS NULL')).toEqual({ kind: 'isNull', property: 'note' });
    expect(parseCql2('note IS NOT NULL')).toEqual({ kind: 'not', arg: { kind: 'isNull', property: 'note' } });
  });

  it('lists the properties a filter names', () => {
    expect(cql2Properties(parseCql2("a = 1 AND (b > 2 OR NOT c LIKE 'x')"))).toEqual(['a', 'b', 'c']);
  });

  it('refuses what it does not understand, saying where', () => {
    const cases: Array<[string, RegExp]> = [
      ['', /empty/],
      ['height >', /expected a value/],
      ['height > 20 AND', /found the end/],
      ['height != 20', /<>/],
      ["kind = 'open", /not closed/],
      ['height > other', /not with another property/],
      ['S_INTERSECTS(geom, POINT(1 2))', /spatial/],
      ["CASEI(name) = 'x'", /not supported/],
      ['(a = 1', /expected \)/],
      ['a = 1 b = 2', /expected AND, OR/],
      ['height ; DROP TABLE features', /unexpected character/],
      ['a BETWEEN 1 OR 2', /expected AND/],
      ['1 = 2', /compare a value with a property/],
    ];
    for (const [text, message] of cases) {
      let error: unknown;
      try {
        parseCql2(text);
      } catch (err) {
        error = err;
      }
      expect(error, text).toBeInstanceOf(Cql2Error);
      expect((error as Error).message, text).toMatch(message);
    }
    expect(() => parseCql2(`${'('.repeat(40)}a = 1${')'.repeat(40)}`)).toThrow(/deeper/);
  });
});
