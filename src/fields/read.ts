/**
 * Reading a step's input the way Zapier hands it over: mapped values arrive as strings (sometimes with
 * spaces), booleans as `true`/`"true"`/`"yes"`, dates as ISO strings with an offset. Malformed values are
 * refused before any request, with a message naming the field.
 */
import type { Bundle, ZObject } from 'zapier-platform-core';
import { isEventUuid } from './fields';

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

/** The Event input, checked to be an event ID (a custom value typed or mapped into the dropdown may not be). */
export const eventIdInput = (z: ZObject, bundle: Input, options: { required: boolean }): string | null => {
  const eventId = textInput(bundle, 'eventId');
  if (!eventId) {
    if (!options.required) return null;
    throw new z.errors.Error(
      'No event was given. Choose an event in the Event field, or map an event ID from an earlier step.',
      'INVALID_EVENT',
      400,
    );
  }
  if (!isEventUuid(eventId)) {
    throw new z.errors.Error(
      `"${eventId.slice(0, 80)}" is not an event ID. Choose the event in the Event field's dropdown, or map the Event ID field of an earlier step (it looks like 7d0c6f1e-2f6a-4a7e-9a51-3f0e1b2c4d5e), not its title or slug.`,
      'INVALID_EVENT',
      400,
    );
  }
  return eventId;
};

/** The required Event input as an event ID. */
export const requiredEventId = (z: ZObject, bundle: Input): string =>
  eventIdInput(z, bundle, { required: true }) as string;

/** The optional Event input as an event ID, or `null` for every event. */
export const optionalEventId = (z: ZObject, bundle: Input): string | null =>
  eventIdInput(z, bundle, { required: false });

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
