/**
 * Reading a step's input the way Zapier hands it over: mapped values arrive as strings (sometimes with
 * spaces), booleans as `true`/`"true"`/`"yes"`, dates as ISO 8601 strings. Malformed values are
 * refused before any request, with a message naming the field. The Event input is read in `event.ts`.
 */
import type { Bundle, ZObject } from 'zapier-platform-core';
import { NO_SPACES_PATTERN } from './accepts';

type Input = Pick<Bundle, 'inputData'>;

/** A text input, trimmed; `''` when empty or not text. */
export const textInput = (bundle: Input, key: string): string => {
  const value = bundle.inputData?.[key];
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number') return String(value);
  return '';
};

/** Loose on purpose: one `@` between non-empty parts without spaces, a dot in the domain. */
export const EMAIL_PATTERN = '^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$';
const EMAIL = new RegExp(EMAIL_PATTERN);

/**
 * An email input, trimmed; `''` when empty. Anything that cannot be an email address (`ada at example`, a
 * name mapped into the wrong field) stops the step with a message quoting it, instead of finding nothing.
 */
export const emailInput = (z: ZObject, bundle: Input, key: string, label: string): string => {
  const raw = textInput(bundle, key);
  if (!raw || EMAIL.test(raw)) return raw;
  throw new z.errors.Error(
    `"${raw.slice(0, 80)}" in ${label} is not an email address. Write it as name@domain, for example ada@example.com, or map the email from an earlier step.`,
    'INVALID_INPUT',
    400,
  );
};

/**
 * An ID input (registration, order, payment), trimmed; `''` when empty. IDs have no spaces inside: a name or
 * a sentence mapped into the field stops the step with a message quoting it, instead of finding nothing.
 */
export const idInput = (z: ZObject, bundle: Input, key: string, label: string, example: string): string => {
  const raw = textInput(bundle, key);
  if (!raw || new RegExp(NO_SPACES_PATTERN).test(raw)) return raw;
  throw new z.errors.Error(
    `"${raw.slice(0, 80)}" in ${label} is not an ID: an ID has no spaces, for example ${example}. Map the ID from an earlier step, or leave ${label} empty.`,
    'INVALID_INPUT',
    400,
  );
};

/** A boolean input: `true`, "true", "yes", "1" and "on" are true; everything else is false. */
export const booleanInput = (bundle: Input, key: string): boolean => {
  const value = bundle.inputData?.[key];
  if (typeof value === 'boolean') return value;
  return typeof value === 'string' && ['true', 'yes', '1', 'on'].includes(value.trim().toLowerCase());
};

/** `2026-12-01T09:01:12`, optional fraction, optional `Z` or offset (`+01:00`, `+0100`, `+01`); `T` or a space. */
const ISO_DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(?:(Z)|([+-])(\d{2})(?::?(\d{2}))?)?$/i;

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/**
 * `Date.UTC` for every year: `Date.UTC` reads a year 0–99 as 1900–1999 (`0026` would become 1926), so the
 * year is set on its own.
 */
const utcTime = (
  year: number,
  monthIndex: number,
  day = 1,
  hour = 0,
  minute = 0,
  second = 0,
  ms = 0,
): number => {
  const date = new Date(0);
  date.setUTCFullYear(year, monthIndex, day);
  date.setUTCHours(hour, minute, second, ms);
  return date.getTime();
};

const daysIn = (year: number, month: number): number => new Date(utcTime(year, month, 0)).getUTCDate();

/** The offset of `timeZone` from UTC at instant `ms`, in milliseconds (positive east of Greenwich). */
const zoneOffsetAt = (timeZone: string, ms: number): number => {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(new Date(ms));
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const local = utcTime(
    part('year'),
    part('month') - 1,
    part('day'),
    part('hour'),
    part('minute'),
    part('second'),
  );
  return local - (ms - (((ms % 1000) + 1000) % 1000));
};

/** The instant a wall-clock time (given as if it were UTC) shows in `timeZone`. */
const wallClockToInstant = (wallAsUtc: number, timeZone: string): number => {
  const first = wallAsUtc - zoneOffsetAt(timeZone, wallAsUtc);
  const offset = zoneOffsetAt(timeZone, first);
  return wallAsUtc - offset;
};

const isTimeZone = (value: unknown): value is string => {
  if (typeof value !== 'string' || !value.trim()) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
};

type DateTimeReading = { ms: number } | { problem: string };

/** Reads an ISO 8601 date and time; without an offset it is read in `timeZone`. */
export const readIsoDateTime = (raw: string, timeZone: string): DateTimeReading => {
  const match = ISO_DATE_TIME.exec(raw);
  if (!match) {
    if (/^\d{4}-\d{2}-\d{2}$/.test(raw)) return { problem: 'it has a date but no time of day' };
    return { problem: 'it is not an ISO 8601 date and time' };
  }
  const [, y, mo, d, h, mi, sec = '0', fraction = '', zulu, sign, oh, om = '00'] = match;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(sec);
  if (month < 1 || month > 12) return { problem: `${mo} is not a month` };
  if (day < 1 || day > daysIn(year, month)) {
    return { problem: `${MONTHS[month - 1]} ${year} has no day ${day}` };
  }
  if (hour > 23 || minute > 59 || second > 59)
    return { problem: `${h}:${mi}:${sec.padStart(2, '0')} is not a time of day` };
  const wall = utcTime(
    year,
    month - 1,
    day,
    hour,
    minute,
    second,
    Number(fraction.padEnd(3, '0').slice(0, 3)),
  );
  let ms: number;
  if (zulu) ms = wall;
  else if (sign) {
    const offsetHours = Number(oh);
    const offsetMinutes = Number(om);
    if (offsetHours > 23 || offsetMinutes > 59) return { problem: `${sign}${oh}:${om} is not a UTC offset` };
    ms = wall - (sign === '-' ? -1 : 1) * (offsetHours * 60 + offsetMinutes) * 60_000;
  } else ms = wallClockToInstant(wall, timeZone);
  if (!Number.isFinite(ms) || Math.abs(ms) > 8.64e15) return { problem: 'it is out of range' };
  return { ms };
};

