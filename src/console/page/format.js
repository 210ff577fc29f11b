/** Numbers, dates and durations as an operator reads them (en-GB, like /explore). */
const numbers = new Intl.NumberFormat('en-GB');
export const count = (n) => numbers.format(n ?? 0);
export const percent = (share) => `${Math.round((share ?? 0) * 100)}%`;

export function when(iso) {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? iso
    : date.toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' });
}

export function duration(seconds) {
  if (seconds === undefined || seconds === null) return 'unknown';
  if (seconds < 60) return `${Math.round(seconds)} s`;
  const minutes = Math.floor(seconds / 60);
  return `${minutes} min ${Math.round(seconds % 60)} s`;
}

/** Days since a date, for freshness. */
export const daysSince = (iso, now = Date.now()) => Math.floor((now - new Date(iso).getTime()) / 86_400_000);
