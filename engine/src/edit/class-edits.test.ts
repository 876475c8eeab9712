import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { hasRealData, realFile } from '@nuage/fixtures/real-data.js';
import proj4 from 'proj4';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli.js';
import type { PointChunk } from '../core/chunk.js';
import { geoidUndulation, verticalReference } from '../crs/geoid.js';
import type { CrsInfo } from '../crs/index.js';
import { PRODUCTS } from '../products/registry.js';
import { applyClassEdits, type ClassEdit, changedClasses, EDITABLE_CLASSES, parseClassEdits } from './class-edits.js';
import { productsForClasses } from './dependent-products.js';
import { loadCloud } from './edit-file.js';

// The reference side: proj4 itself, the WGS84 ellipsoid written out, and a plain crossing-number test.
const A = 6378137;
const F = 1 / 298.257223563;
const E2 = F * (2 - F);

function referenceEcef(cloud: PointChunk, crs: CrsInfo): Array<[number, number, number]> {
  const toLonLat = proj4(crs.proj4, 'EPSG:4326');
  const out: Array<[number, number, number]> = [];
  for (let i = 0; i < cloud.count; i++) {
    const [lon, lat] = toLonLat.forward([cloud.x[i]!, cloud.y[i]!]) as [number, number];
    // MixedConifer names no vertical CRS: orthometric heights, the geoid brings them to the ellipsoid.
    const h = cloud.z[i]! * crs.verticalUnitToMetre + geoidUndulation(lon, lat);
    const p = (lat * Math.PI) / 180;
    const l = (lon * Math.PI) / 180;
    const nu = A / Math.sqrt(1 - E2 * Math.sin(p) ** 2);
    out.push([
      (nu + h) * Math.cos(p) * Math.cos(l),
      (nu + h) * Math.cos(p) * Math.sin(l),
      (nu * (1 - E2) + h) * Math.sin(p),
    ]);
  }
  return out;
}

function referenceLonLat(cloud: PointChunk, crs: CrsInfo): Array<[number, number]> {
  const toLonLat = proj4(crs.proj4, 'EPSG:4326');
  const out: Array<[number, number]> = [];
  for (let i = 0; i < cloud.count; i++) out.push(toLonLat.forward([cloud.x[i]!, cloud.y[i]!]) as [number, number]);
  return out;
}

function inside(poly: Array<[number, number]>, x: number, y: number): boolean {
  let c = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const [xi, yi] = poly[i]!;
    const [xj, yj] = poly[j]!;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) c = !c;
  }
  return c;
}

type Vec3 = [number, number, number];
const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dot = (a: Vec3, b: Vec3) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: Vec3, b: Vec3): Vec3 => [
  a[1] * b[2] - a[2] * b[1],
  a[2] * b[0] - a[0] * b[2],
  a[0] * b[1] - a[1] * b[0],
];
const unit = (a: Vec3): Vec3 => {
  const l = Math.hypot(...a);
  return [a[0] / l, a[1] / l, a[2] / l];
};

/** projection × view of a camera at `eye` looking at `target` (OpenGL conventions), column-major. */
function cameraMatrix(eye: Vec3, target: Vec3, up: Vec3, fovY: number, aspect: number): number[] {
  const f = unit(sub(target, eye));
  const s = unit(cross(f, up));
  const u = cross(s, f);
  // Row-major view rows: s, u, -f with translation.
  const view = [
    [s[0], s[1], s[2], -dot(s, eye)],
    [u[0], u[1], u[2], -dot(u, eye)],
    [-f[0], -f[1], -f[2], dot(f, eye)],
    [0, 0, 0, 1],
  ];
  const t = 1 / Math.tan(fovY / 2);
  const near = 1;
  const far = 10_000;
  const proj = [
    [t / aspect, 0, 0, 0],
    [0, t, 0, 0],
    [0, 0, (far + near) / (near - far), (2 * far * near) / (near - far)],
    [0, 0, -1, 0],
  ];
  const m: number[] = new Array(16).fill(0);
  for (let r = 0; r < 4; r++)
    for (let c = 0; c < 4; c++) {
      let v = 0;
      for (let k = 0; k < 4; k++) v += proj[r]![k]! * view[k]![c]!;
      m[c * 4 + r] = v; // column-major
    }
  return m;
}

