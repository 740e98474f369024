// Events as the dashboard makes them: create, edit, publish, unpublish, delete, and make one odd.

import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context';
import { validation } from '../errors';
import { params, SIMULATION, tenantOf } from '../request';
import { iso } from '../state';
import { EVENT_STATUSES, type EventStatus } from '../types';
import {
  isValidTimezone,
  optionalEnum,
  optionalString,
  optionalTimestamp,
  requireObject,
  requireString,
  type Body,
} from '../validate';
import { registerOddRoutes } from './odd';

const MIN = 60_000;
const DAY = 24 * 60 * MIN;
const SLUG_RE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

interface EventFields {
  title?: string;
  slug?: string;
  startsAt?: string;
  endsAt?: string;
  timezone?: string;
  venueName?: string;
  description?: string;
  coverImageUrl?: string | null;
}

function readText(body: Body, out: EventFields): void {
  const title = optionalString(body, 'title', 200);
  if (title !== undefined) {
    if (title.trim() === '') throw validation('title', 'title must not be empty');
    out.title = title;
  }
  const slug = optionalString(body, 'slug', 80);
  if (slug !== undefined) {
    if (!SLUG_RE.test(slug)) throw validation('slug', 'slug must be lowercase letters, digits and dashes');
    out.slug = slug;
  }
  const venue = optionalString(body, 'venueName', 200);
  if (venue !== undefined) out.venueName = venue;
  const description = optionalString(body, 'description', 5000);
  if (description !== undefined) out.description = description;
  if (body.coverImageUrl === null) out.coverImageUrl = null;
  else {
    const cover = optionalString(body, 'coverImageUrl', 2048);
    if (cover !== undefined) out.coverImageUrl = cover;
  }
}

function readEventFields(body: Body, current?: { startsAt: string; endsAt: string }): EventFields {
  const out: EventFields = {};
  readText(body, out);
  const startsMs = optionalTimestamp(body, 'startsAt');
  const endsMs = optionalTimestamp(body, 'endsAt');
  if (startsMs !== undefined) out.startsAt = iso(startsMs);
  if (endsMs !== undefined) out.endsAt = iso(endsMs);
  const tz = optionalString(body, 'timezone', 64);
  if (tz !== undefined) {
    if (!isValidTimezone(tz))
      throw validation('timezone', 'timezone must be an IANA time zone such as Europe/Paris');
    out.timezone = tz;
  }
  const starts = out.startsAt ?? current?.startsAt;
  const ends = out.endsAt ?? current?.endsAt;
  if (starts !== undefined && ends !== undefined && ends < starts) {
    throw validation('endsAt', 'endsAt must not be before startsAt');
  }
  return out;
}

export function registerEventSimulation(app: FastifyInstance, ctx: SandboxContext): void {
  const { state } = ctx;

  app.post('/_sandbox/events', { config: SIMULATION }, async (req, reply) => {
    const tenant = tenantOf(req);
    const body = requireObject(req.body);
    requireString(body, 'title', 200);
    const fields = readEventFields(body);
    const status = optionalEnum<EventStatus>(body, 'status', ['draft', 'published']);
    const startsMs = Math.floor((state.now() + 30 * DAY) / DAY) * DAY + 8 * 60 * MIN;
    const startsAt = fields.startsAt ?? iso(startsMs);
    const endsAt = fields.endsAt ?? iso(Date.parse(startsAt) + 8 * 60 * MIN);
    if (endsAt < startsAt) throw validation('endsAt', 'endsAt must not be before startsAt');
    const e = state.createEvent(tenant, {
      title: fields.title as string,
      slug: fields.slug,
      startsAt,
      endsAt,
      timezone: fields.timezone ?? 'Europe/Paris',
      venueName: fields.venueName ?? 'To be announced',
      status,
      description: fields.description,
      coverImageUrl: fields.coverImageUrl,
    });
    return reply.code(201).send(state.eventJson(e));
  });

  // The organizer's own events as its dashboard finds them, drafts and events past the newest 100 included:
  // by ID or slug, or every word of `q` in the title or slug; exact first, then newest first, at most 20.
  app.get('/_sandbox/events', { config: SIMULATION }, async (req) => {
    const tenant = tenantOf(req);
    const q = String((req.query as Record<string, unknown>).q ?? '')
      .trim()
      .toLowerCase();
    if (!q) throw validation('q', 'q must name an event: its ID, its slug or words of its title');
    const words = q.split(/\s+/);
    const live = [...tenant.events.values()].filter((e) => !e.deleted);
    const exact = live.filter((e) => e.id.toLowerCase() === q || e.slug === q);
    const matching = live
      .filter(
        (e) => !exact.includes(e) && words.every((w) => `${e.title} ${e.slug}`.toLowerCase().includes(w)),
      )
      .sort((a, b) => b.createdMs - a.createdMs);
    return { data: [...exact, ...matching].slice(0, 20).map((e) => state.eventJson(e)) };
  });

  app.patch('/_sandbox/events/:id', { config: SIMULATION }, async (req) => {
    const tenant = tenantOf(req);
    const current = state.event(tenant, params(req).id ?? '');
    const fields = readEventFields(requireObject(req.body), current);
    if (Object.keys(fields).length === 0) throw validation('body', 'Nothing to update');
    return state.eventJson(state.updateEvent(tenant, current.id, fields));
  });

  // One route per status: POST /_sandbox/events/:id/publish, /unpublish, …
  for (const [status, { verb }] of Object.entries(EVENT_STATUSES) as Array<[EventStatus, { verb: string }]>) {
    app.post(`/_sandbox/events/:id/${verb}`, { config: SIMULATION }, async (req) =>
      state.eventJson(state.setEventStatus(tenantOf(req), params(req).id ?? '', status)),
    );
  }

  app.delete('/_sandbox/events/:id', { config: SIMULATION }, async (req) =>
    state.eventJson(state.deleteEvent(tenantOf(req), params(req).id ?? '')),
  );

  registerOddRoutes(app, {
    path: '/_sandbox/events/:id',
    resource: 'event',
    find: (tenant, id) => state.event(tenant, id),
    show: (e) => state.eventJson(e),
  });
}
