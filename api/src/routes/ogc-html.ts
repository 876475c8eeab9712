/**
 * Server-rendered HTML pages of the OGC API (`f=html` or a browser's
 * `Accept: text/html`): plain pages, every interpolated text escaped, no
 * script. The JSON documents stay the reference; these are for people.
 */

/** Escapes text for HTML element content and double-quoted attributes. */
export function esc(value: unknown): string {
  return String(value ?? '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** A piece of HTML already escaped (what the helpers below return). */
export interface Html {
  readonly html: string;
}

/** Tagged template: interpolated values are escaped unless they are {@link Html}, arrays are joined. */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0]!;
  values.forEach((v, i) => {
    out += render(v) + strings[i + 1]!;
  });
  return { html: out };
}

function render(v: unknown): string {
  if (Array.isArray(v)) return v.map(render).join('');
  if (v && typeof v === 'object' && 'html' in v) return (v as Html).html;
  if (v === null || v === undefined || v === false) return '';
  return esc(v);
}

/** The name every page's title ends with. */
const SITE = 'Nuage OGC API';

const STYLE = `
body{font:15px/1.5 system-ui,sans-serif;margin:0;color:#1c2127;background:#f6f7f9}
header{background:#1c2127;color:#fff;padding:.6rem 1.5rem}header a{color:#8abbff}
main{padding:1rem 1.5rem;max-width:1200px}h1{font-size:1.4rem}
table{border-collapse:collapse;background:#fff;font-size:13px}td,th{border:1px solid #d3d8de;padding:.25rem .5rem;text-align:left;vertical-align:top}
th{background:#edeff2}code{background:#edeff2;padding:0 .2rem}.muted{color:#5f6b7c}nav.pages a{margin-right:1rem}
`;

/** A whole page: breadcrumbs, title, body, and the alternate JSON document. */
export function page(opts: {
  title: string;
  crumbs: Array<{ text: string; href?: string }>;
  json: { href: string; type: string };
  body: Html;
}): string {
  return `<!doctype html>${
    html`<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${opts.title === SITE ? SITE : `${opts.title} — ${SITE}`}</title><meta name="robots" content="noindex">
<link rel="alternate" type="${opts.json.type}" href="${opts.json.href}"><style>${{ html: STYLE }}</style></head>
<body><header>${opts.crumbs.map(
      (c, i) => html`${i > 0 ? ' › ' : ''}${c.href ? html`<a href="${c.href}">${c.text}</a>` : c.text}`,
    )}</header>
<main><h1>${opts.title}</h1>${opts.body}
<p class="muted">This page as <a href="${opts.json.href}">JSON</a>.</p></main></body></html>`.html
  }`;
}

/** A definition list of links. */
export function linkList(links: Array<{ href: string; title: string; note?: string }>): Html {
  return html`<ul>${links.map((l) => html`<li><a href="${l.href}">${l.title}</a>${l.note ? html` — ${l.note}` : ''}</li>`)}</ul>`;
}

/** A table with a header row. */
export function table(head: string[], rows: unknown[][]): Html {
  return html`<table><thead><tr>${head.map((h) => html`<th>${h}</th>`)}</tr></thead><tbody>${rows.map(
    (r) => html`<tr>${r.map((cell) => html`<td>${cell}</td>`)}</tr>`,
  )}</tbody></table>`;
}

/** A JSON value shown in a cell: strings as they are, everything else as JSON. */
export function cellValue(v: unknown): string {
  if (v === null || v === undefined) return '';
  return typeof v === 'string' ? v : JSON.stringify(v);
}
