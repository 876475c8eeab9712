/**
 * The flat form of product values as they cross to and from lane threads
 * (product-lanes.ts). A structured clone walks every object of a value each
 * time it is posted: the contours' thousands of lines (each a small
 * Float64Array), the crowns' rings (number[][]), the tree tops' records. Here
 * a value is packed once, where it is made: an array of like items becomes
 * columns (one shared Float64Array for the numbers of every record, one for
 * the coordinates of every line, with offsets), so that posting it costs a few
 * shared buffers whatever its size. The thread that reads the value unpacks
 * it: records and number arrays are rebuilt there, typed arrays become views
 * of the shared columns (never copied). {@link unpackValue} ∘ {@link packValue}
 * gives back an equal value: the same keys in the same order, the same numbers
 * (-0 and NaN included), the same typed array classes.
 */

/** Typed arrays at least this large are moved to shared memory before they cross to a lane. */
export const SHARE_BYTES = 1 << 16;

/** Arrays shorter than this are not turned into columns (their shared buffers would cost more than they save). */
const MIN_COLUMN_ITEMS = 4;

/** Key marking an object of the packed form (a packed array, or an object of the value that has this key itself). */
const TAG = '__nuagePacked';

type AnyTypedArray =
  | Int8Array
  | Uint8Array
  | Uint8ClampedArray
  | Int16Array
  | Uint16Array
  | Int32Array
  | Uint32Array
  | Float32Array
  | Float64Array
  | BigInt64Array
  | BigUint64Array;

type TypedArrayClass = {
  new (buffer: ArrayBufferLike, byteOffset?: number, length?: number): AnyTypedArray;
  readonly BYTES_PER_ELEMENT: number;
};

/** The typed array classes a column may hold, by name (the name crosses threads, the class does not). */
const TYPED_ARRAYS: Record<string, TypedArrayClass> = {
  Int8Array,
  Uint8Array,
  Uint8ClampedArray,
  Int16Array,
  Uint16Array,
  Int32Array,
  Uint32Array,
  Float32Array,
  Float64Array,
  BigInt64Array,
  BigUint64Array,
};

/** One column: the values of an array, or of one key of an array of records. */
type Column =
  | { k: 'num'; d: Float64Array }
  | { k: 'bool'; d: Uint8Array }
  | { k: 'str'; dict: string[]; d: Uint32Array }
  /** Typed arrays of one class, end to end in `d`; item i is `d[o[i]..o[i+1])`. */
  | { k: 'ta'; type: string; d: AnyTypedArray; o: Float64Array }
  /** Arrays: item i is `items[o[i]..o[i+1])` of the column `c` of every element, end to end. */
  | { k: 'arr'; o: Float64Array; c: Column }
  /** Plain objects with the same keys, in the same order: one column per key. */
  | { k: 'rec'; keys: string[]; cols: Column[] }
  /** Some items null or undefined (`m`: 0 null, 1 undefined, 2 an item of `c`). */
  | { k: 'opt'; m: Uint8Array; c: Column }
  /** Anything else: the items one by one, each packed as a node. */
  | { k: 'any'; v: unknown[] };

/** A packed array in the tree of a packed value. */
interface PackedArray {
  [TAG]: 'col';
  n: number;
  c: Column;
}

/** An object of the value that has the {@link TAG} key itself, escaped. */
interface EscapedObject {
  [TAG]: 'obj';
  v: Record<string, unknown>;
}

/** A value in its flat form: what {@link packValue} returns and {@link unpackValue} reads. */
export interface PackedValue {
  [TAG]: 'value';
  root: unknown;
  /** `root` is the value itself (it has a cycle), its large typed arrays shared. */
  raw?: true;
}

function sharedArray<T extends AnyTypedArray>(Ctor: TypedArrayClass, length: number): T {
  return new Ctor(new SharedArrayBuffer(length * Ctor.BYTES_PER_ELEMENT)) as T;
}

function isTypedArray(v: object): v is AnyTypedArray {
  return ArrayBuffer.isView(v) && !(v instanceof DataView);
}

