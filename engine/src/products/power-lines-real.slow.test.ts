import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { hasRealData, realFile } from '@nuage/fixtures/real-data.js';
import { describe, expect, it } from 'vitest';
import { processingOptionsSchema } from './options.js';
import type { PowerLinesValue } from './power-lines.product.js';
import type { ClassifiedCloud } from './product-values.js';
import { runProducts } from './run-products.js';
import type { TreeFallRiskValue } from './tree-fall-risk.product.js';
import type { VegetationRiskValue } from './vegetation-risk.product.js';

const POWER_PRODUCTS = ['power-lines', 'power-line-buffers', 'vegetation-risk', 'tree-fall-risk'];

async function run(file: string, products: string[], epsg?: number, vendorWireClasses?: 'KEEP' | 'FIND') {
  const values = new Map<string, unknown>();
  const outcome = await runProducts({
    input: { path: realFile(file), ...(epsg === undefined ? {} : { epsg }) },
    options: processingOptionsSchema.parse({ products, ...(vendorWireClasses ? { vendorWireClasses } : {}) }),
    outDir: mkdtempSync(path.join(tmpdir(), `nuage-pl-${file}-`)),
    hooks: { finished: async (p, r) => void values.set(p.id, r.value) },
  });
  return { ...outcome, values };
}