function project(m: number[], p: Vec3): { x: number; y: number; w: number } {
  const w = m[3]! * p[0] + m[7]! * p[1] + m[11]! * p[2] + m[15]!;
  return {
    x: (m[0]! * p[0] + m[4]! * p[1] + m[8]! * p[2] + m[12]!) / w,
    y: (m[1]! * p[0] + m[5]! * p[1] + m[9]! * p[2] + m[13]!) / w,
    w,
  };
}

const changedIndices = (before: Uint8Array, after: Uint8Array) => {
  const out: number[] = [];
  for (let i = 0; i < before.length; i++) if (before[i] !== after[i]) out.push(i);
  return out;
};

describe.skipIf(!hasRealData())('applyClassEdits on MixedConifer.laz, against an independent computation', () => {
  let cloud: PointChunk;
  let crs: CrsInfo;
  let classes: Uint8Array;
  let ecef: Vec3[];
  let lonLat: Array<[number, number]>;
  let matrix: number[];
  const box: Array<[number, number]> = [
    [-0.35, -0.3],
    [0.25, -0.3],
    [0.25, 0.4],
    [-0.35, 0.4],
  ];
  // A concave lasso (an arrow head) in NDC.
  const lasso: Array<[number, number]> = [
    [-0.6, -0.5],
    [0.1, -0.1],
    [0.6, -0.55],
    [0.2, 0.6],
    [-0.1, 0.05],
    [-0.5, 0.5],
  ];

  beforeAll(async () => {
    ({ cloud, crs } = await loadCloud(realFile('MixedConifer.laz')));
    classes = cloud.classification!.slice(0, cloud.count);
    expect(verticalReference(crs).heights).not.toBe('ellipsoidal');
    ecef = referenceEcef(cloud, crs) as Vec3[];
    lonLat = referenceLonLat(cloud, crs);
    // A camera 120 m above the middle of the plot, tilted north, looking at its centre.
    const mid = Math.floor(cloud.count / 2);
    let cx = 0;
    let cy = 0;
    let cz = 0;
    for (const p of ecef) {
      cx += p[0];
      cy += p[1];
      cz += p[2];
    }
    const centre: Vec3 = [cx / ecef.length, cy / ecef.length, cz / ecef.length];
    const up = unit(centre);
    const east = unit(cross([0, 0, 1], up));
    const north = cross(up, east);
    const eye: Vec3 = [
      centre[0] + 120 * up[0] - 40 * north[0],
      centre[1] + 120 * up[1] - 40 * north[1],
      centre[2] + 120 * up[2] - 40 * north[2],
    ];
    matrix = cameraMatrix(eye, centre, north, Math.PI / 4, 1.6);
    expect(project(matrix, ecef[mid]!).w).toBeGreaterThan(0);
  });

  it('a screen box selects exactly the points whose projection falls inside it', () => {
    const edit: ClassEdit = { region: { kind: 'screen', matrix, polygon: box }, toClass: 6 };
    const r = applyClassEdits(cloud, crs, [edit]);
    const expected: number[] = [];
    const byClass: Record<string, number> = {};
    ecef.forEach((p, i) => {
      const c = project(matrix, p);
      if (c.w > 0 && inside(box, c.x, c.y) && classes[i] !== 6) {
        expected.push(i);
        byClass[String(classes[i])] = (byClass[String(classes[i])] ?? 0) + 1;
      }
    });
    expect(expected.length).toBeGreaterThan(1000);
    expect(expected.length).toBeLessThan(cloud.count / 2);
    expect(changedIndices(classes, r.classification)).toEqual(expected);
    for (const i of expected) expect(r.classification[i]).toBe(6);
    expect(r.changed).toEqual([{ total: expected.length, byClass }]);
    // The cloud's own classes are left alone.
    expect(cloud.classification!.slice(0, cloud.count)).toEqual(classes);
  });

  it('a concave screen lasso with a class filter and a height range', () => {
    const edit: ClassEdit = {
      region: { kind: 'screen', matrix, polygon: lasso },
      fromClasses: [1],
      minZ: 5,
      maxZ: 20,
      toClass: 5,
    };
    const r = applyClassEdits(cloud, crs, [edit]);
    const expected = ecef.flatMap((p, i) => {
      const c = project(matrix, p);
      const z = cloud.z[i]!;
      return c.w > 0 && inside(lasso, c.x, c.y) && classes[i] === 1 && z >= 5 && z <= 20 ? [i] : [];
    });
    expect(expected.length).toBeGreaterThan(500);
    expect(changedIndices(classes, r.classification)).toEqual(expected);
    expect(r.changed[0]).toEqual({ total: expected.length, byClass: { '1': expected.length } });
    // Ground points inside the lasso were left as they were.
    const groundInside = ecef.filter((p, i) => {
      const c = project(matrix, p);
      return c.w > 0 && inside(lasso, c.x, c.y) && classes[i] === 2;
    }).length;
    expect(groundInside).toBeGreaterThan(100);
  });

  it('points behind the camera are never selected', () => {
    // The same matrix seen from the other side: every point has w < 0.
    const flipped = matrix.map((v) => -v);
    const r = applyClassEdits(cloud, crs, [{ region: { kind: 'screen', matrix: flipped, polygon: box }, toClass: 6 }]);
    expect(r.changed[0]!.total).toBe(0);
  });

  it('a map polygon selects exactly the points whose longitude and latitude fall inside it', () => {
    let minLon = Infinity;
    let maxLon = -Infinity;
    let minLat = Infinity;
    let maxLat = -Infinity;
    for (const [lon, lat] of lonLat) {
      minLon = Math.min(minLon, lon);
      maxLon = Math.max(maxLon, lon);
      minLat = Math.min(minLat, lat);
      maxLat = Math.max(maxLat, lat);
    }
    const at = (fx: number, fy: number): [number, number] => [
      minLon + fx * (maxLon - minLon),
      minLat + fy * (maxLat - minLat),
    ];
    const polygon = [at(0.1, 0.1), at(0.8, 0.2), at(0.5, 0.45), at(0.9, 0.9), at(0.2, 0.7)];
    const r = applyClassEdits(cloud, crs, [{ region: { kind: 'map', polygon }, fromClasses: [2], toClass: 9 }]);
    const expected = lonLat.flatMap(([lon, lat], i) => (classes[i] === 2 && inside(polygon, lon, lat) ? [i] : []));
    expect(expected.length).toBeGreaterThan(500);
    expect(changedIndices(classes, r.classification)).toEqual(expected);
    expect(r.changed[0]).toEqual({ total: expected.length, byClass: { '2': expected.length } });
  });

  it('two overlapping edits apply in order; a REVERTED one is ignored', () => {
    const first: ClassEdit = { region: { kind: 'screen', matrix, polygon: box }, fromClasses: [1], toClass: 6 };
    const second: ClassEdit = { region: { kind: 'screen', matrix, polygon: lasso }, fromClasses: [6], toClass: 5 };
    const reverted: ClassEdit = { region: { kind: 'screen', matrix, polygon: lasso }, toClass: 18, status: 'REVERTED' };
    const r = applyClassEdits(cloud, crs, [first, reverted, second]);
    const expected = new Uint8Array(classes);
    let firstCount = 0;
    let secondCount = 0;
    ecef.forEach((p, i) => {
      const c = project(matrix, p);
      if (!(c.w > 0)) return;
      if (inside(box, c.x, c.y) && expected[i] === 1) {
        expected[i] = 6;
        firstCount++;
      }
      if (inside(lasso, c.x, c.y) && expected[i] === 6) {
        expected[i] = 5;
        secondCount++;
      }
    });
    expect(firstCount).toBeGreaterThan(1000);
    expect(secondCount).toBeGreaterThan(100);
    expect(secondCount).toBeLessThan(firstCount);
    expect(r.classification).toEqual(expected);
    expect(r.changed).toEqual([
      { total: firstCount, byClass: { '1': firstCount } },
      null,
      { total: secondCount, byClass: { '6': secondCount } },
    ]);
    expect(applyClassEdits(cloud, crs, [first, second]).classification).toEqual(expected);
    expect(changedClasses(classes, r.classification)).toEqual(new Set([1, 5, 6]));
  });
});

