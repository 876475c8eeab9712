import type { ProductDefinition } from '../core/product.js';
import { PRODUCTS } from '../products/registry.js';

/**
 * Products that read points of a class directly (their followers come from
 * the registry's `needs`): ground makes the terrain, vegetation the canopy
 * and trees, buildings the footprints, wires and towers the power lines;
 * noise is left out of the surface and the canopy.
 */
const READERS_OF_CLASS: ReadonlyArray<[readonly number[], readonly string[]]> = [
  [[2], ['dtm']],
  [
    [3, 4, 5],
    ['chm', 'tree-tops', 'vegetation-risk', 'tree-fall-risk'],
  ],
  [[6], ['buildings']],
  [
    [13, 14, 15, 16],
    ['power-lines', 'power-line-buffers', 'vegetation-risk', 'tree-fall-risk'],
  ],
  [
    [7, 18],
    ['dsm', 'chm'],
  ],
];

/** Products remade after any classification change: they sum up the whole cloud. */
export const ALWAYS_REMADE: readonly string[] = ['topographic-map', 'quality', 'report'];

/**
 * The products to make again when points of `classes` changed class (old and
 * new classes): those reading these classes, everything that needs them
 * (transitively, through the registry), and {@link ALWAYS_REMADE}. The
 * classified cloud itself is never in the list (the caller writes it).
 *
 * @example
 * productsForClasses(new Set([5, 6])); // ['buildings', 'topographic-map', 'quality', 'report'] for a 5 → 6 edit
 */
export function productsForClasses(
  classes: ReadonlySet<number>,
  registry: readonly ProductDefinition[] = PRODUCTS,
): string[] {
  if (classes.size === 0) return [];
  const out = new Set<string>(ALWAYS_REMADE);
  for (const [codes, ids] of READERS_OF_CLASS) {
    if (codes.some((c) => classes.has(c))) for (const id of ids) out.add(id);
  }
  let grew = true;
  while (grew) {
    grew = false;
    for (const p of registry) {
      if (!out.has(p.id) && p.needs.some((n) => n !== 'classify' && out.has(n))) {
        out.add(p.id);
        grew = true;
      }
    }
  }
  return registry.filter((p) => p.id !== 'classify' && out.has(p.id)).map((p) => p.id);
}
