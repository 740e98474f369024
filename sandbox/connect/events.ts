// Events: the tenant's list (keyed), the public catalog and the event and agenda widgets (keyless).

import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context';
import { entitlementRequired } from '../errors';
import { KEYED, KEYLESS, params, query, tenantOf } from '../request';
import { readLimit, readPage } from '../validate';
import { ROUTES } from './routes';

/** The largest `limit` the events list honours with the `large-limits` deviation. */
export const LARGE_LIMIT_MAX = 1000;

export function registerEventRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  const { state } = ctx;

  // The tenant's events, newest kept when limit cuts.
  app.get(ROUTES.events.pattern, { config: KEYED }, async (req) => {
    const tenant = tenantOf(req);
    const max = ctx.deviations.has('large-limits') ? LARGE_LIMIT_MAX : 100;
    const limit = readLimit(query(req), 20, max, ctx.deviations.has('limit-rejected'));
    const all = [...tenant.events.values()]
      .filter((e) => !e.deleted)
      .sort((a, b) => b.createdMs - a.createdMs || (a.id < b.id ? -1 : 1));
    const events = all.slice(0, limit);
    return ctx.deviations.listBody(ctx.order(events.map((e) => state.eventJson(e))), {}, all.length > limit);
  });

  // Public catalog: published events of every organizer, paged (soonest first; shuffle shuffles a page), by
  // page number or, with `catalog-cursor`, by cursor.
  app.get(ROUTES.catalog.pattern, { config: KEYLESS }, async (req) => {
    const q = query(req);
    const page = readPage(q);
    const limit = readLimit(q, 20, 100, ctx.deviations.has('limit-rejected'));
    const all = [...state.eventsBySlug.values()]
      .filter((e) => e.status === 'published' && !e.deleted)
      .sort((a, b) => (a.startsAt < b.startsAt ? -1 : a.startsAt > b.startsAt ? 1 : a.id < b.id ? -1 : 1));
    const { records, members, cut } = ctx.deviations.catalogPage(all, page, q.cursor, limit);
    return ctx.deviations.listBody(ctx.order(records.map((e) => state.eventJson(e))), members, cut);
  });

  app.get(ROUTES.eventWidget.pattern, { config: KEYLESS }, async (req) => {
    const e = state.publicEventBySlug(params(req).slug ?? '');
    return ctx.deviations.record({
      ...state.eventJson(e),
      description: e.description,
      coverImageUrl: e.coverImageUrl,
    });
  });

  // Agenda widget (agenda entitlement of the owning organizer).
  app.get(ROUTES.agendaWidget.pattern, { config: KEYLESS }, async (req, reply) => {
    const e = state.publicEventBySlug(params(req).slug ?? '');
    const owner = state.tenants.get(e.tenantId);
    if (!owner?.settings.entitlements.agenda) throw entitlementRequired('agenda');
    const sessions = [...(owner.agendas.get(e.id) ?? [])].sort((a, b) =>
      a.startsAt < b.startsAt ? -1 : a.startsAt > b.startsAt ? 1 : 0,
    );
    reply.header('Cache-Control', 'public, max-age=300');
    return ctx.deviations.record({ eventId: e.id, slug: e.slug, timezone: e.timezone, sessions });
  });
}