describe('edits: validation and dependent products', () => {
  it('accepts the spec list of classes only', () => {
    expect(EDITABLE_CLASSES).toHaveLength(27);
    expect(EDITABLE_CLASSES).not.toContain(8);
    expect(EDITABLE_CLASSES).not.toContain(12);
    const region = {
      kind: 'map',
      polygon: [
        [0, 0],
        [1, 0],
        [0, 1],
      ],
    };
    expect(parseClassEdits([{ region, toClass: 6 }])).toHaveLength(1);
    expect(() => parseClassEdits([{ region, toClass: 8 }])).toThrow(/toClass/);
    expect(() => parseClassEdits({ edits: [{ region, toClass: 6, fromClasses: [29] }] })).toThrow(/fromClasses/);
    expect(() =>
      parseClassEdits([{ region: { kind: 'screen', matrix: [1], polygon: region.polygon }, toClass: 6 }]),
    ).toThrow(/matrix/);
    expect(() => parseClassEdits([{ region: { kind: 'map', polygon: [[0, 0]] }, toClass: 6 }])).toThrow(/polygon/);
  });

  it('a building edit remakes the buildings and the summaries; a ground edit every terrain product', () => {
    expect(productsForClasses(new Set())).toEqual([]);
    const building = productsForClasses(new Set([1, 6]));
    expect(building).toEqual(
      PRODUCTS.map((p) => p.id).filter((id) => ['buildings', 'topographic-map', 'quality', 'report'].includes(id)),
    );
    const vegetation = productsForClasses(new Set([1, 5]));
    for (const id of ['chm', 'tree-tops', 'tree-crowns', 'forest-inventory', 'vegetation-risk', 'tree-fall-risk'])
      expect(vegetation).toContain(id);
    expect(vegetation).not.toContain('dtm');
    expect(vegetation).not.toContain('buildings');
    const ground = productsForClasses(new Set([1, 2]));
    expect(ground).toEqual(PRODUCTS.map((p) => p.id).filter((id) => id !== 'classify'));
    const wires = productsForClasses(new Set([1, 14]));
    for (const id of ['power-lines', 'power-line-buffers', 'vegetation-risk', 'tree-fall-risk'])
      expect(wires).toContain(id);
    expect(wires).not.toContain('chm');
  });
});

