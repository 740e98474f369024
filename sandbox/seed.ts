// Deterministic seed data: three organizers with events, submissions, orders, floor plans and agendas.
// Every timestamp is relative to the sandbox's start time (so "recent" data stays recent) and every value
// comes from a seeded generator, so a fixed `now` gives byte-identical data.

import { Prng } from './prng';
import {
  type EventSpec,
  EVENTS,
  FIRST_NAMES,
  LAST_NAMES,
  COMPANIES,
  JOB_TITLES,
  DIETS,
  COUNTRIES,
  TSHIRTS,
  WORKSHOPS,
  SOURCES,
  TICKETS,
  ADD_ONS,
  SESSION_TITLES,
  ROOMS,
  TRACKS,
  SPEAKER_TITLES,
} from './seed-data';
import type { SandboxState, Tenant } from './state';
import type {
  Answer,
  Booth,
  BoothStatus,
  EventRecord,
  FloorPlanRecord,
  LineItem,
  OrderStatus,
  Session,
  SubmissionRecord,
  SubmissionStatus,
} from './types';

/** Credentials and offers of the seeded organizers. The keys are fake and only work against the sandbox. */
export const SEED_TENANTS = [
  {
    id: 'ten_northwind',
    name: 'Northwind Events',
    apiKey: 'sk_sandbox_northwind_4f9a2c7e1b8d',
    companyId: 'cmp_northwind',
    webhookSecret: 'whsec_sandbox_northwind_0c1d2e3f4a5b6c7d',
    entitlements: { venue: true, agenda: true, qrScan: true },
    hookSecrets: true,
    currency: 'EUR',
  },
  {
    id: 'ten_lumen',
    name: 'Lumen Conferences',
    apiKey: 'sk_sandbox_lumen_9b3e5d1a7c2f',
    companyId: 'cmp_lumen',
    webhookSecret: 'whsec_sandbox_lumen_8e7f6a5b4c3d2e1f',
    entitlements: { venue: true, agenda: true, qrScan: false },
    hookSecrets: true,
    currency: 'EUR',
  },
  {
    id: 'ten_harbor',
    name: 'Harbor Meetups',
    apiKey: 'sk_sandbox_harbor_2d8c6b4a0e9f',
    companyId: 'cmp_harbor',
    webhookSecret: 'whsec_sandbox_harbor_5a6b7c8d9e0f1a2b',
    entitlements: { venue: false, agenda: false, qrScan: true },
    /** Harbor's subscriptions get no per-hook secret: deliveries are signed with webhookSecret. */
    hookSecrets: false,
    currency: 'USD',
  },
] as const;

export type SeedTenant = (typeof SEED_TENANTS)[number];

/** Slug of the extra event that `scale` fills (owned by the first seed tenant). */
export const SCALE_EVENT_SLUG = 'load-test-expo';

const SEED = 20261122;
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

function weighted<T extends { weight: number }>(rng: Prng, items: readonly T[]): T {
  const total = items.reduce((s, i) => s + i.weight, 0);
  let r = rng.next() * total;
  for (const item of items) {
    r -= item.weight;
    if (r < 0) return item;
  }
  return items[items.length - 1] as T;
}

/** Lowercase ASCII letters and digits of a name (names come from small pools, so each is cleaned once). */
const cleaned = new Map<string, string>();
function clean(s: string): string {
  let c = cleaned.get(s);
  if (c === undefined) {
    c = s
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/ł/gi, 'l')
      .replace(/ı/g, 'i')
      .replace(/ø/g, 'o')
      .replace(/æ/g, 'ae')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '');
    cleaned.set(s, c);
  }
  return c;
}

function emailFor(first: string, last: string, company: string, n: number): string {
  const suffix = n > 0 ? String(n) : '';
  return `${clean(first)}.${clean(last)}${suffix}@${clean(company)}.example`;
}

