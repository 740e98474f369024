/**
 * The Event field of every operation that takes an event: a dynamic dropdown fed by the hidden `event_list`
 * trigger, so nobody pastes an event UUID; and its value, checked to be an event ID before any request.
 */
import type { Bundle, ZObject } from 'zapier-platform-core';
import { LIST_LIMIT_MAX } from '../connect';
import { EVENT_LIST_TRIGGER_KEY } from './keys';
import { textInput } from './read';

export const eventField = (options: {
  required: boolean;
  helpText?: string;
  altersDynamicFields?: boolean;
}) => ({
  key: 'eventId',
  label: 'Event',
  type: 'string' as const,
  required: options.required,
  dynamic: `${EVENT_LIST_TRIGGER_KEY}.id.label`,
  altersDynamicFields: options.altersDynamicFields ?? false,
  helpText:
    options.helpText ??
    (options.required
      ? `Choose one of your events, newest first, drafts included: ${LIST_LIMIT_MAX} a page, and **Load more** shows older ones as far as the service lists them. For an event past the last page, map its event ID from an earlier step (for example from **Find Event**).`
      : 'Leave empty for all of your events, or choose one to limit this step to it.'),
});

/** Whether a text looks like an event UUID (custom values typed into the dropdown are checked with it). */
export const isEventUuid = (value: string): boolean =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value.trim());

type Input = Pick<Bundle, 'inputData'>;

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