describe.runIf(hasRealData())('power-line products on real files', () => {
  it('vectorises the AHN corridor: two circuits of four wires, one pylon, trees under the line', async () => {
    const { runs, values, manifest } = await run('ahn_corridor_12AN2_20.laz', POWER_PRODUCTS, 28992);
    for (const id of POWER_PRODUCTS) expect(runs.find((r) => r.id === id)?.status, id).toBe('READY');
    const lines = values.get('power-lines') as PowerLinesValue;
    // Measured: 16 conductors in 2 spans (8 wires: 2 × 3 phases and 2 earth wires, each side of the
    // pylon), 2541.8 m in all, fit RMS 0.041–0.053 m, lowest conductor 13.07 m above ground, pylon 41.5 m.
    expect(lines.figures).toMatchObject({ conductors: 16, spans: 2, towers: 1 });
    expect(lines.towers[0]!.height).toBeGreaterThan(38);
    expect(lines.towers[0]!.height).toBeLessThan(45);
    const long = lines.conductors.filter((c) => c.spanId === 2);
    expect(long).toHaveLength(8);
    for (const c of long) {
      // From the pylon to the end of the 330 m crop.
      expect(c.ends[0]).toBe('tower');
      expect(c.length).toBeGreaterThan(280);
      expect(c.length).toBeLessThan(330);
      expect(c.fit.model).toBe('catenary');
      // One tension on every wire of the span: catenary parameters within 20 % of each other.
      expect(c.fit.a).toBeGreaterThan(1500);
      expect(c.fit.a).toBeLessThan(2100);
    }
    for (const c of lines.conductors) expect(c.fitRmse).toBeLessThan(0.08);
    expect(lines.figures.minClearanceM).toBeGreaterThan(12);
    expect(lines.figures.minClearanceM).toBeLessThan(15);
    expect(lines.figures.totalLengthM).toBeGreaterThan(2400);
    expect(lines.figures.totalLengthM).toBeLessThan(2700);
    // The dataset moved tall trees under the line: they reach the conductors.
    const risk = values.get('vegetation-risk') as VegetationRiskValue;
    expect(risk.figures.clustersPerZone['1']).toBeGreaterThanOrEqual(3);
    expect(risk.clusters[0]!.minDistance).toBeLessThan(0.5);
    const fall = values.get('tree-fall-risk') as TreeFallRiskValue;
    expect(fall.figures.treesAtRisk).toBeGreaterThan(10);
    expect(fall.figures.treesReachingConductor).toBeGreaterThan(0);
    expect(manifest.artifacts.find((a) => a.type === 'POWER_LINE')?.count).toBe(17);
  }, 120_000);

  it('finds the AHN corridor’s wires again when asked to (vendorWireClasses FIND), as the vendor labelled them', async () => {
    const kept = await run('ahn_corridor_12AN2_20.laz', ['classify'], 28992);
    expect(kept.manifest.products.find((p) => p.id === 'classify')?.figures).toMatchObject({ vendorWiresKept: true });
    const { values, manifest } = await run('ahn_corridor_12AN2_20.laz', ['power-lines'], 28992, 'FIND');
    expect(manifest.products.find((p) => p.id === 'classify')?.figures).toMatchObject({ vendorWiresKept: false });
    const { cloud, vendor } = values.get('classify') as ClassifiedCloud;
    let both = 0;
    let ours = 0;
    let theirs = 0;
    for (let i = 0; i < cloud.count; i++) {
      const a = cloud.classification![i] === 14;
      const b = vendor![i] === 14;
      both += a && b ? 1 : 0;
      ours += a ? 1 : 0;
      theirs += b ? 1 : 0;
    }
    // Measured: F1 0.961 against the vendor's conductors (issue 15 asks for 0.93); not 1: these are ours.
    const f1 = (2 * both) / (ours + theirs);
    expect(f1).toBeGreaterThan(0.93);
    expect(f1).toBeLessThan(1);
    expect((values.get('power-lines') as PowerLinesValue).figures.towers).toBeGreaterThanOrEqual(1);
  }, 180_000);

  it('vectorises the unlabelled transmission lines of wires.laz from the classifier’s wires', async () => {
    const { runs, values } = await run('wires.laz', ['power-lines']);
    expect(runs.find((r) => r.id === 'power-lines')?.status).toBe('READY');
    const lines = values.get('power-lines') as PowerLinesValue;
    // Measured: 19 conductors in 7 spans (two parallel three-phase lines), 6948 m, fit RMS
    // 0.16–0.23 m (bundled conductors), lowest conductor 13.3 m above ground, 3 towers
    // labelled and 2 supports found where conductors meet end to end.
    expect(lines.figures.conductors).toBeGreaterThanOrEqual(18);
    expect(lines.figures.spans).toBeGreaterThanOrEqual(6);
    expect(lines.towers.filter((t) => !t.inferred).length).toBe(3);
    expect(lines.towers.filter((t) => t.inferred).length).toBeGreaterThanOrEqual(1);
    expect(lines.figures.medianFitRmseM!).toBeLessThan(0.25);
    expect(lines.figures.totalLengthM).toBeGreaterThan(6500);
    expect(lines.figures.minClearanceM).toBeGreaterThan(10);
    // A full span, tower to tower: about 430 m, sagging about 15 m.
    const full = lines.conductors.filter((c) => c.ends[0] === 'tower' && c.ends[1] === 'tower');
    expect(full.length).toBeGreaterThanOrEqual(3);
    for (const c of full) {
      expect(c.length).toBeGreaterThan(400);
      expect(c.sag).toBeGreaterThan(10);
      expect(c.sag).toBeLessThan(20);
    }
    for (const c of lines.conductors.filter((k) => k.length > 300)) {
      expect(c.fit.a).toBeGreaterThan(1400);
      expect(c.fit.a).toBeLessThan(1800);
    }
  }, 120_000);

  it('gives empty power-line products, not failures, for fusa.laz (no wires)', async () => {
    const { runs, manifest } = await run('fusa.laz', POWER_PRODUCTS);
    for (const id of POWER_PRODUCTS) expect(runs.find((r) => r.id === id)?.status, id).toBe('READY');
    const counts = Object.fromEntries(manifest.artifacts.map((a) => [a.type, a.count]));
    expect(counts).toMatchObject({ POWER_LINE: 0, POWER_LINE_BUFFERS: 0, VEGETATION_RISK: 0, TREE_FALL_RISK: 0 });
    expect(runs.find((r) => r.id === 'power-lines')!.figures).toMatchObject({ conductors: 0, wirePoints: 0 });
  }, 120_000);
});