describe.skipIf(!hasRealData())('nuage edit-classes', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'nuage-edit-classes-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function cli(args: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(args, { out: (l) => out.push(l), err: (l) => err.push(l) });
    return { code, out: out.join('\n'), err: err.join('\n') };
  }

  it('writes the edited cloud: only the selected points change class', async () => {
    const input = realFile('MixedConifer.laz');
    const { cloud, crs } = await loadCloud(input);
    const lonLat = referenceLonLat(cloud, crs);
    const lons = lonLat.map((p) => p[0]).sort((a, b) => a - b);
    const lats = lonLat.map((p) => p[1]).sort((a, b) => a - b);
    // Quantiles of the points, moved off them (≈ 1 cm) so that no edge runs through a point.
    const q = (v: number[], f: number) => v[Math.floor(f * (v.length - 1))]! + 1.234e-7;
    const polygon: Array<[number, number]> = [
      [q(lons, 0.2), q(lats, 0.2)],
      [q(lons, 0.6), q(lats, 0.2)],
      [q(lons, 0.6), q(lats, 0.7)],
      [q(lons, 0.2), q(lats, 0.7)],
    ];
    const edits = path.join(dir, 'edits.json');
    await writeFile(
      edits,
      JSON.stringify({ edits: [{ region: { kind: 'map', polygon }, fromClasses: [1], toClass: 6 }] }),
    );
    const out = path.join(dir, 'edited.las');
    const r = await cli(['edit-classes', input, out, '--edits', edits, '--json']);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const expected = lonLat.flatMap(([lon, lat], i) =>
      cloud.classification![i] === 1 && inside(polygon, lon, lat) ? [i] : [],
    );
    expect(expected.length).toBeGreaterThan(1000);
    expect(JSON.parse(r.out)).toEqual({
      points: cloud.count,
      edits: [{ total: expected.length, byClass: { '1': expected.length } }],
    });
    const edited = await loadCloud(out);
    expect(edited.cloud.count).toBe(cloud.count);
    expect(changedIndices(cloud.classification!.slice(0, cloud.count), edited.cloud.classification!)).toEqual(expected);
    for (const i of expected) expect(edited.cloud.classification![i]).toBe(6);
    // Same points, same extra bytes.
    expect(edited.cloud.x).toEqual(cloud.x.slice(0, cloud.count));
    expect(edited.cloud.extra?.treeID).toEqual(cloud.extra?.treeID?.slice(0, cloud.count));
  });

  it('refuses an edits file with a class off the spec list, naming it', async () => {
    const edits = path.join(dir, 'bad.json');
    await writeFile(
      edits,
      JSON.stringify([
        {
          region: {
            kind: 'map',
            polygon: [
              [0, 0],
              [1, 0],
              [0, 1],
            ],
          },
          toClass: 12,
        },
      ]),
    );
    const r = await cli(['edit-classes', realFile('MixedConifer.laz'), path.join(dir, 'x.las'), '--edits', edits]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/toClass/);
  });
});