function isPlainObject(v: object): v is Record<string, unknown> {
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** A typed array moved to shared memory when large (the view alone, not its whole buffer), else as it is. */
function sharedCopy(a: AnyTypedArray): AnyTypedArray {
  if (a.buffer instanceof SharedArrayBuffer || a.byteLength < SHARE_BYTES) return a;
  const Ctor = a.constructor as TypedArrayClass;
  const s = sharedArray<AnyTypedArray>(Ctor, a.length);
  (s as Uint8Array).set(a as Uint8Array);
  return s;
}

/** While a value is packed: the shared copy of each large typed array met (one copy for an array met twice). */
let copies = new Map<AnyTypedArray, AnyTypedArray>();
/** While a value is packed: the objects and arrays from the root to the node packed (a cycle cannot be flattened). */
let onPath = new Set<object>();

class Cycle extends Error {}

function shareLarge(a: AnyTypedArray): AnyTypedArray {
  let s = copies.get(a);
  if (!s) {
    s = sharedCopy(a);
    if (s !== a) copies.set(a, s);
  }
  return s;
}

/** `pack` of `v`, refusing a cycle through it. */
function entering<T>(v: object, pack: () => T): T {
  if (onPath.has(v)) throw new Cycle();
  onPath.add(v);
  try {
    return pack();
  } finally {
    onPath.delete(v);
  }
}

/** What kind of item `v` is, for columns: items of one kind (nulls aside) make a column of that kind. */
function kindOf(v: unknown): string {
  switch (typeof v) {
    case 'number':
      return 'num';
    case 'boolean':
      return 'bool';
    case 'string':
      return 'str';
    case 'object': {
      if (v === null) return 'null';
      // An item that holds the array it is in: a cycle.
      if (onPath.has(v)) throw new Cycle();
      if (Array.isArray(v)) return 'arr';
      // Shared arrays are shared already: a column of them is made only of views laid end to end in one
      // shared buffer (the buffer itself, not a copy; see packKind), never by copying them (held twice).
      if (isTypedArray(v)) return `ta:${v.constructor.name}`;
      return isPlainObject(v) && !(TAG in v) ? 'rec' : 'other';
    }
    case 'undefined':
      return 'undef';
    default:
      return 'other';
  }
}

/** Columns within columns while a value is packed: deeper than {@link MAX_DEPTH}, records of records... loop. */
let depth = 0;
const MAX_DEPTH = 200;

/** The column of `items` (any array, holes read as undefined: only a column of kind `any` keeps them, as holes). */
function packColumn(items: readonly unknown[]): Column {
  if (++depth > MAX_DEPTH) throw new Cycle();
  try {
    return columnOf(items);
  } finally {
    depth--;
  }
}

function columnOf(items: readonly unknown[]): Column {
  const n = items.length;
  let kind: string | null = null;
  let nullish = false;
  for (let i = 0; i < n; i++) {
    const k = kindOf(items[i]);
    if (k === 'null' || k === 'undef') {
      nullish = true;
      continue;
    }
    if (kind === null) kind = k;
    else if (kind !== k) return anyColumn(items);
  }
  if (kind === null || kind === 'other') return anyColumn(items);
  // A hole is not undefined to a structured clone: keep such arrays as they are.
  if (nullish && hasHoles(items)) return anyColumn(items);
  if (nullish) {
    const m = sharedArray<Uint8Array>(Uint8Array, n);
    const present: unknown[] = [];
    for (let i = 0; i < n; i++) {
      const v = items[i];
      if (v === null) m[i] = 0;
      else if (v === undefined) m[i] = 1;
      else {
        m[i] = 2;
        present.push(v);
      }
    }
    const c = packKind(kind, present);
    return c ? { k: 'opt', m, c } : anyColumn(items);
  }
  return packKind(kind, items) ?? anyColumn(items);
}

function hasHoles(items: readonly unknown[]): boolean {
  for (let i = 0; i < items.length; i++) if (!(i in items)) return true;
  return false;
}

function anyColumn(items: readonly unknown[]): Column {
  return { k: 'any', v: items.map(packNode) };
}

/** The column of items all of kind `kind` (none null), or null when they do not make one. */
function packKind(kind: string, items: readonly unknown[]): Column | null {
  const n = items.length;
  if (kind === 'num') {
    const d = sharedArray<Float64Array>(Float64Array, n);
    for (let i = 0; i < n; i++) d[i] = items[i] as number;
    return { k: 'num', d };
  }
  if (kind === 'bool') {
    const d = sharedArray<Uint8Array>(Uint8Array, n);
    for (let i = 0; i < n; i++) d[i] = items[i] ? 1 : 0;
    return { k: 'bool', d };
  }
  if (kind === 'str') {
    const index = new Map<string, number>();
    const dict: string[] = [];
    const d = sharedArray<Uint32Array>(Uint32Array, n);
    for (let i = 0; i < n; i++) {
      const s = items[i] as string;
      let at = index.get(s);
      if (at === undefined) {
        at = dict.length;
        index.set(s, at);
        dict.push(s);
      }
      d[i] = at;
    }
    return { k: 'str', dict, d };
  }
  if (kind.startsWith('ta:')) {
    const type = kind.slice(3);
    const Ctor = TYPED_ARRAYS[type];
    if (!Ctor) return null;
    const o = sharedArray<Float64Array>(Float64Array, n + 1);
    let total = 0;
    for (let i = 0; i < n; i++) {
      o[i] = total;
      total += (items[i] as AnyTypedArray).length;
    }
    o[n] = total;
    const first = items[0] as AnyTypedArray;
    if (first.buffer instanceof SharedArrayBuffer) {
      // Views of one shared buffer, end to end (contour lines moved there by their product): that buffer.
      const base = first.byteOffset;
      for (let i = 0; i < n; i++) {
        const a = items[i] as AnyTypedArray;
        if (a.buffer !== first.buffer || a.byteOffset !== base + o[i]! * Ctor.BYTES_PER_ELEMENT) return null;
      }
      return { k: 'ta', type, d: new Ctor(first.buffer, base, total) as AnyTypedArray, o };
    }
    for (let i = 0; i < n; i++) if ((items[i] as AnyTypedArray).buffer instanceof SharedArrayBuffer) return null;
    const d = sharedArray<AnyTypedArray>(Ctor, total);
    for (let i = 0; i < n; i++) (d as Uint8Array).set(items[i] as Uint8Array, o[i]!);
    return { k: 'ta', type, d, o };
  }
  if (kind === 'arr') {
    const o = sharedArray<Float64Array>(Float64Array, n + 1);
    let total = 0;
    for (let i = 0; i < n; i++) {
      const a = items[i] as unknown[];
      o[i] = total;
      total += a.length;
    }
    o[n] = total;
    const all: unknown[] = new Array(total);
    for (let i = 0, at = 0; i < n; i++) {
      const a = items[i] as unknown[];
      // Holes would become undefined in the concatenation.
      for (let j = 0; j < a.length; j++) {
        if (!(j in a)) return null;
        all[at++] = a[j];
      }
    }
    return { k: 'arr', o, c: packColumn(all) };
  }
  if (kind === 'rec') {
    const keys = Object.keys(items[0] as object);
    for (let i = 1; i < n; i++) {
      const other = Object.keys(items[i] as object);
      if (other.length !== keys.length) return null;
      for (let j = 0; j < keys.length; j++) if (other[j] !== keys[j]) return null;
    }
    const cols = keys.map((key) => packColumn(items.map((r) => (r as Record<string, unknown>)[key])));
    return { k: 'rec', keys, cols };
  }
  return null;
}

/** A node of the packed form: arrays of like items as columns, plain objects entered, large typed arrays shared. */
function packNode(v: unknown): unknown {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) {
    return entering(v, () => {
      if (v.length >= MIN_COLUMN_ITEMS) {
        const c = packColumn(v);
        if (c.k !== 'any') return { [TAG]: 'col', n: v.length, c } satisfies PackedArray;
        return c.v;
      }
      return v.map(packNode);
    });
  }
  if (isTypedArray(v)) return shareLarge(v);
  // Objects of classes, maps, sets... cross as a structured clone takes them.
  if (!isPlainObject(v)) return v;
  return entering(v, () => {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(v)) out[key] = packNode(v[key]);
    return TAG in v ? ({ [TAG]: 'obj', v: out } satisfies EscapedObject) : out;
  });
}