function answersFor(rng: Prng, tenantId: string, company: string): Answer[] {
  const answers: Answer[] = [
    { key: 'company', label: 'Company', value: company },
    { key: 'jobTitle', label: 'Job title', value: rng.pick(JOB_TITLES) },
    {
      key: 'diet',
      label: 'Dietary needs',
      value: rng.chance(0.6) ? [] : rng.sample(DIETS, rng.between(1, 2)),
    },
  ];
  if (tenantId === 'ten_harbor') {
    answers.push({ key: 'heardFrom', label: 'How did you hear about us?', value: rng.pick(SOURCES) });
    answers.push({
      key: 'linkedin',
      label: 'LinkedIn profile',
      value: rng.chance(0.3) ? null : 'https://www.linkedin.com/in/example',
    });
  } else {
    answers.push({ key: 'country', label: 'Country', value: rng.pick(COUNTRIES) });
    answers.push({ key: 'tshirt', label: 'T-shirt size', value: rng.pick(TSHIRTS) });
    if (rng.chance(0.4)) {
      answers.push({ key: 'workshops', label: 'Workshops', value: rng.sample(WORKSHOPS, rng.between(1, 2)) });
    }
    answers.push({ key: 'yearsExperience', label: 'Years of experience', value: rng.between(0, 25) });
  }
  answers.push({
    key: 'marketingOptIn',
    label: 'Keep me informed about future events',
    value: rng.chance(0.45),
  });
  return answers;
}

function boothsFor(rng: Prng, rows: number, cols: number): Booth[] {
  const booths: Booth[] = [];
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const label = `${String.fromCharCode(65 + r)}${String(c + 1).padStart(2, '0')}`;
      const wide = rng.chance(0.15);
      booths.push({
        id: label,
        label,
        status: 'available',
        x: 60 + c * 130,
        y: 80 + r * 150,
        w: wide ? 110 : 80,
        h: 60,
      });
    }
  }
  return booths;
}

function evolveBooths(rng: Prng, booths: Booth[], changes: number): void {
  const statuses: BoothStatus[] = ['held', 'booked', 'booked', 'available'];
  for (let i = 0; i < changes; i++) {
    const b = rng.pick(booths);
    b.status = rng.pick(statuses);
  }
}

export function agendaFor(rng: Prng, event: EventRecord, startMs: number, hours: number): Session[] {
  const sessions: Session[] = [];
  const days = Math.max(1, Math.ceil(hours / 24));
  const titles = rng.sample(SESSION_TITLES, SESSION_TITLES.length);
  let n = 0;
  for (let d = 0; d < days; d++) {
    const dayStart = startMs + d * DAY;
    const perDay = hours < 6 ? 3 : rng.between(4, 6);
    let t = dayStart + 30 * MIN;
    for (let i = 0; i < perDay; i++) {
      const len = rng.pick([30, 45, 45, 60]) * MIN;
      const speakers = Array.from({ length: i === 0 ? 1 : rng.between(1, 3) }, () => ({
        name: `${rng.pick(FIRST_NAMES)} ${rng.pick(LAST_NAMES)}`,
        title: rng.pick(SPEAKER_TITLES),
        company: rng.pick(COMPANIES),
      }));
      n++;
      sessions.push({
        id: `ses_${event.id.slice(0, 8)}_${n}`,
        title:
          i === 0 && d === 0
            ? 'Opening keynote'
            : i === perDay - 1 && d === days - 1 && perDay > 3
              ? 'Closing keynote'
              : (titles[n % titles.length] as string),
        startsAt: new Date(t).toISOString(),
        endsAt: new Date(t + len).toISOString(),
        room: i === 0 ? 'Main hall' : rng.pick(ROOMS),
        track: i === 0 ? 'Main' : rng.pick(TRACKS),
        speakers,
      });
      t += len + 15 * MIN;
    }
  }
  return sessions;
}

export interface SeedOptions {
  now: number;
  /** Seed data (events, submissions, …); without it the seed tenants exist but are empty. */
  data: boolean;
  /** Submissions of the extra load event (0: no load event). */
  scale: number;
}

