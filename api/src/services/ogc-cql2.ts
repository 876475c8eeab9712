/**
 * A CQL2 text parser for OGC API - Features Part 3 filters on feature
 * properties: comparisons (=, <>, <, <=, >, >=), LIKE, BETWEEN, IN, IS NULL,
 * AND, OR, NOT and parentheses, with string ('it''s'), number and boolean
 * literals. Property names are identifiers or "double quoted". Spatial and
 * temporal predicates and functions are refused with a message saying so.
 *
 * The parser only builds a tree: the SQL is made from it elsewhere
 * (features.queries.ts), with every value a bound parameter and every
 * property checked against the collection's queryables first.
 *
 * @example
 * parseCql2('height > 20 AND kind = \'major\'');
 * // { kind: 'and', args: [{ kind: 'compare', op: '>', property: 'height', value: 20 }, ...] }
 */

export type Cql2Literal = string | number | boolean;
export type Cql2CompareOp = '=' | '<>' | '<' | '<=' | '>' | '>=';

export type Cql2Expr =
  | { kind: 'and' | 'or'; args: Cql2Expr[] }
  | { kind: 'not'; arg: Cql2Expr }
  | { kind: 'compare'; op: Cql2CompareOp; property: string; value: Cql2Literal }
  | { kind: 'like'; property: string; pattern: string }
  | { kind: 'between'; property: string; low: number; high: number }
  | { kind: 'in'; property: string; values: Cql2Literal[] }
  | { kind: 'isNull'; property: string };

/** A filter that is not CQL2 text this server understands; `position` is the character where it went wrong. */
export class Cql2Error extends Error {
  constructor(
    message: string,
    readonly position: number,
  ) {
    super(message);
    this.name = 'Cql2Error';
  }
}

/** Longest filter accepted (characters). */
export const MAX_FILTER_LENGTH = 4000;
const MAX_DEPTH = 32;
const MAX_IN_VALUES = 500;

type Token =
  | { t: 'ident'; v: string; pos: number; quoted: boolean }
  | { t: 'string'; v: string; pos: number }
  | { t: 'number'; v: number; pos: number }
  | { t: 'op'; v: string; pos: number }
  | { t: 'eof'; pos: number };

const KEYWORDS = new Set(['AND', 'OR', 'NOT', 'LIKE', 'BETWEEN', 'IN', 'IS', 'NULL', 'TRUE', 'FALSE']);
const SPATIAL_OR_TEMPORAL =
  /^(S_|T_|A_)|^(CASEI|ACCENTI|DATE|TIMESTAMP|INTERVAL|POINT|LINESTRING|POLYGON|MULTIPOINT|MULTILINESTRING|MULTIPOLYGON|GEOMETRYCOLLECTION|BBOX|ENVELOPE)$/i;

/** A sign starts a number only where a value is expected: first, or after an operator or a keyword. */
function signAllowed(prev: Token | undefined): boolean {
  if (!prev || prev.t === 'op') return true;
  return prev.t === 'ident' && !prev.quoted && KEYWORDS.has(prev.v.toUpperCase());
}

function tokenize(text: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    const start = i;
    if (ch === "'") {
      let v = '';
      i++;
      for (;;) {
        if (i >= text.length) throw new Cql2Error('a string is not closed (missing quote)', start);
        if (text[i] === "'") {
          if (text[i + 1] === "'") {
            v += "'";
            i += 2;
            continue;
          }
          i++;
          break;
        }
        v += text[i];
        i++;
      }
      out.push({ t: 'string', v, pos: start });
      continue;
    }
    if (ch === '"') {
      let v = '';
      i++;
      for (;;) {
        if (i >= text.length) throw new Cql2Error('a quoted property name is not closed', start);
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            v += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        v += text[i];
        i++;
      }
      if (v === '') throw new Cql2Error('an empty property name', start);
      out.push({ t: 'ident', v, pos: start, quoted: true });
      continue;
    }
    const num = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?/.exec(text.slice(i));
    if (num && (ch !== '-' && ch !== '+' ? true : signAllowed(out[out.length - 1]))) {
      const v = Number(num[0]);
      if (!Number.isFinite(v)) throw new Cql2Error(`${num[0]} is not a finite number`, start);
      out.push({ t: 'number', v, pos: start });
      i += num[0].length;
      continue;
    }
    const ident = /^[A-Za-z_][A-Za-z0-9_.:]*/.exec(text.slice(i));
    if (ident) {
      out.push({ t: 'ident', v: ident[0], pos: start, quoted: false });
      i += ident[0].length;
      continue;
    }
    const op = /^(<>|<=|>=|!=|[=<>(),])/.exec(text.slice(i));
    if (op) {
      if (op[0] === '!=') throw new Cql2Error('CQL2 writes "not equal" as <>', start);
      out.push({ t: 'op', v: op[0], pos: start });
      i += op[0].length;
      continue;
    }
    throw new Cql2Error(`unexpected character ${JSON.stringify(ch)}`, start);
  }
  out.push({ t: 'eof', pos: text.length });
  return out;
}

