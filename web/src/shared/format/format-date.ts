const pad = (n: number) => String(n).padStart(2, '0');

/**
 * Formats a date with the mask DD/MM/YYYY HH:mm (spec §9) in the browser's
 * time zone. Returns an empty string for a missing or invalid date.
 */
export function formatDateTime(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const d = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(d.getTime())) return '';
  return `${pad(d.getDate())}/${pad(d.getMonth() + 1)}/${d.getFullYear()} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}
