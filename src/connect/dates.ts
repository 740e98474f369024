/**
 * Dates the service writes in optional fields, read with tolerance (contract §1: an odd optional field is
 * absent): ISO 8601 with `T` or a space between date and time, seconds and fractions optional, and a zone
 * written `Z`, `±hh:mm`, `±hhmm` or `±hh`. A date without a zone could be any zone's, so it is unusable.
 */
const FORM =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?\s?(Z|z|[+-]\d{2}(?::?\d{2})?)$/;

/** Epoch ms of `value`, or `null` when it is not a date in a tolerable form (or not a real day and time). */
export const readTimestamp = (value: unknown): number | null => {
  if (typeof value !== 'string') return null;
  const match = FORM.exec(value.trim());
  if (!match) return null;
  const [, y, mo, d, h, mi, s = '0', fraction = '0', zone = 'Z'] = match;
  const [year, month, day, hour, minute, second] = [y, mo, d, h, mi, s].map(Number) as number[];
  const ms = Math.floor(Number(`0.${fraction}`) * 1000);
  const local = Date.UTC(year!, month! - 1, day!, hour!, minute!, second!, ms);
  const check = new Date(local);
  if (
    check.getUTCFullYear() !== year ||
    check.getUTCMonth() !== month! - 1 ||
    check.getUTCDate() !== day ||
    hour! > 23 ||
    minute! > 59 ||
    second! > 59
  ) {
    return null;
  }
  if (zone.toUpperCase() === 'Z') return local;
  const digits = zone.slice(1).replace(':', '');
  const offset = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || '0');
  if (offset > 18 * 60) return null;
  return local - (zone.startsWith('-') ? -1 : 1) * offset * 60_000;
};
