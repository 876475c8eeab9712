import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../errors.codes.js';
import { AppError } from '../errors.js';
import { esc, html } from '../routes/ogc-html.js';
import {
  CRS84,
  canonicalCrs,
  collectionCrs,
  epsgUri,
  isNorthFirst,
  parseBbox,
  parseDatetime,
  parseFilter,
  parseLimit,
  parseOffset,
  pickCrs,
  type Queryable,
  surveyDay,
} from './ogc.service.js';

function failure(fn: () => unknown): AppError {
  try {
    fn();
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error('expected an AppError');
}

const utm = collectionCrs({ epsg_code: 32754, project_srid: 32754, project_geographic: false });

describe('OGC API parameters', () => {
  it('offers CRS84 first, EPSG:4326 latitude first, EPSG:3857 and the project CRS', () => {
    expect(utm.map((c) => [c.uri, c.flip])).toEqual([
      [CRS84, false],
      [epsgUri(4326), true],
      [epsgUri(3857), false],
      [epsgUri(32754), false],
    ]);
    // A project CRS PostGIS does not know is not offered; a northing-first one is written northing first.
    expect(collectionCrs({ epsg_code: 123456, project_srid: null, project_geographic: null })).toHaveLength(3);
    expect(collectionCrs({ epsg_code: 3006, project_srid: 3006, project_geographic: false })[3]!.flip).toBe(true);
    expect([4326, 4258, 3006, 31467, 2180].every(isNorthFirst)).toBe(true);
    expect([3857, 32754, 2154, 28992, 4087].some(isNorthFirst)).toBe(false);
  });

  it('reads CRS names in their usual spellings and refuses others naming the parameter', () => {
    for (const v of [CRS84, 'CRS84', '[OGC:CRS84]', 'urn:ogc:def:crs:OGC:1.3:CRS84'])
      expect(canonicalCrs(v), v).toBe(CRS84);
    for (const v of [
      'EPSG:3857',
      '[EPSG:3857]',
      'urn:ogc:def:crs:EPSG::3857',
      'https://www.opengis.net/def/crs/EPSG/0/3857',
    ]) {
      expect(canonicalCrs(v), v).toBe(epsgUri(3857));
    }
    expect(pickCrs(undefined, utm, 'crs').uri).toBe(CRS84);
    const e = failure(() => pickCrs('EPSG:2154', utm, 'bbox-crs'));
    expect([e.status, e.code, e.details?.parameter]).toEqual([400, 'INVALID_CRS', 'bbox-crs']);
  });

  it('parses bbox in the axis order of its CRS, splits one crossing the antimeridian, refuses bad ones', () => {
    expect(parseBbox('138.5,-35,138.7,-34.9', utm[0]!)).toEqual({ srid: 4326, boxes: [[138.5, -35, 138.7, -34.9]] });
    expect(parseBbox('-35,138.5,-34.9,138.7', utm[1]!)).toEqual({ srid: 4326, boxes: [[138.5, -35, 138.7, -34.9]] });
    expect(parseBbox('1,2,0,3,4,10', utm[0]!)).toEqual({ srid: 4326, boxes: [[1, 2, 3, 4]] });
    expect(parseBbox('170,-10,-170,10', utm[0]!)!.boxes).toEqual([
      [170, -10, 180, 10],
      [-180, -10, -170, 10],
    ]);
    expect(parseBbox('500,600,700,800', utm[3]!)).toEqual({ srid: 32754, boxes: [[500, 600, 700, 800]] });
    for (const bad of ['1,2,3', '1,2,3,x', '1,,3,4', '0,95,1,96', '0,10,1,5', '181,0,182,1']) {
      const e = failure(() => parseBbox(bad, utm[0]!));
      expect([e.code, e.details?.parameter], bad).toEqual(['INVALID_BBOX', 'bbox']);
    }
    expect(failure(() => parseBbox('700,600,500,800', utm[3]!)).code).toBe('INVALID_BBOX');
  });

  it('parses limit (default 100, 10 000 at most), offset and datetime', () => {
    expect([parseLimit(undefined), parseLimit('7'), parseLimit('50000')]).toEqual([100, 7, 10_000]);
    for (const bad of ['0', '-1', '1.5', 'ten'])
      expect(failure(() => parseLimit(bad)).details?.parameter).toBe('limit');
    expect(parseOffset('30')).toBe(30);
    expect(failure(() => parseOffset('-3')).details?.parameter).toBe('offset');
    expect(parseDatetime('2024-05-01T12:00:00Z')).toEqual({
      start: Date.parse('2024-05-01T12:00:00Z'),
      end: Date.parse('2024-05-01T12:00:00Z'),
    });
    expect(parseDatetime('2024-05-01/..')).toEqual({ start: Date.parse('2024-05-01T00:00:00Z'), end: null });
    expect(parseDatetime('../2024-05-01T00:00:00+02:00')!.end).toBe(Date.parse('2024-04-30T22:00:00Z'));
    for (const bad of ['yesterday', '../..', '2024-05-02/2024-05-01', '2024-13-45', '1/2/3']) {
      expect(failure(() => parseDatetime(bad)).details?.parameter, bad).toBe('datetime');
    }
  });

  it('dates features by the survey day of the LAS header, else by the upload', () => {
    const day = surveyDay({ creation_year: 2021, creation_day: 32, project_created_at: new Date('2024-01-01') });
    expect(new Date(day.start).toISOString()).toBe('2021-02-01T00:00:00.000Z');
    const upload = surveyDay({
      creation_year: null,
      creation_day: null,
      project_created_at: new Date('2024-03-05T10:00:00Z'),
    });
    expect(new Date(upload.start).toISOString()).toBe('2024-03-05T00:00:00.000Z');
  });

  it('checks filters against the queryables: known properties, values of their type', () => {
    const q: Queryable[] = [
      { name: 'elevation', types: ['number'], integral: false },
      { name: 'kind', types: ['string'], integral: false },
    ];
    expect(parseFilter("elevation > 20 AND kind = 'major'", 'cql2-text', q)!.kind).toBe('and');
    expect(parseFilter(undefined, undefined, q)).toBeNull();
    const cases: Array<[string, string | undefined, string]> = [
      ['height > 20', undefined, 'filter'],
      ["elevation = 'x'", undefined, 'filter'],
      ['kind > 3', undefined, 'filter'],
      ["kind IN ('a', 2)", undefined, 'filter'],
      ['elevation BETWEEN', undefined, 'filter'],
      ['elevation > 1', 'cql2-json', 'filter-lang'],
    ];
    for (const [text, lang, parameter] of cases) {
      const e = failure(() => parseFilter(text, lang, q));
      expect([e.status, e.code, e.details?.parameter], text).toEqual([400, 'INVALID_FILTER', parameter]);
    }
  });
});

describe('OGC API pages and errors', () => {
  it('escapes every interpolated text of an HTML page', () => {
    expect(esc('<a href="x">\'&')).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;');
    expect(html`<p>${'<script>alert(1)</script>'}</p>${html`<b>${'&'}</b>`}`.html).toBe(
      '<p>&lt;script&gt;alert(1)&lt;/script&gt;</p><b>&amp;</b>',
    );
  });

  it('answers only with error codes listed in errors.codes.ts', async () => {
    const files = [
      'services/ogc.service.ts',
      'services/ogc-tiles.service.ts',
      'services/access-tokens.service.ts',
      'routes/ogc.routes.ts',
      'routes/ogc-request.ts',
      'routes/ogc-tiles.routes.ts',
      'routes/access-tokens.routes.ts',
    ];
    const used = new Set<string>();
    for (const f of files) {
      const text = await readFile(path.join(import.meta.dirname, '..', f), 'utf8');
      // new AppError(400, 'CODE', …), invalidParameter(…, 'CODE'), and the codes an OpenAPI route lists.
      for (const m of text.matchAll(/AppError\(\s*\d+,\s*'([A-Z_]+)'/g)) used.add(m[1]!);
      for (const m of text.matchAll(/invalidParameter\([^;]*?'([A-Z][A-Z_]+)'\)/g)) used.add(m[1]!);
      for (const m of text.matchAll(/\d{3}: \[([^\]]*)\]/g)) {
        for (const c of m[1]!.matchAll(/'([A-Z_]+)'/g)) used.add(c[1]!);
      }
    }
    for (const code of [
      'INVALID_CRS',
      'INVALID_FILTER',
      'INVALID_BBOX',
      'ACCESS_TOKEN_INVALID',
      'ACCESS_TOKEN_LIMIT',
    ]) {
      expect(used.has(code), code).toBe(true);
    }
    expect([...used].filter((c) => !(c in ERROR_CODES))).toEqual([]);
  });
});