const isKeyword = (tok: Token, word: string) => tok.t === 'ident' && !tok.quoted && tok.v.toUpperCase() === word;

function describe(tok: Token): string {
  switch (tok.t) {
    case 'eof':
      return 'the end of the filter';
    case 'string':
      return `'${tok.v}'`;
    case 'number':
      return String(tok.v);
    default:
      return JSON.stringify(tok.v);
  }
}

/**
 * Parses CQL2 text into a tree; throws {@link Cql2Error} for anything else.
 */
export function parseCql2(text: string): Cql2Expr {
  if (text.length > MAX_FILTER_LENGTH) throw new Cql2Error(`the filter is longer than ${MAX_FILTER_LENGTH}`, 0);
  const tokens = tokenize(text);
  let k = 0;
  const peek = () => tokens[k]!;
  const next = () => tokens[k++]!;
  const fail = (what: string, tok = peek()): never => {
    throw new Cql2Error(`${what}, found ${describe(tok)}`, tok.pos);
  };

  const literal = (): Cql2Literal => {
    const tok = next();
    if (tok.t === 'string' || tok.t === 'number') return tok.v;
    if (isKeyword(tok, 'TRUE')) return true;
    if (isKeyword(tok, 'FALSE')) return false;
    return fail('expected a value (a number, a quoted string, TRUE or FALSE)', tok);
  };

  const number = (): number => {
    const tok = next();
    if (tok.t !== 'number') fail('expected a number', tok);
    return (tok as { v: number }).v;
  };

  /** A property name, or null when the token is not one (a value or a keyword). */
  const propertyAt = (tok: Token): string | null => {
    if (tok.t !== 'ident') return null;
    if (!tok.quoted && KEYWORDS.has(tok.v.toUpperCase())) return null;
    return tok.v;
  };

  const checkNotFunction = (tok: Token) => {
    if (tokens[k]?.t === 'op' && (tokens[k] as { v: string }).v === '(' && tok.t === 'ident' && !tok.quoted) {
      const hint = SPATIAL_OR_TEMPORAL.test(tok.v) ? ' (spatial and temporal filters are not supported: use bbox)' : '';
      throw new Cql2Error(`functions such as ${tok.v}() are not supported${hint}`, tok.pos);
    }
  };

  const predicate = (): Cql2Expr => {
    const first = next();
    checkNotFunction(first);
    const property = propertyAt(first);
    if (property !== null) {
      let negated = false;
      if (isKeyword(peek(), 'NOT')) {
        next();
        negated = true;
      }
      const tok = peek();
      const wrap = (e: Cql2Expr): Cql2Expr => (negated ? { kind: 'not', arg: e } : e);
      if (isKeyword(tok, 'LIKE')) {
        next();
        const p = next();
        if (p.t !== 'string') fail('LIKE needs a quoted pattern', p);
        return wrap({ kind: 'like', property, pattern: (p as { v: string }).v });
      }
      if (isKeyword(tok, 'BETWEEN')) {
        next();
        const low = number();
        if (!isKeyword(next(), 'AND')) fail('expected AND in BETWEEN … AND …', tokens[k - 1]);
        const high = number();
        return wrap({ kind: 'between', property, low, high });
      }
      if (isKeyword(tok, 'IN')) {
        next();
        if (!(peek().t === 'op' && (peek() as { v: string }).v === '(')) fail('IN needs a list in parentheses');
        next();
        const values: Cql2Literal[] = [literal()];
        while (peek().t === 'op' && (peek() as { v: string }).v === ',') {
          next();
          values.push(literal());
          if (values.length > MAX_IN_VALUES) fail(`IN takes at most ${MAX_IN_VALUES} values`);
        }
        if (!(peek().t === 'op' && (peek() as { v: string }).v === ')')) fail('expected ) closing the IN list');
        next();
        return wrap({ kind: 'in', property, values });
      }
      if (negated) fail('expected LIKE, BETWEEN or IN after NOT');
      if (isKeyword(tok, 'IS')) {
        next();
        let not = false;
        if (isKeyword(peek(), 'NOT')) {
          next();
          not = true;
        }
        if (!isKeyword(next(), 'NULL')) fail('expected NULL after IS', tokens[k - 1]);
        const e: Cql2Expr = { kind: 'isNull', property };
        return not ? { kind: 'not', arg: e } : e;
      }
      const op = next();
      if (op.t !== 'op' || !['=', '<>', '<', '<=', '>', '>='].includes(op.v)) {
        fail('expected a comparison (=, <>, <, <=, >, >=, LIKE, BETWEEN, IN or IS NULL)', op);
      }
      const right = peek();
      checkNotFunction(right);
      if (propertyAt(right) !== null && !isKeyword(right, 'TRUE') && !isKeyword(right, 'FALSE')) {
        fail('compare a property with a value, not with another property', right);
      }
      return { kind: 'compare', op: (op as { v: Cql2CompareOp }).v, property, value: literal() };
    }
    // value op property: turned around so that the property comes first.
    k--;
    const value = literal();
    const op = next();
    if (op.t !== 'op' || !['=', '<>', '<', '<=', '>', '>='].includes(op.v)) {
      fail('expected a comparison (=, <>, <, <=, >, >=)', op);
    }
    const propTok = next();
    checkNotFunction(propTok);
    const prop = propertyAt(propTok);
    if (prop === null) fail('compare a value with a property', propTok);
    const flipped: Record<string, Cql2CompareOp> = { '=': '=', '<>': '<>', '<': '>', '<=': '>=', '>': '<', '>=': '<=' };
    return { kind: 'compare', op: flipped[(op as { v: string }).v]!, property: prop!, value };
  };

  const primary = (depth: number): Cql2Expr => {
    const tok = peek();
    if (tok.t === 'op' && tok.v === '(') {
      next();
      const e = orExpr(depth + 1);
      const close = next();
      if (!(close.t === 'op' && close.v === ')')) fail('expected )', close);
      return e;
    }
    return predicate();
  };

  const factor = (depth: number): Cql2Expr => {
    if (isKeyword(peek(), 'NOT')) {
      next();
      return { kind: 'not', arg: factor(depth + 1) };
    }
    return primary(depth);
  };

  const andExpr = (depth: number): Cql2Expr => {
    const args = [factor(depth)];
    while (isKeyword(peek(), 'AND')) {
      next();
      args.push(factor(depth));
    }
    return args.length === 1 ? args[0]! : { kind: 'and', args };
  };

  function orExpr(depth: number): Cql2Expr {
    if (depth > MAX_DEPTH) fail(`the filter nests deeper than ${MAX_DEPTH} levels`);
    const args = [andExpr(depth)];
    while (isKeyword(peek(), 'OR')) {
      next();
      args.push(andExpr(depth));
    }
    return args.length === 1 ? args[0]! : { kind: 'or', args };
  }

  if (peek().t === 'eof') throw new Cql2Error('the filter is empty', 0);
  const tree = orExpr(0);
  if (peek().t !== 'eof') fail('expected AND, OR or the end of the filter');
  return tree;
}

/** Every property a filter names. */
export function cql2Properties(e: Cql2Expr): string[] {
  switch (e.kind) {
    case 'and':
    case 'or':
      return e.args.flatMap(cql2Properties);
    case 'not':
      return cql2Properties(e.arg);
    default:
      return [e.property];
  }
}
