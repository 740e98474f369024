/**
 * Agenda and floor-plan answers, cached for the account as the interface document asks (5 to 10 minutes;
 * floor plans refreshed after holds or bookings, hence `fresh`). The cache is an optimisation only: a cache
 * failure falls back to the API, and "not found" answers are never cached (a plan or agenda published a
 * minute later shows up at once).
 */
import type { Bundle, ZObject } from 'zapier-platform-core';
import { type Agenda, type FloorPlan, getAgenda, getFloorPlan, listFloorPlans } from '../connect';
import { accountCache } from '../memory';

/** Agenda lines change rarely: the upper bound of the interface document. */
export const AGENDA_TTL_SECONDS = 600;
/** Booth statuses change with every hold or booking: the lower bound. */
export const FLOOR_PLAN_TTL_SECONDS = 300;

export interface Fetched<T> {
  value: T;
  /** When the service gave the value (ISO 8601). */
  fetchedAt: string;
}

type B = Pick<Bundle, 'authData'>;

/** `load()` through the account cache; a `null` answer is returned but not kept. */
const cachedFound = async <T>(
  z: ZObject,
  bundle: B,
  key: string,
  ttlSeconds: number,
  load: () => Promise<T | null>,
  fresh: boolean,
  now: () => number,
): Promise<Fetched<T | null>> => {
  const cache = accountCache(z, bundle, now);
  if (!fresh) {
    const hit = await cache.get<Fetched<T>>(key);
    if (hit && typeof hit === 'object' && 'fetchedAt' in hit) return hit;
  }
  const fetchedAt = new Date(now()).toISOString();
  const value = await load();
  if (value === null) {
    await cache.delete(key);
    return { value: null, fetchedAt };
  }
  const entry: Fetched<T> = { value, fetchedAt };
  await cache.set(key, entry, ttlSeconds);
  return entry;
};

/** The agenda widget of a published event, by slug; `null` when the event is unknown or not published. */
export const cachedAgenda = (z: ZObject, bundle: B, slug: string, fresh = false, now = Date.now) =>
  cachedFound<Agenda>(
    z,
    bundle,
    `agenda:${slug}`,
    AGENDA_TTL_SECONDS,
    () => getAgenda(z, bundle, slug),
    fresh,
    now,
  );

/** The event's published floor plans (an empty list is kept: it is an answer, not a miss). */
export const cachedFloorPlans = async (
  z: ZObject,
  bundle: B,
  eventId: string,
  fresh = false,
  now = Date.now,
): Promise<Fetched<FloorPlan[]>> => {
  const result = await cachedFound<FloorPlan[]>(
    z,
    bundle,
    `floor-plans:${eventId}`,
    FLOOR_PLAN_TTL_SECONDS,
    () => listFloorPlans(z, bundle, eventId),
    fresh,
    now,
  );
  return { value: result.value ?? [], fetchedAt: result.fetchedAt };
};

/** One published floor plan; `null` when unknown or never published. */
export const cachedFloorPlan = (
  z: ZObject,
  bundle: B,
  eventId: string,
  planId: string,
  fresh = false,
  now = Date.now,
) =>
  cachedFound<FloorPlan>(
    z,
    bundle,
    `floor-plan:${eventId}:${planId}`,
    FLOOR_PLAN_TTL_SECONDS,
    () => getFloorPlan(z, bundle, eventId, planId),
    fresh,
    now,
  );