function unpackColumn(c: Column, n: number): unknown[] {
  switch (c.k) {
    case 'num':
      return Array.from(c.d);
    case 'bool':
      return Array.from(c.d, (b) => b === 1);
    case 'str':
      return Array.from(c.d, (i) => c.dict[i]);
    case 'ta': {
      const Ctor = TYPED_ARRAYS[c.type]!;
      const out: unknown[] = new Array(n);
      const { d, o } = c;
      const bytes = Ctor.BYTES_PER_ELEMENT;
      for (let i = 0; i < n; i++) out[i] = new Ctor(d.buffer, d.byteOffset + o[i]! * bytes, o[i + 1]! - o[i]!);
      return out;
    }
    case 'arr': {
      // Slices are allocated at their size (arrays grown by push keep room for 17 items: a point [x, y] would take 8 times its size).
      const all = unpackColumn(c.c, c.o[n]!);
      const out: unknown[] = new Array(n);
      for (let i = 0; i < n; i++) out[i] = all.slice(c.o[i]!, c.o[i + 1]!);
      return out;
    }
    case 'rec': {
      const cols = c.cols.map((col) => unpackColumn(col, n));
      const { keys } = c;
      const out: unknown[] = new Array(n);
      for (let i = 0; i < n; i++) {
        const r: Record<string, unknown> = {};
        for (let j = 0; j < keys.length; j++) r[keys[j]!] = cols[j]![i];
        out[i] = r;
      }
      return out;
    }
    case 'opt': {
      let present = 0;
      for (let i = 0; i < n; i++) if (c.m[i] === 2) present++;
      const items = unpackColumn(c.c, present);
      const out: unknown[] = new Array(n);
      for (let i = 0, at = 0; i < n; i++) {
        const m = c.m[i];
        out[i] = m === 0 ? null : m === 1 ? undefined : items[at++];
      }
      return out;
    }
    case 'any':
      return c.v.map(unpackNode);
  }
}

