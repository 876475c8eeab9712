/** A node of an OGC WKT (1 or 2) tree: `KEYWORD["name", 1.0, CHILD[...], ...]`. */
export interface WktNode {
  keyword: string;
  args: Array<string | number | WktNode>;
}

/** Parses OGC WKT into a tree; returns null for empty or malformed text. */
export function parseWkt(text: string): WktNode | null {
  const s = text.replace(/\0/g, '').trim();
  if (!s) return null;
  let i = 0;
  const skip = () => {
    while (i < s.length && /\s/.test(s[i]!)) i++;
  };
  const node = (): WktNode | null => {
    skip();
    const start = i;
    while (i < s.length && /[A-Za-z0-9_]/.test(s[i]!)) i++;
    const keyword = s.slice(start, i).toUpperCase();
    skip();
    if (!keyword || (s[i] !== '[' && s[i] !== '(')) return null;
    const close = s[i] === '[' ? ']' : ')';
    i++;
    const args: WktNode['args'] = [];
    for (;;) {
      skip();
      if (i >= s.length) return null;
      if (s[i] === close) {
        i++;
        return { keyword, args };
      }
      if (s[i] === ',') {
        i++;
        continue;
      }
      if (s[i] === '"') {
        let value = '';
        i++;
        while (i < s.length) {
          if (s[i] === '"' && s[i + 1] === '"') {
            value += '"';
            i += 2;
          } else if (s[i] === '"') {
            i++;
            break;
          } else value += s[i++];
        }
        args.push(value);
      } else if (/[-+.0-9]/.test(s[i]!)) {
        const start2 = i;
        while (i < s.length && /[-+.0-9eE]/.test(s[i]!)) i++;
        args.push(Number(s.slice(start2, i)));
      } else {
        const saved = i;
        const child = node();
        if (child) args.push(child);
        else {
          // Bare enumerations such as AXIS["x",EAST].
          i = saved;
          const start3 = i;
          while (i < s.length && /[A-Za-z0-9_]/.test(s[i]!)) i++;
          if (start3 === i) return null;
          args.push(s.slice(start3, i));
        }
      }
    }
  };
  try {
    return node();
  } catch {
    return null;
  }
}

/** Direct children with one of the keywords. */
export function wktChildren(node: WktNode, ...keywords: string[]): WktNode[] {
  return node.args.filter((a): a is WktNode => typeof a === 'object' && keywords.includes(a.keyword));
}

/** EPSG code from a node's own AUTHORITY/ID, or null. */
export function wktEpsg(node: WktNode): number | null {
  for (const auth of wktChildren(node, 'AUTHORITY', 'ID')) {
    if (String(auth.args[0]).toUpperCase() === 'EPSG') {
      const code = Number(auth.args[1]);
      if (Number.isInteger(code) && code > 0) return code;
    }
  }
  return null;
}

const HORIZONTAL = ['PROJCS', 'PROJCRS', 'PROJECTEDCRS', 'GEOGCS', 'GEOGCRS', 'GEODCRS', 'GEOGRAPHICCRS', 'GEOCCS'];
const VERTICAL = ['VERT_CS', 'VERTCRS', 'VERTICALCRS'];

/** Splits a (possibly compound) CRS into its horizontal and vertical parts. */
export function wktParts(root: WktNode): { horizontal: WktNode | null; vertical: WktNode | null } {
  if (root.keyword === 'COMPD_CS' || root.keyword === 'COMPOUNDCRS') {
    return {
      horizontal: wktChildren(root, ...HORIZONTAL)[0] ?? null,
      vertical: wktChildren(root, ...VERTICAL)[0] ?? null,
    };
  }
  if (HORIZONTAL.includes(root.keyword)) return { horizontal: root, vertical: null };
  if (VERTICAL.includes(root.keyword)) return { horizontal: null, vertical: root };
  return { horizontal: null, vertical: null };
}

/** Length unit (metres per unit) of a projected or vertical CRS node, or null. */
export function wktLinearUnit(node: WktNode): number | null {
  const direct = wktChildren(node, 'UNIT', 'LENGTHUNIT');
  for (const unit of direct) {
    const factor = Number(unit.args[1]);
    if (Number.isFinite(factor) && factor > 0) return factor;
  }
  // WKT2 puts the unit under CS/AXIS.
  for (const axis of wktChildren(node, 'AXIS')) {
    const unit = wktChildren(axis, 'LENGTHUNIT', 'UNIT')[0];
    const factor = Number(unit?.args[1]);
    if (Number.isFinite(factor) && factor > 0) return factor;
  }
  return null;
}

/** A PARAMETER value by any of its names (case-insensitive), or null. */
export function wktParameter(node: WktNode, ...names: string[]): number | null {
  const wanted = names.map((n) => n.toLowerCase());
  const visit = (n: WktNode): number | null => {
    for (const p of wktChildren(n, 'PARAMETER')) {
      if (wanted.includes(String(p.args[0]).toLowerCase())) return Number(p.args[1]);
    }
    for (const c of wktChildren(n, 'CONVERSION')) {
      const v = visit(c);
      if (v !== null) return v;
    }
    return null;
  };
  return visit(node);
}

/** All text of the datum names under a node (for tie-breaks between datum realisations). */
export function wktDatumText(node: WktNode): string {
  const out: string[] = [];
  const visit = (n: WktNode) => {
    if (['DATUM', 'GEOGCS', 'BASEGEOGCRS', 'GEOGCRS'].includes(n.keyword)) out.push(String(n.args[0]));
    for (const a of n.args) if (typeof a === 'object') visit(a);
  };
  visit(node);
  return out.join(' ');
}
