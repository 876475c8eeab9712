import { describe, expect, it } from 'vitest';
import { PdfPathBatch } from './pdf-paths.js';

/** The uncompressed bytes of a one-page PDF drawn by `draw`. */
async function pdfBytes(draw: (doc: PDFKit.PDFDocument) => void): Promise<Buffer> {
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({ compress: false, info: { CreationDate: new Date(0) } });
  const parts: Buffer[] = [];
  doc.on('data', (d: Buffer) => parts.push(d));
  const done = new Promise((resolve) => doc.on('end', resolve));
  draw(doc);
  doc.end();
  await done;
  return Buffer.concat(parts);
}

describe('PdfPathBatch', () => {
  // Awkward coordinates: long decimals, negatives, values that round at the 6th decimal.
  const points = Array.from({ length: 10_000 }, (_, i) => [
    Math.sin(i * 0.37) * 250.123456789 + 300,
    -Math.cos(i * 1.3) * 123.4567891 + 1e-7 * i,
  ]);

  it('writes the same page bytes as pdfkit’s moveTo, lineTo, closePath and circle', async () => {
    const own = await pdfBytes((doc) => {
      for (let k = 0; k < points.length; k += 50) {
        doc.moveTo(points[k]![0]!, points[k]![1]!);
        for (let i = k + 1; i < k + 50; i++) doc.lineTo(points[i]![0]!, points[i]![1]!);
        doc.closePath();
      }
      doc.lineWidth(0.3).stroke();
      for (const p of points.slice(0, 500)) doc.circle(p[0]!, p[1]!, 0.7);
      doc.fill('#1d5c2c');
    });
    const batched = await pdfBytes((doc) => {
      const path = new PdfPathBatch(doc);
      for (let k = 0; k < points.length; k += 50) {
        path.moveTo(points[k]![0]!, points[k]![1]!);
        for (let i = k + 1; i < k + 50; i++) path.lineTo(points[i]![0]!, points[i]![1]!);
        path.closePath();
      }
      path.flush();
      doc.lineWidth(0.3).stroke();
      for (const p of points.slice(0, 500)) path.circle(p[0]!, p[1]!, 0.7);
      path.flush();
      doc.fill('#1d5c2c');
    });
    expect(batched.length).toBeGreaterThan(300_000);
    expect(batched.equals(own)).toBe(true);
  });

  it('writes nothing when it holds no operator', async () => {
    const empty = await pdfBytes(() => {});
    const flushed = await pdfBytes((doc) => new PdfPathBatch(doc).flush());
    expect(flushed.equals(empty)).toBe(true);
  });
});
