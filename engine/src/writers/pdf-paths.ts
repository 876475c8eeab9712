/**
 * Long PDF paths written in batches. pdfkit turns every path operator
 * (`moveTo`, `lineTo`...) into a buffer of its own, kept until the document
 * ends: a few hundred bytes each, so a map of a million contour vertices holds
 * hundreds of megabytes. {@link PdfPathBatch} writes the very same operators,
 * formatted as pdfkit formats them, in buffers of 64 kB.
 */
import { ROUNDED_MAX_BYTES, writeRounded } from './decimal-bytes.js';

/** pdfkit's number formatting in content streams (`PDFObject.number`): rounded to 6 decimals. */
function pdfNumber(n: number): number {
  if (!(n > -1e21 && n < 1e21)) throw new Error(`unsupported number: ${n}`);
  return Math.round(n * 1e6) / 1e6;
}

/** pdfkit's circle constant, computed as pdfkit computes it (same last bit). */
const KAPPA = 4.0 * ((Math.sqrt(2) - 1.0) / 3.0);

/** Bytes of operators kept before they are written to the page. */
const BATCH_BYTES = 1 << 16;

/**
 * Path operators for one PDFKit document, byte for byte those of its own
 * `moveTo`, `lineTo`, `closePath` and `circle`, written digit by digit into
 * bytes (each operator ends with a newline, as pdfkit ends every piece it
 * writes). Call {@link flush} before painting the path (`stroke`, `fill`...)
 * or changing the page.
 *
 * @example
 * const path = new PdfPathBatch(doc);
 * path.moveTo(10, 10);
 * path.lineTo(20, 30);
 * path.flush();
 * doc.stroke();
 */
export class PdfPathBatch {
  private buf = new Uint8Array(BATCH_BYTES);
  private at = 0;

  constructor(private readonly doc: { addContent(data: string | Uint8Array): unknown }) {}

  moveTo(x: number, y: number): void {
    this.point(x, y, 109); // m
  }

  lineTo(x: number, y: number): void {
    this.point(x, y, 108); // l
  }

  closePath(): void {
    this.room(2);
    this.buf[this.at++] = 104; // h
    this.buf[this.at++] = 10;
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

  /** Writes the operators kept so far to the page (pdfkit keeps the bytes: a copy of their exact size). */
  flush(): void {
    if (this.at === 0) return;
    this.doc.addContent(this.buf.slice(0, this.at));
    this.at = 0;
  }

  private curveTo(x1: number, y1: number, x2: number, y2: number, x: number, y: number): void {
    this.room(6 * (ROUNDED_MAX_BYTES + 1) + 2);
    this.number(x1);
    this.number(y1);
    this.number(x2);
    this.number(y2);
    this.number(x);
    this.number(y);
    this.buf[this.at++] = 99; // c
    this.buf[this.at++] = 10;
  }

  /** `x y op` and a newline. */
  private point(x: number, y: number, op: number): void {
    this.room(2 * (ROUNDED_MAX_BYTES + 1) + 2);
    this.number(x);
    this.number(y);
    this.buf[this.at++] = op;
    this.buf[this.at++] = 10;
  }

  /** A number as pdfkit writes it, then a space. */
  private number(n: number): void {
    const end = writeRounded(this.buf, this.at, n, 6, 1e6);
    if (end >= 0) this.at = end;
    else {
      const text = String(pdfNumber(n));
      this.room(text.length + 1 + 6 * (ROUNDED_MAX_BYTES + 1) + 2);
      for (let i = 0; i < text.length; i++) this.buf[this.at++] = text.charCodeAt(i);
    }
    this.buf[this.at++] = 32;
  }

  private room(bytes: number): void {
    if (this.at + bytes > this.buf.length) this.flush();
  }
}
