// The agency account (opt-in: `agency: N`, CLI `--agency [N]`): an organizer with N events made over about two
// years, one every 17 hours, so that the service's events list (the newest 100) holds only a tenth of a
// 1,000-event account and its older events are reached through the public catalog. Every tenth event is a
// draft; the oldest is published with an agenda and published floor plans. Deterministic for a given N and
// `now`; no registrations, so it starts in milliseconds. The three seed organizers are not changed.

import { Prng } from './prng';
import { agendaFor, seedFloorPlans } from './seed';
import type { SandboxState, Tenant } from './state';

/** The agency organizer: every feature, per-subscription hook secrets. Its key only works against the sandbox. */
export const AGENCY_TENANT = {
  id: 'ten_meridian',
  name: 'Meridian Agency',
  apiKey: 'sk_sandbox_meridian_7c1e9a3f5b2d',
  companyId: 'cmp_meridian',
  webhookSecret: 'whsec_sandbox_meridian_3b4c5d6e7f8a9b0c',
  entitlements: { venue: true, agenda: true, qrScan: true },
  hookSecrets: true,
  currency: 'EUR',
} as const;

/** Events of the agency account when `--agency` is given without a number. */
export const AGENCY_EVENTS_DEFAULT = 1000;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Time between two events' creation. */
const EVERY = 17 * HOUR;
const CLIENTS = ['Harbor Bank', 'Northlight Studio', 'Atlas Foods', 'Kite Mobility', 'Verde Energy'];

/** The slug of the agency's n-th event (1 = the oldest). */
export const agencySlug = (n: number): string => `meridian-meetup-${String(n).padStart(4, '0')}`;

/** Adds the agency organizer and its `count` events (oldest first: event 1 is the oldest). */
export function seedAgency(state: SandboxState, now: number, count: number): Tenant {
  const tenant = state.addTenant({ ...AGENCY_TENANT, entitlements: { ...AGENCY_TENANT.entitlements } });
  const rng = new Prng(20261128 + count);
  for (let n = 1; n <= count; n++) {
    const createdMs = now - (count - n + 1) * EVERY;
    const startMs = Math.floor((createdMs + 21 * DAY) / DAY) * DAY + 17 * HOUR;
    const client = CLIENTS[n % CLIENTS.length] as string;
    const event = state.createEvent(
      tenant,
      {
        id: rng.uuid(),
        title: `Meridian Meetup ${String(n).padStart(4, '0')} for ${client}`,
        slug: agencySlug(n),
        startsAt: new Date(startMs).toISOString(),
        endsAt: new Date(startMs + 3 * HOUR).toISOString(),
        timezone: 'Europe/Paris',
        venueName: `${client} offices`,
        status: n % 10 === 5 ? 'draft' : 'published',
        description: `Evening meetup number ${n} that Meridian Agency runs for ${client}.`,
        coverImageUrl: `https://cdn.sandbox.example/covers/${agencySlug(n)}.jpg`,
        createdMs,
      },
      { emit: false },
    );
    event.updatedAt = new Date(createdMs).toISOString();
    if (n === 1) {
      tenant.agendas.set(event.id, agendaFor(rng, event, startMs, 3));
      seedFloorPlans(state, tenant, event, rng, now);
    }
  }
  return tenant;
}
