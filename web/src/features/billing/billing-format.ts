/** Bytes in a GB as the admin screens show limits (spec §3: bytes, shown in GB; 1 GB = 2^30 bytes). */
export const BYTES_PER_GB = 1024 ** 3;

/** Hectares with up to 2 decimals in the interface language, e.g. "1,234.5 ha". */
export function formatHectares(value: number, language: string): string {
  return `${value.toLocaleString(language, { maximumFractionDigits: 2 })} ha`;
}

/** The GB unit in the interface language (French: Go). */
export function gbUnit(language: string): string {
  return language.startsWith('fr') ? 'Go' : 'GB';
}

/** Bytes as GB with up to 2 decimals, e.g. "10 GB" (French: "10 Go"). */
export function formatGb(bytes: number, language: string): string {
  return `${(bytes / BYTES_PER_GB).toLocaleString(language, { maximumFractionDigits: 2 })} ${gbUnit(language)}`;
}

/** GB typed in a form (dot or comma) → bytes; '' → null (the server default); NaN when not a number. */
export function gbToBytes(text: string): number | null {
  const v = text.trim().replace(',', '.');
  if (v === '') return null;
  if (!/^\d+(\.\d+)?$/.test(v)) return Number.NaN;
  return Math.round(Number(v) * BYTES_PER_GB);
}

/** Bytes → the GB text a form shows ('' for null). */
export function bytesToGbText(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined) return '';
  return String(Math.round((bytes / BYTES_PER_GB) * 1000) / 1000);
}

/** An amount in minor units (cents) with its currency, e.g. "€49.00". */
export function formatMoney(amount: number, currency: string, language: string): string {
  try {
    return new Intl.NumberFormat(language, { style: 'currency', currency: currency.toUpperCase() }).format(
      amount / 100,
    );
  } catch {
    return `${(amount / 100).toFixed(2)} ${currency.toUpperCase()}`;
  }
}

/** A number typed in a form (dot or comma) → number; '' → null; NaN when not a number. */
export function parseDecimal(text: string): number | null {
  const v = text.trim().replace(',', '.');
  if (v === '') return null;
  if (!/^-?\d+(\.\d+)?$/.test(v)) return Number.NaN;
  return Number(v);
}
