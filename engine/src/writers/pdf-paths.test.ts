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

  it('writes every kind of number as pdfkit does (zero, -0, rounding at the 6th decimal, 15+ digits)', async () => {
    const values = [
      0,
      -0,
      4e-7,
      -4e-7,
      5e-7,
      -5e-7,
      1e-6,
      -1.5e-6,
      0.1,
      2.675,
      -2.5e-7,
      123.4567895,
      999999.9999995,
      1e9 + 0.1,
      123456789.123456,
      987654321.9876543,
      4.5e14,
      1e15 + 0.5,
      7.1e17,
      9.99e20,
      -9.99e20,
      1 / 3,
    ];
    const draw = (path: { moveTo(x: number, y: number): unknown; lineTo(x: number, y: number): unknown }) => {
      for (let i = 0; i + 1 < values.length; i++) {
        path.moveTo(values[i]!, values[values.length - 1 - i]!);
        path.lineTo(-values[i + 1]!, values[i]!);
      }
    };
    const own = await pdfBytes((doc) => {
      draw(doc);
      doc.stroke();
    });
    const batched = await pdfBytes((doc) => {
      const path = new PdfPathBatch(doc);
      draw(path);
      path.flush();
      doc.stroke();
    });
    expect(batched.toString('latin1')).toContain('0.000001 ');
    expect(batched.equals(own)).toBe(true);
    expect(() => new PdfPathBatch({ addContent: () => 0 }).lineTo(1e21, 0)).toThrow(/unsupported/);
  });

  it('writes nothing when it holds no operator', async () => {
    const empty = await pdfBytes(() => {});
    const flushed = await pdfBytes((doc) => new PdfPathBatch(doc).flush());
    expect(flushed.equals(empty)).toBe(true);
  });
});