/**
 * A date-time input as ISO 8601 UTC with milliseconds, or `null` when empty. Only ISO 8601 dates with a time
 * of day are accepted (`2026-12-01T09:01:12+01:00`, `…Z`, or without an offset, then read in the Zap's
 * timezone, `bundle.meta.timezone`, UTC when Zapier gives none). Anything else (`20261201`, `1`, `Dec 1`,
 * `2026-02-30T10:00:00Z`) is refused with a message naming the field, before any request: read leniently,
 * such values meant 1970, 2001 or 2 March.
 */
export const dateTimeInput = (
  z: ZObject,
  bundle: Input & Partial<Pick<Bundle, 'meta'>>,
  key: string,
  label: string,
  bounds?: DateTimeBounds,
): string | null => {
  const raw = textInput(bundle, key);
  if (!raw) return null;
  const zone: unknown = (bundle.meta as { timezone?: unknown } | undefined)?.timezone;
  const timeZone = isTimeZone(zone) ? zone : 'UTC';
  const reading = readIsoDateTime(raw, timeZone);
  if ('problem' in reading) {
    throw new z.errors.Error(
      `"${raw.slice(0, 80)}" in ${label} is not a date and time (${reading.problem}). Use an ISO 8601 date and time such as 2026-12-01T09:01:12+01:00; without an offset (2026-12-01T09:01:12) it is read in your Zap's timezone (${timeZone}). Or leave it empty.`,
      'INVALID_INPUT',
      400,
    );
  }
  if (bounds) checkBounds(z, raw, reading.ms, label, bounds);
  return new Date(reading.ms).toISOString();
};

/** Limits of a date-time input that stands for a moment that has happened (a scan). */
export interface DateTimeBounds {
  /** The earliest year accepted (a year before it is a typing or mapping mistake). */
  earliestYear: number;
  /** How far ahead of now a time may be (clocks differ a little); a later time has not happened yet. */
  maxAheadMs: number;
  /** What leaving the field empty means, for the message: "to check the person in now". */
  emptyMeans: string;
  now?: () => number;
}

/** `3 days, 4 hours` / `12 minutes`: how far ahead a time is, in a user's words. */
const aheadText = (ms: number): string => {
  const minutes = Math.round(ms / 60_000);
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const mins = minutes % 60;
  const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
  if (days > 0) return hours ? `${plural(days, 'day')}, ${plural(hours, 'hour')}` : plural(days, 'day');
  if (hours > 0) return mins ? `${plural(hours, 'hour')}, ${plural(mins, 'minute')}` : plural(hours, 'hour');
  return plural(mins, 'minute');
};

const checkBounds = (z: ZObject, raw: string, ms: number, label: string, bounds: DateTimeBounds): void => {
  const now = (bounds.now ?? Date.now)();
  // An example a user can copy: now, to the second, in UTC.
  const example = `${new Date(now).toISOString().slice(0, 19)}Z`;
  const fix = `Send the time as an ISO 8601 date and time with the full year, such as ${example}, or leave ${label} empty ${bounds.emptyMeans}.`;
  // Zapier hands a date-time field over in the Zap's timezone, not as typed: the message shows the same
  // moment in UTC too, which is how a time typed with `Z` reads again.
  const utc = new Date(ms).toISOString().replace('.000Z', 'Z');
  const shown =
    raw === utc
      ? `"${raw}"`
      : `"${raw.slice(0, 80)}" (that is ${utc}: Zapier hands a date and time over in your Zap's timezone)`;
  const year = new Date(ms).getUTCFullYear();
  if (year < bounds.earliestYear) {
    throw new z.errors.Error(
      `${shown} in ${label} is in the year ${String(year).padStart(4, '0')}, which cannot be right: the year must be ${bounds.earliestYear} or later (a year written with two digits, or a date read wrongly by an earlier step?). ${fix}`,
      'INVALID_INPUT',
      400,
    );
  }
  if (ms - now > bounds.maxAheadMs) {
    throw new z.errors.Error(
      `${shown} in ${label} is ${aheadText(ms - now)} in the future (it is now ${new Date(now).toISOString().replace(/\.\d{3}Z$/, 'Z')}), and it must be a time that has already happened (at most ${Math.round(bounds.maxAheadMs / 60_000)} minutes ahead, for clocks that differ). A date without a year (such as "Dec 1") may have been read as a day to come. ${fix}`,
      'INVALID_INPUT',
      400,
    );
  }
};