function unpackNode(v: unknown): unknown {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map(unpackNode);
  if (!isPlainObject(v)) return v;
  const tag = v[TAG];
  if (tag === 'col') {
    const packed = v as unknown as PackedArray;
    return unpackColumn(packed.c, packed.n);
  }
  const fields = tag === 'obj' ? (v as unknown as EscapedObject).v : v;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(fields)) out[key] = unpackNode(fields[key]);
  return out;
}

/** Whether `v` is a value in its flat form. */
export function isPacked(v: unknown): v is PackedValue {
  return typeof v === 'object' && v !== null && (v as Record<string, unknown>)[TAG] === 'value';
}

/**
 * The flat form of a product value, to post to other threads at the cost of a
 * few shared buffers: arrays of like items become shared columns, large typed
 * arrays move to shared memory (once). Objects of classes are kept as they are;
 * a value packed already is returned as it is. `value` itself is not changed.
 *
 * @example
 * const packed = packValue({ lines, crs }); // then posted to every lane that reads the contours
 */
export function packValue(value: unknown): PackedValue {
  if (isPacked(value)) return value;
  copies = new Map();
  onPath = new Set();
  depth = 0;
  try {
    return { [TAG]: 'value', root: packNode(value) };
  } catch (error) {
    if (!(error instanceof Cycle)) throw error;
    // A value with a cycle crosses as a structured clone takes it, its large typed arrays shared.
    return { [TAG]: 'value', root: shareTypedArrays(value), raw: true };
  } finally {
    copies = new Map();
    onPath = new Set();
  }
}

/**
 * The value a {@link packValue} packed (a value not packed is returned as it
 * is): records and arrays rebuilt, typed arrays as views of the shared
 * columns. Each call rebuilds them anew.
 */
export function unpackValue<T = unknown>(value: unknown): T {
  if (!isPacked(value)) return value as T;
  return (value.raw ? value.root : unpackNode(value.root)) as T;
}

/**
 * Replaces, in place, every large typed array held by `value` (in plain
 * objects and arrays, at any depth) by a copy in shared memory, once: the
 * value then crosses to any thread without a copy. Arrays already shared are
 * left as they are; objects of classes are not entered.
 */
export function shareTypedArrays(value: unknown, seen = new Set<object>()): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (isTypedArray(value)) return sharedCopy(value);
  if (seen.has(value)) return value;
  if (Array.isArray(value)) {
    // An array of plain values (a point [x, y], a ring's numbers) holds nothing to share: not even remembered.
    let leaf = true;
    for (let i = 0; i < value.length && leaf; i++) {
      const v = value[i];
      if (v !== null && typeof v === 'object') leaf = false;
    }
    if (leaf) return value;
    seen.add(value);
    for (let i = 0; i < value.length; i++) {
      const v = value[i];
      if (v !== null && typeof v === 'object') value[i] = shareTypedArrays(v, seen);
    }
    return value;
  }
  if (!isPlainObject(value)) return value;
  // Remembered (against cycles) only when it holds objects: a tree top's numbers are not.
  let entered = false;
  for (const key of Object.keys(value)) {
    const v = value[key];
    if (v === null || typeof v !== 'object') continue;
    if (!entered) {
      seen.add(value);
      entered = true;
    }
    value[key] = shareTypedArrays(v, seen);
  }
  return value;
}
