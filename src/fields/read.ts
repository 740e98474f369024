/**
 * Reading a step's input the way Zapier hands it over: mapped values arrive as strings (sometimes with
 * spaces), booleans as `true`/`"true"`/`"yes"`, dates as ISO strings with an offset. Malformed values are
 * refused before any request, with a message naming the field. The Event input is read in `event.ts`.
 */
import type { Bundle, ZObject } from 'zapier-platform-core';

type Input = Pick<Bundle, 'inputData'>;

/** A text input, trimmed; `''` when empty or not text. */
export const textInput = (bundle: Input, key: string): string => {
  const value = bundle.inputData?.[key];
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number') return String(value);
  return '';
};

/** A boolean input: `true`, "true", "yes", "1" and "on" are true; everything else is false. */
export const booleanInput = (bundle: Input, key: string): boolean => {
  const value = bundle.inputData?.[key];
  if (typeof value === 'boolean') return value;
  return typeof value === 'string' && ['true', 'yes', '1', 'on'].includes(value.trim().toLowerCase());
};

/** A date-time input as ISO 8601 UTC with milliseconds, or `null` when empty. */
export const dateTimeInput = (z: ZObject, bundle: Input, key: string, label: string): string | null => {
  const raw = textInput(bundle, key);
  if (!raw) return null;
  const ms = /^\d+$/.test(raw) ? Number(raw) * (raw.length <= 10 ? 1000 : 1) : Date.parse(raw);
  if (!Number.isFinite(ms) || Math.abs(ms) > 8.64e15) {
    throw new z.errors.Error(
      `"${raw.slice(0, 80)}" in ${label} is not a date and time. Use a value like 2026-12-01T09:01:12+01:00, or leave it empty.`,
      'INVALID_INPUT',
      400,
    );
  }
  return new Date(ms).toISOString();
};
