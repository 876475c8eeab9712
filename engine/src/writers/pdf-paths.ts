/**
 * Long PDF paths written in batches. pdfkit turns every path operator
 * (`moveTo`, `lineTo`...) into a buffer of its own, kept until the document
 * ends: a few hundred bytes each, so a map of a million contour vertices holds
 * hundreds of megabytes. {@link PdfPathBatch} writes the very same operators,
 * formatted as pdfkit formats them, a few thousand per buffer.
 */

/** pdfkit's number formatting in content streams (`PDFObject.number`): rounded to 6 decimals. */
function pdfNumber(n: number): number {
  if (!(n > -1e21 && n < 1e21)) throw new Error(`unsupported number: ${n}`);
  return Math.round(n * 1e6) / 1e6;
}

/** pdfkit's circle constant, computed as pdfkit computes it (same last bit). */
const KAPPA = 4.0 * ((Math.sqrt(2) - 1.0) / 3.0);

/** Operators kept before they are written to the page. */
const BATCH = 4096;

/**
 * Path operators for one PDFKit document, byte for byte those of its own
 * `moveTo`, `lineTo`, `closePath` and `circle`. Call {@link flush} before
 * painting the path (`stroke`, `fill`...) or changing the page.
 *
 * @example
 * const path = new PdfPathBatch(doc);
 * path.moveTo(10, 10);
 * path.lineTo(20, 30);
 * path.flush();
 * doc.stroke();
 */
export class PdfPathBatch {
  private ops: string[] = [];

  constructor(private readonly doc: { addContent(data: string): unknown }) {}

  moveTo(x: number, y: number): void {
    this.push(`${pdfNumber(x)} ${pdfNumber(y)} m`);
  }

  lineTo(x: number, y: number): void {
    this.push(`${pdfNumber(x)} ${pdfNumber(y)} l`);
  }

  closePath(): void {
    this.push('h');
  }

  /** A circle of four Bézier curves, as pdfkit's `circle` draws it. */
  circle(cx: number, cy: number, r: number): void {
    const x = cx - r;
    const y = cy - r;
    const o = r * KAPPA;
    const xe = x + r * 2;
    const ye = y + r * 2;
    const xm = x + r;
    const ym = y + r;
    this.moveTo(x, ym);
    this.curveTo(x, ym - o, xm - o, y, xm, y);
    this.curveTo(xm + o, y, xe, ym - o, xe, ym);
    this.curveTo(xe, ym + o, xm + o, ye, xm, ye);
    this.curveTo(xm - o, ye, x, ym + o, x, ym);
    this.closePath();
  }

  /** Writes the operators kept so far to the page. */
  flush(): void {
    if (this.ops.length === 0) return;
    // pdfkit ends every written piece with a newline: joined by newlines, the bytes are the same.
    this.doc.addContent(this.ops.join('\n'));
    this.ops = [];
  }

  private curveTo(x1: number, y1: number, x2: number, y2: number, x: number, y: number): void {
    const n = pdfNumber;
    this.push(`${n(x1)} ${n(y1)} ${n(x2)} ${n(y2)} ${n(x)} ${n(y)} c`);
  }

  private push(op: string): void {
    this.ops.push(op);
    if (this.ops.length >= BATCH) this.flush();
  }
}