/** Adds the seed tenants and, when asked, their data. */
export function seed(state: SandboxState, options: SeedOptions): void {
  const tenants = SEED_TENANTS.map((t) => state.addTenant({ ...t, entitlements: { ...t.entitlements } }));
  if (!options.data) return;
  const rng = new Prng(SEED);
  for (const tenant of tenants) seedTenant(state, tenant, rng, options.now);
  if (options.scale > 0) seedScale(state, tenants[0] as Tenant, options.now, options.scale);
}

interface TenantSeed {
  state: SandboxState;
  tenant: Tenant;
  rng: Prng;
  now: number;
  tickets: readonly { name: string; price: number; weight: number }[];
  /** How many seeded people already have an email address, so a repeat gets a numbered one. */
  emailCounts: Map<string, number>;
}

interface SeededEvent {
  spec: EventSpec;
  event: EventRecord;
  startMs: number;
  past: boolean;
}

function seedTenant(state: SandboxState, tenant: Tenant, rng: Prng, now: number): void {
  const tickets = TICKETS[tenant.settings.currency] ?? TICKETS.EUR ?? [];
  const seed: TenantSeed = { state, tenant, rng, now, tickets, emailCounts: new Map() };
  for (const spec of EVENTS[tenant.id] ?? []) {
    const seeded = seedEvent(seed, spec);
    seedRegistrations(seed, seeded);
    if (spec.floorPlans && tenant.settings.entitlements.venue) {
      seedFloorPlans(state, tenant, seeded.event, rng, now);
    }
    if (spec.agenda)
      tenant.agendas.set(seeded.event.id, agendaFor(rng, seeded.event, seeded.startMs, spec.durationHours));
  }
}

function seedEvent({ state, tenant, rng, now }: TenantSeed, spec: EventSpec): SeededEvent {
  const createdMs = now - spec.createdDaysAgo * DAY - rng.int(8 * HOUR);
  const startMs = Math.floor((now + spec.startInDays * DAY) / DAY) * DAY + spec.startHourUtc * HOUR;
  const endMs = startMs + spec.durationHours * HOUR;
  const event = state.createEvent(
    tenant,
    {
      id: rng.uuid(),
      title: spec.title,
      slug: spec.slug,
      startsAt: new Date(startMs).toISOString(),
      endsAt: new Date(endMs).toISOString(),
      timezone: spec.timezone,
      venueName: spec.venueName,
      status: spec.status,
      description: spec.description,
      coverImageUrl: `https://cdn.sandbox.example/covers/${spec.slug}.jpg`,
      createdMs,
    },
    { emit: false },
  );
  event.updatedAt = new Date(Math.min(now, createdMs + rng.between(1, 20) * DAY)).toISOString();
  return { spec, event, startMs, past: endMs < now };
}

/** When each registration of an event was made: skewed towards recent, plus five sharing one millisecond. */
function registrationTimes(
  { rng, now }: TenantSeed,
  { spec, event, startMs }: SeededEvent,
  special: boolean,
): number[] {
  const createdMs = event.createdMs;
  const createdTimes: number[] = [];
  for (let i = 0; i < spec.submissions; i++) {
    // Skewed towards recent: registrations pick up as the event approaches.
    const horizon = Math.min(now - MIN, startMs) - createdMs;
    const r = 1 - rng.next() ** 2;
    createdTimes.push(createdMs + Math.floor(horizon * r) + rng.int(1000));
  }
  if (special) {
    const shared = now - 7 * MIN - 877;
    for (let i = 0; i < 5; i++) createdTimes.push(shared);
  }
  return createdTimes.sort((a, b) => a - b);
}

function seedRegistrations(seed: TenantSeed, seeded: SeededEvent): void {
  // Several submissions that share one millisecond, and a few recent ones that become visible late.
  const special = seeded.spec.slug === 'techweek-paris-2026' || seeded.spec.slug === 'harbor-ai-night-sf';
  for (const createdMs of registrationTimes(seed, seeded, special)) seedRegistration(seed, seeded, createdMs);
  if (special) seedLateRegistrations(seed, seeded);
}

