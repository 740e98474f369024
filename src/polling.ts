/**
 * The one helper of polling triggers: what kind of poll Zapier is making, how records become its answer
 * (newest first, 3 for the editor's samples, only ids when a Zap is being turned on, every item through the
 * noun's mapper), the status filter input, the required event input and the event context of a poll.
 */
import type { Bundle, ZObject } from 'zapier-platform-core';
import { accountCache } from './cache';
import { isEventUuid } from './fields';
import { findEvent } from './events';
import { type EventContext, NO_EVENT_CONTEXT, eventContextOf } from './mappers/submission';

/** The editor shows 3 samples; a sample poll never needs more. */
export const SAMPLE_SIZE = 3;
/** Zapier's dedupe table holds 105,000 ids per Zap; a Zap being turned on is given at most this many. */
export const MAX_DEDUPE_ITEMS = 100_000;

/**
 * `sample`: the editor's test (3 items). `dedupe`: a Zap is being turned on and Zapier only records the ids.
 * `poll`: a scheduled poll whose new items run the Zap.
 */
export type PollKind = 'sample' | 'dedupe' | 'poll';

export const pollKind = (bundle: Pick<Bundle, 'meta'>): PollKind =>
  bundle.meta?.isLoadingSample ? 'sample' : bundle.meta?.isPopulatingDedupe ? 'dedupe' : 'poll';

/** How the records of one trigger become Zap items: the id Zapier dedupes on, and the noun's mapper. */
export interface Presenter<R, I extends { id: string }> {
  /** Must equal `toItem(record).id`: a dedupe poll answers with this id alone. */
  idOf: (record: R) => string;
  toItem: (record: R) => I;
}

const byNewest = <R extends { createdAt: string }>(records: R[], idOf: (record: R) => string) =>
  records
    .map((record) => ({ record, ms: Date.parse(record.createdAt), id: idOf(record) }))
    .sort((a, b) => b.ms - a.ms || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));

/**
 * Zapier's answer for a poll: newest first by `createdAt`, ties broken by id (descending), one item per id.
 * A sample poll gets the 3 newest; a dedupe poll gets every id (the dedupe only reads `id`, so the items are
 * `{ id }` and a whole day of registrations stays far below Zapier's 20 MB); a scheduled poll gets every
 * record it was given, mapped. Which records a poll returns (and how many) is the caller's decision.
 */
export const present = <R extends { createdAt: string }, I extends { id: string }>(
  bundle: Pick<Bundle, 'meta'>,
  records: R[],
  presenter: Presenter<R, I>,
): Array<I | { id: string }> => {
  const seen = new Set<string>();
  const sorted = byNewest(records, presenter.idOf).filter(({ id }) => !seen.has(id) && Boolean(seen.add(id)));
  switch (pollKind(bundle)) {
    case 'sample':
      return sorted.slice(0, SAMPLE_SIZE).map(({ record }) => presenter.toItem(record));
    case 'dedupe':
      return sorted.slice(0, MAX_DEDUPE_ITEMS).map(({ id }) => ({ id }));
    default:
      return sorted.map(({ record }) => presenter.toItem(record));
  }
};

// ---- inputs ------------------------------------------------------------------------------------------

export const ANY_STATUS = 'any';

/** The status filter of a polling trigger: a dropdown whose first choice is "any status". */
export const statusField = (options: {
  label: string;
  choices: Array<{ value: string; label: string }>;
  helpText: string;
}) => ({
  key: 'status',
  label: options.label,
  type: 'string' as const,
  required: false,
  default: ANY_STATUS,
  choices: [{ value: ANY_STATUS, label: 'Any status' }, ...options.choices].map((choice) => ({
    ...choice,
    sample: choice.value,
  })),
  helpText: options.helpText,
});

/** The chosen status (lower case), or `null` for any status. */
export const chosenStatus = (bundle: Pick<Bundle, 'inputData'>): string | null => {
  const value = bundle.inputData?.status;
  const status = typeof value === 'string' ? value.trim().toLowerCase() : '';
  return status && status !== ANY_STATUS ? status : null;
};

/** Whether a record has the chosen status (always, for any status). */
export const hasStatus =
  (status: string | null) =>
  (record: { status: string }): boolean =>
    status === null || record.status.toLowerCase() === status;

/** The event chosen in the required Event dropdown; anything that is not an event ID gets a clear message. */
export const requiredEventId = (z: ZObject, bundle: Pick<Bundle, 'inputData'>): string => {
  const value = bundle.inputData?.eventId;
  const eventId = typeof value === 'string' ? value.trim() : '';
  if (!eventId) {
    throw new z.errors.Error(
      'Choose the event to watch in the "Event" field of this trigger.',
      'INVALID_EVENT',
      400,
    );
  }
  if (!isEventUuid(eventId)) {
    throw new z.errors.Error(
      `"${eventId}" is not one of your events. Choose an event in the "Event" field's dropdown.`,
      'INVALID_EVENT',
      400,
    );
  }
  return eventId;
};

/** The message of an error, without the JSON wrapping of Zapier errors (never contains the key). */
const reasonOf = (error: unknown): string => {
  const message = error instanceof Error ? error.message : String(error);
  try {
    const parsed = JSON.parse(message) as { message?: unknown };
    return typeof parsed.message === 'string' ? parsed.message : message;
  } catch {
    return message;
  }
};

// ---- event context -----------------------------------------------------------------------------------

/**
 * How long a poll reuses the title and dates of its event. Long on purpose: a poll that needed the events
 * list every 10 minutes would double its requests; a renamed event shows its new title within 6 hours.
 */
export const EVENT_CONTEXT_TTL_SECONDS = 6 * 3600;

/**
 * The title and dates added to every registration of a poll: one cached lookup for the account and event.
 * An event the service does not list gets empty context (remembered too); a failed lookup adds no context
 * for this poll, is not remembered, and never fails the poll.
 */
export const pollEventContext = async (
  z: ZObject,
  bundle: Pick<Bundle, 'authData'>,
  eventId: string,
): Promise<EventContext> => {
  const cache = accountCache(z, bundle);
  const key = `poll:event-context:${eventId}`;
  const cached = await cache.get<EventContext>(key);
  if (cached) return cached;
  try {
    const context = eventContextOf(await findEvent(z, bundle, eventId));
    await cache.set(key, context, EVENT_CONTEXT_TTL_SECONDS);
    return context;
  } catch (error) {
    z.console.log(`The title and dates of event ${eventId} could not be added: ${reasonOf(error)}`);
    return NO_EVENT_CONTEXT;
  }
};
