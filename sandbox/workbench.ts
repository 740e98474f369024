// What the sandbox serves beyond Connect so that everything can be tried by hand: the browser surfaces the
// interface document puts on the organizer's site (the front application's map page and the embed script),
// cross-origin access to every public surface, and the body and signature of a delivery on demand.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SandboxContext } from './context';
import type { DeviationSet } from './deviations';
import { mapPage, unavailablePage } from './embed/map';
import { ApiError } from './errors';
import type { EventRecord } from './types';

/** Paths a visitor's browser may read from any origin: catalog, widgets, map pages, the embed script. */
export const PUBLIC_PATH = /^\/(?:widgets\/|api\/v1\/public\/|embed\/)/;

export const EMBED_SCRIPT_PATH = '/embed/v1/service-embed.js';

/** The fields of the agenda widget's answers the embed script reads, in the contract's names. */
const EMBED_FIELDS = [
  'timezone',
  'sessions',
  'id',
  'title',
  'startsAt',
  'endsAt',
  'room',
  'track',
  'speakers',
  'name',
];

let scriptSource: string | null = null;
/** The embed script, reading the names this sandbox's answers carry (`deviations.ts`). */
const embedScript = (deviations: DeviationSet): string => {
  scriptSource ??= readFileSync(path.join(__dirname, 'embed', 'service-embed.js'), 'utf8');
  const names = Object.fromEntries(EMBED_FIELDS.map((name) => [name, deviations.wireName(name)]));
  return scriptSource.replace('var NAMES = {};', `var NAMES = ${JSON.stringify(names)};`);
};

const params = (req: FastifyRequest): Record<string, string> => req.params as Record<string, string>;

function publicEventById(ctx: SandboxContext, id: string): EventRecord | null {
  for (const tenant of ctx.state.tenants.values()) {
    const e = tenant.events.get(id);
    if (e) return e.deleted || e.status !== 'published' ? null : e;
  }
  return null;
}

function preflight(req: FastifyRequest, reply: FastifyReply): void {
  const asked = req.headers['access-control-request-headers'];
  reply
    .code(204)
    .header('Access-Control-Allow-Methods', 'GET, HEAD, OPTIONS')
    .header('Access-Control-Allow-Headers', typeof asked === 'string' && asked ? asked : 'Accept')
    .header('Access-Control-Max-Age', '86400')
    .send();
}

export function registerWorkbenchRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  // A public widget host: any site may read the public surfaces, without credentials. Keyed routes get no
  // CORS header, so a browser can never read them (the key belongs on the organizer's server).
  app.addHook('onSend', async (req, reply, payload) => {
    if (PUBLIC_PATH.test(req.url)) {
      reply.header('Access-Control-Allow-Origin', '*');
      reply.header('Cross-Origin-Resource-Policy', 'cross-origin');
    }
    return payload;
  });
  for (const prefix of ['/widgets/*', '/api/v1/public/*', '/embed/*']) app.options(prefix, preflight);

  // The front application's map page, framed by the organizer's site.
  app.get('/embed/:eventUuid/map/:planId', async (req, reply) => {
    const { eventUuid = '', planId = '' } = params(req);
    const q = req.query as Record<string, unknown>;
    const withList = q.list === '1' || q.list === 'true';
    reply.type('text/html; charset=utf-8').header('Cache-Control', 'no-cache');
    const event = publicEventById(ctx, eventUuid);
    if (!event) return reply.code(404).send(unavailablePage('This event is not published.'));
    const owner = ctx.state.tenants.get(event.tenantId);
    if (!owner?.settings.entitlements.venue) {
      return reply.code(403).send(unavailablePage('Floor plans are not part of this event.'));
    }
    const plan = owner.floorPlans.get(event.id)?.get(planId);
    const snapshot = plan?.snapshots[plan.snapshots.length - 1];
    if (!snapshot) return reply.code(404).send(unavailablePage('This floor plan is not published.'));
    return reply.send(mapPage(event, snapshot, withList));
  });

  // The embed script that fills `data-service="agenda"` blocks.
  app.get(EMBED_SCRIPT_PATH, async (_req, reply) =>
    reply
      .type('text/javascript; charset=utf-8')
      .header('Cache-Control', 'public, max-age=300')
      .send(embedScript(ctx.deviations)),
  );

  // One delivery with the exact body and signature it was sent with, and every attempt.
  app.get('/_sandbox/deliveries/:deliveryId', { config: { auth: true } }, async (req) => {
    const tenant = req.tenant;
    const { deliveryId = '' } = params(req);
    const sent = ctx.delivery.sentBody(deliveryId);
    if (!tenant || !sent || sent.tenantId !== tenant.id) {
      throw new ApiError(404, 'NOT_FOUND', 'Delivery not found (only the most recent ones are kept)', {
        field: 'deliveryId',
      });
    }
    const attempts = ctx.delivery.log(tenant.id).filter((e) => e.deliveryId === deliveryId);
    const first = attempts[0];
    return {
      deliveryId,
      type: first?.type ?? null,
      subscriptionId: first?.subscriptionId ?? null,
      targetUrl: first?.targetUrl ?? null,
      headers: { 'Content-Type': 'application/json', [ctx.deviations.signatureHeader()]: sent.signature },
      body: sent.body,
      attempts,
    };
  });
}