function seedRegistration(
  seed: TenantSeed,
  { spec, event, startMs, past }: SeededEvent,
  createdMsSub: number,
): void {
  const { state, tenant, rng, now, tickets, emailCounts } = seed;
  const first = rng.pick(FIRST_NAMES);
  const last = rng.pick(LAST_NAMES);
  const company = rng.pick(COMPANIES);
  const base = emailFor(first, last, company, 0);
  const seen = emailCounts.get(base) ?? 0;
  emailCounts.set(base, seen + 1);
  const ticket = weighted(rng, tickets);
  let status: SubmissionStatus;
  if (spec.status === 'draft') status = 'pending';
  else if (past) status = rng.chance(0.85) ? 'approved' : rng.chance(0.5) ? 'rejected' : 'pending';
  else status = rng.chance(0.55) ? 'approved' : rng.chance(0.67) ? 'pending' : 'rejected';
  const approvedMs = Math.min(now - 1000, createdMsSub + rng.between(5, 2 * 24 * 60) * MIN);
  const checkedInMs =
    past && status === 'approved' && rng.chance(0.75) ? startMs + rng.int(90 * MIN) : undefined;
  const sub = state.addSubmission(
    tenant,
    {
      id: state.newId('sub_', createdMsSub, 6, rng),
      eventId: event.id,
      email: emailFor(first, last, company, seen),
      firstName: first,
      lastName: last,
      answers: answersFor(rng, tenant.id, company),
      ticketType: ticket.name,
      status: approvedMs < createdMsSub ? 'pending' : status,
      createdMs: createdMsSub,
      approvedMs,
      checkedInMs,
    },
    { emit: false },
  );
  if (ticket.price > 0 && rng.chance(0.75)) seedOrder(seed, sub, ticket);
}

/** The order of a paid ticket, in a status that fits the registration's. */
function seedOrder(
  { state, tenant, rng, now }: TenantSeed,
  sub: SubmissionRecord,
  ticket: { name: string; price: number },
): void {
  const currency = tenant.settings.currency;
  const createdMsSub = sub.createdMs;
  const items: LineItem[] = [{ name: `${ticket.name} ticket`, quantity: 1, unitAmount: ticket.price }];
  if (currency === 'EUR' && rng.chance(0.3)) items.push({ ...rng.pick(ADD_ONS) });
  let orderStatus: OrderStatus;
  if (sub.status === 'approved') {
    orderStatus = weighted(rng, [
      { s: 'paid' as const, weight: 78 },
      { s: 'refunded' as const, weight: 10 },
      { s: 'failed' as const, weight: 6 },
      { s: 'pending' as const, weight: 6 },
    ]).s;
  } else if (sub.status === 'pending') {
    orderStatus = rng.pick(['pending', 'pending', 'failed', 'paid'] as const);
  } else {
    orderStatus = rng.pick(['failed', 'refunded'] as const);
  }
  // Paid a few seconds to a quarter of an hour after registering (never in the future).
  const room = now - 1000 - createdMsSub;
  const orderMs =
    createdMsSub + Math.floor(Math.min(room, rng.between(1, 15) * MIN) * (0.2 + 0.8 * rng.next()));
  const settledMs =
    orderStatus === 'refunded'
      ? orderMs + rng.between(1, 10) * DAY
      : orderStatus === 'pending'
        ? orderMs
        : orderMs + rng.between(2, 40) * 1000;
  state.addOrder(
    tenant,
    {
      submissionId: sub.submissionId,
      items,
      currency,
      status: orderStatus,
      createdMs: orderMs,
      updatedMs: Math.min(now - 1, Math.max(orderMs, settledMs)),
    },
    { emit: false, rng },
  );
}

