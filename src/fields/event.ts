/**
 * The Event field of every operation that takes an event: a dynamic dropdown fed by the hidden `event_list`
 * trigger (newest first, then older published events page by page), search-powered by Find Event so that any
 * event of the account can be looked up from the editor; and its value, checked to be an event ID (or, where
 * an operation takes it, a slug or public page link) before any request.
 */
import type { Bundle, ZObject } from 'zapier-platform-core';
import { LIST_LIMIT_MAX, pathSegmentProblem } from '../connect';
import type { EventInput } from '../account/events';
import { accepts } from './accepts';
import { EVENT_LIST_TRIGGER_KEY, FIND_EVENT_KEY } from './keys';
import { textInput } from './read';

/** An event ID: a UUID, in either case. */
export const EVENT_ID_PATTERN =
  '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

/** A slug as the service writes them, in ASCII (`isSlugLike` also takes letters and digits of any script). */
const ASCII_SLUG = '[A-Za-z0-9][A-Za-z0-9._~-]{0,199}';

/**
 * An event ID, a slug, or a public page link whose last path segment is a slug (or any segment an ID); hosts
 * of letters and digits, a top-level name of letters.
 */
export const EVENT_REFERENCE_PATTERN = `^(?:${EVENT_ID_PATTERN.slice(1, -1)}|${ASCII_SLUG}|https?://(?:[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*\\.)+[A-Za-z]{2,24}(?:/[A-Za-z0-9._~-]+)*/${ASCII_SLUG}/?)$`;

/**
 * The Event field; `takes: 'reference'` where the operation reads the event's slug or public page link too
 * (`requiredEventInput`), otherwise its ID only.
 */
export const eventField = (options: {
  required: boolean;
  helpText?: string;
  altersDynamicFields?: boolean;
  takes?: 'id' | 'reference';
}) => ({
  key: 'eventId',
  label: 'Event',
  type: 'string' as const,
  required: options.required,
  dynamic: `${EVENT_LIST_TRIGGER_KEY}.id.label`,
  search: `${FIND_EVENT_KEY}.id`,
  altersDynamicFields: options.altersDynamicFields ?? false,
  helpText:
    options.helpText ??
    (options.required
      ? `Choose one of your events: your ${LIST_LIMIT_MAX} newest first (drafts included), and **Load more** shows older published ones. Any older event is found with the field's search (Find Event, by title, slug or link), or map its event ID from an earlier step.`
      : 'Leave empty for all of your events, or choose one to limit this step to it (older ones are found with the search).'),
  meta: accepts({ pattern: options.takes === 'reference' ? EVENT_REFERENCE_PATTERN : EVENT_ID_PATTERN }),
});

/** Whether a text looks like an event UUID (custom values typed into the dropdown are checked with it). */
export const isEventUuid = (value: string): boolean => new RegExp(EVENT_ID_PATTERN).test(value.trim());

/** A slug as the service writes them: letters, digits, `-`, `_` and `.`, no spaces; usable in an address. */
const isSlugLike = (value: string): boolean =>
  /^[\p{L}\p{N}][\p{L}\p{N}._~-]{0,199}$/u.test(value) && pathSegmentProblem(value) === null;

/**
 * What an event's public page link names: an event ID among its path segments (a map link
 * `…/embed/<id>/map/<plan>`), else its last segment as a slug (`https://front.example/e/techweek-2026`);
 * `null` when the text is not an http(s) link or names neither.
 */
export const eventOfLink = (text: string): EventInput | null => {
  if (!/^https?:\/\//i.test(text)) return null;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  const segments = url.pathname
    .split('/')
    .filter(Boolean)
    .map((segment) => {
      try {
        return decodeURIComponent(segment);
      } catch {
        return segment;
      }
    });
  const id = segments.find(isEventUuid);
  if (id) return { id: id.toLowerCase() };
  const last = segments.at(-1);
  return last && isSlugLike(last) ? { slug: last } : null;
};

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

/**
 * The required Event input of an operation that also takes an event's slug or public page link: an event ID,
 * a slug, or a link (its ID or slug read from it); anything else is refused before any request.
 */
export const requiredEventInput = (z: ZObject, bundle: Input): EventInput => {
  const given = textInput(bundle, 'eventId');
  if (!given || isEventUuid(given)) return { id: requiredEventId(z, bundle) };
  const linked = eventOfLink(given);
  if (linked) return linked;
  if (isSlugLike(given)) return { slug: given };
  throw new z.errors.Error(
    `"${given.slice(0, 80)}" is not an event ID, slug or public page link. Choose the event in the Event field (its search finds any of your events by title), or map the Event ID field of an earlier step (it looks like 7d0c6f1e-2f6a-4a7e-9a51-3f0e1b2c4d5e).`,
    'INVALID_EVENT',
    400,
  );
};