/** Recent submissions that the polling list shows only up to two minutes after their createdAt. */
function seedLateRegistrations(
  { state, tenant, rng, now, tickets }: TenantSeed,
  { event }: SeededEvent,
): void {
  for (const [ago, lag] of [
    [40_000, 100_000],
    [20_000, 110_000],
    [5_000, 90_000],
  ] as const) {
    const first = rng.pick(FIRST_NAMES);
    const last = rng.pick(LAST_NAMES);
    const company = rng.pick(COMPANIES);
    const createdMsSub = now - ago;
    state.addSubmission(
      tenant,
      {
        id: state.newId('sub_', createdMsSub, 6, rng),
        eventId: event.id,
        email: emailFor(first, last, company, 90 + rng.int(9)),
        firstName: first,
        lastName: last,
        answers: answersFor(rng, tenant.id, company),
        ticketType: weighted(rng, tickets).name,
        status: 'pending',
        createdMs: createdMsSub,
        visibleMs: createdMsSub + lag,
      },
      { emit: false },
    );
  }
}

export function seedFloorPlans(
  state: SandboxState,
  tenant: Tenant,
  event: EventRecord,
  rng: Prng,
  now: number,
): void {
  const plans = new Map<string, FloorPlanRecord>();
  tenant.floorPlans.set(event.id, plans);
  const specs = [
    { id: 'plan_main', name: 'Main hall', rows: 4, cols: 8, versions: 3 },
    { id: 'plan_expo', name: 'Expo level 2', rows: 3, cols: 6, versions: 1 },
    // Drawn in the dashboard but never published: never served.
    { id: 'plan_annex', name: 'Annex (draft)', rows: 2, cols: 4, versions: 0 },
  ];
  for (const spec of specs) {
    const booths = boothsFor(rng, spec.rows, spec.cols);
    plans.set(spec.id, {
      id: spec.id,
      eventId: event.id,
      name: spec.name,
      width: 60 + spec.cols * 130 + 40,
      height: 80 + spec.rows * 150 + 40,
      booths,
      snapshots: [],
    });
    for (let v = 0; v < spec.versions; v++) {
      evolveBooths(rng, booths, Math.ceil(booths.length / 3));
      state.publishPlan(tenant, event.id, spec.id, now - (spec.versions - v) * 6 * DAY - rng.int(DAY));
    }
    // Holds and bookings made since the last publish: in the draft only.
    if (spec.versions > 0) evolveBooths(rng, booths, 3);
  }
}

/** One extra published event with `count` submissions spread over the last 24 hours (load work). */
function seedScale(state: SandboxState, tenant: Tenant, now: number, count: number): void {
  const rng = new Prng(SEED + count);
  const startMs = Math.floor((now + 14 * DAY) / DAY) * DAY + 8 * HOUR;
  const event = state.createEvent(
    tenant,
    {
      id: rng.uuid(),
      title: 'Load Test Expo',
      slug: SCALE_EVENT_SLUG,
      startsAt: new Date(startMs).toISOString(),
      endsAt: new Date(startMs + 10 * HOUR).toISOString(),
      timezone: 'Europe/Paris',
      venueName: 'Paris Expo Porte de Versailles',
      status: 'published',
      description: 'A large expo used for load work.',
      createdMs: now - 30 * DAY,
    },
    { emit: false },
  );
  // Answers are shared between submissions (never mutated), which keeps 100,000 submissions small.
  const answerPool = Array.from({ length: 64 }, () => answersFor(rng, tenant.id, rng.pick(COMPANIES)));
  const step = DAY / count;
  const from = now - DAY;
  for (let i = 0; i < count; i++) {
    const createdMs = Math.floor(from + i * step + rng.next() * step * 0.9);
    const first = rng.pick(FIRST_NAMES);
    const last = rng.pick(LAST_NAMES);
    const roll = rng.next();
    const status: SubmissionStatus = roll < 0.85 ? 'approved' : roll < 0.95 ? 'pending' : 'rejected';
    state.addSubmission(
      tenant,
      {
        id: state.newId('sub_', createdMs, 6, rng),
        eventId: event.id,
        email: `${clean(first)}.${clean(last)}.${i}@loadtest.example`,
        firstName: first,
        lastName: last,
        answers: answerPool[i % answerPool.length] ?? [],
        ticketType: 'Standard',
        status,
        createdMs,
        approvedMs: Math.min(now - 1, createdMs + 60_000),
      },
      { emit: false },
    );
  }
}
