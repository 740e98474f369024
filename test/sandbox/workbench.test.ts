// The browser surfaces (map page, embed script), cross-origin access to the public surfaces, and a
// delivery's body and signature on demand.

import type { FastifyInstance } from 'fastify';
import { signatureOf } from '../../sandbox/wire';
import { call, deliveriesIdle, eventId, HARBOR, json, LUMEN, makeApp, Receiver, subscribe } from './helpers';
import { errorOf, recordsOf } from '../../src/connect/testing';

const ORIGIN = { origin: 'https://organizer.example' };

describe('map page /embed/:eventUuid/map/:planId', () => {
  let app: FastifyInstance;
  let techweek: string;
  beforeAll(async () => {
    ({ app } = makeApp());
    techweek = await eventId(app, 'techweek-paris-2026');
  });
  afterAll(() => app.close());

  it('draws the published plan to scale, every booth coloured by its status, with the list when list=1', async () => {
    const plan = json(await call(app, 'GET', `/connect/v1/events/${techweek}/floor-plans/plan_main`));
    const res = await call(app, 'GET', `/embed/${techweek}/map/plan_main?list=1`, { key: null });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    const html = res.body;
    expect(html).toContain(`viewBox="0 0 ${plan.width} ${plan.height}"`);
    for (const b of plan.booths as {
      id: string;
      status: string;
      x: number;
      y: number;
      w: number;
      h: number;
    }[]) {
      expect(html).toContain(`data-booth="${b.id}" data-status="${b.status}"`);
      expect(html).toContain(`<rect x="${b.x}" y="${b.y}" width="${b.w}" height="${b.h}"`);
    }
    const rows = html.match(/<tr data-booth=/g) ?? [];
    expect(rows).toHaveLength(plan.booths.length);
    const booked = plan.booths.filter((b: { status: string }) => b.status === 'booked').length;
    expect(html).toContain(`Booked ${booked}</span>`);
    expect(html).toContain('max-height:720px');

    const noList = await call(app, 'GET', `/embed/${techweek}/map/plan_main`, { key: null });
    expect(noList.body).not.toContain('<tr data-booth=');
  });

  it('shows the new status once a booking is published', async () => {
    const before = json(await call(app, 'GET', `/connect/v1/events/${techweek}/floor-plans/plan_main`));
    const booth = before.booths.find((b: { status: string }) => b.status === 'available');
    const path = `/_sandbox/events/${techweek}/floor-plans/plan_main`;
    await call(app, 'POST', `${path}/booths/${booth.id}`, { body: { status: 'booked' } });
    const draft = await call(app, 'GET', `/embed/${techweek}/map/plan_main`, { key: null });
    expect(draft.body).toContain(`data-booth="${booth.id}" data-status="available"`);
    await call(app, 'POST', `${path}/publish`);
    const after = await call(app, 'GET', `/embed/${techweek}/map/plan_main`, { key: null });
    expect(after.body).toContain(`data-booth="${booth.id}" data-status="booked"`);
    expect(after.body).toContain(`version ${before.version + 1}`);
  });

  it('says why nothing is shown: draft event, unknown or unpublished plan, no venue feature', async () => {
    const draft = recordsOf<{ id: string; status: string }>(
      'event',
      json(await call(app, 'GET', '/api/v1/integrations/zapier/events?limit=100')),
    ).find((e) => e.status === 'draft')!;
    const cases: [string, number, string][] = [
      [`/embed/${draft.id}/map/plan_main`, 404, 'This event is not published.'],
      [`/embed/00000000-0000-4000-8000-000000000000/map/plan_main`, 404, 'This event is not published.'],
      [`/embed/${techweek}/map/plan_annex`, 404, 'This floor plan is not published.'],
      [`/embed/${techweek}/map/nope`, 404, 'This floor plan is not published.'],
    ];
    for (const [url, status, text] of cases) {
      const res = await call(app, 'GET', url, { key: null });
      expect({ url, status: res.statusCode, type: res.headers['content-type'] }).toEqual({
        url,
        status,
        type: expect.stringMatching(/^text\/html/),
      });
      expect(res.body).toContain(text);
    }
    const harborEvent = await eventId(app, 'harbor-founders-breakfast', HARBOR.apiKey);
    const res = await call(app, 'GET', `/embed/${harborEvent}/map/plan_main`, { key: null });
    expect(res.statusCode).toBe(403);
    expect(res.body).toContain('Floor plans are not part of this event.');
  });

  it('escapes what the organizer typed', async () => {
    const title = '<img src=x onerror=alert(1)> & "Co"';
    await call(app, 'PATCH', `/_sandbox/events/${techweek}`, { body: { title } });
    const res = await call(app, 'GET', `/embed/${techweek}/map/plan_main?list=1`, { key: null });
    expect(res.body).not.toContain('<img src=x');
    expect(res.body).toContain('&lt;img src=x onerror=alert(1)&gt; &amp; &quot;Co&quot;');
  });
});

describe('embed script and cross-origin access', () => {
  let app: FastifyInstance;
  beforeAll(() => {
    ({ app } = makeApp());
  });
  afterAll(() => app.close());

  it('serves the embed script as JavaScript that fills data-service="agenda" blocks', async () => {
    const res = await call(app, 'GET', '/embed/v1/service-embed.js', { key: null, headers: ORIGIN });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/javascript/);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.body).toContain('[data-service="agenda"]');
    expect(res.body).toContain('/widgets/event/');
    expect(() => new Function(res.body)).not.toThrow();
  });

  it('lets any site read the public surfaces, never the keyed ones', async () => {
    const techweek = await eventId(app, 'techweek-paris-2026');
    for (const url of [
      '/api/v1/public/events',
      '/widgets/event/techweek-paris-2026',
      '/widgets/event/techweek-paris-2026/agenda',
      '/widgets/event/no-such-event/agenda',
      `/embed/${techweek}/map/plan_main?list=1`,
    ]) {
      const res = await call(app, 'GET', url, { key: null, headers: ORIGIN });
      expect({ url, cors: res.headers['access-control-allow-origin'] }).toEqual({ url, cors: '*' });
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    }
    for (const url of ['/api/v1/integrations/zapier/events', `/connect/v1/events/${techweek}/floor-plans`]) {
      const res = await call(app, 'GET', url, { headers: ORIGIN });
      expect(res.statusCode).toBe(200);
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    }
  });

  it('answers a preflight on public paths only', async () => {
    const res = await app.inject({
      method: 'OPTIONS',
      url: '/widgets/event/techweek-paris-2026/agenda',
      headers: {
        ...ORIGIN,
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'accept',
      },
    });
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-allow-methods']).toBe('GET, HEAD, OPTIONS');
    expect(res.headers['access-control-allow-headers']).toBe('accept');
    const keyed = await app.inject({
      method: 'OPTIONS',
      url: '/api/v1/integrations/zapier/events',
      headers: { ...ORIGIN, 'access-control-request-method': 'GET' },
    });
    expect(keyed.statusCode).toBe(404);
    expect(keyed.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('keeps the CORS header on an injected failure of a public surface', async () => {
    await call(app, 'POST', '/_sandbox/faults', {
      body: { route: 'GET /widgets/event/:slug/agenda', kind: '500', count: 1 },
    });
    const res = await call(app, 'GET', '/widgets/event/techweek-paris-2026/agenda', {
      key: null,
      headers: ORIGIN,
    });
    expect(res.statusCode).toBe(500);
    expect(res.headers['access-control-allow-origin']).toBe('*');
  });
});

describe('GET /_sandbox/deliveries/:deliveryId', () => {
  it('shows the exact body and signature a delivery was sent with, to its tenant only', async () => {
    const { app } = makeApp();
    const receiver = await new Receiver().start();
    try {
      const hook = await subscribe(app, `${receiver.url}/hook`, 'EVENT_*');
      await call(app, 'POST', '/_sandbox/events', { body: { title: 'Shown on demand' } });
      const [received] = await receiver.waitFor(1);
      expect(await deliveriesIdle(app)).toBe(true);
      const deliveryId = received?.body.id as string;
      const res = await call(app, 'GET', `/_sandbox/deliveries/${deliveryId}`);
      expect(res.statusCode).toBe(200);
      const shown = json(res);
      expect(shown.body).toBe(received?.raw.toString('utf8'));
      expect(shown.headers['X-Connect-Signature']).toBe(received?.headers['x-connect-signature']);
      expect(shown.headers['X-Connect-Signature']).toBe(
        signatureOf(shown.body, hook.secret, Date.parse(received?.body.createdAt)),
      );
      expect(shown).toMatchObject({ deliveryId, type: 'EVENT_CREATED', subscriptionId: hook.id });
      expect(shown.attempts).toEqual([expect.objectContaining({ attempt: 1, state: 'delivered' })]);

      const other = await call(app, 'GET', `/_sandbox/deliveries/${deliveryId}`, { key: LUMEN.apiKey });
      expect(other.statusCode).toBe(404);
      expect(errorOf(json(other))).toMatchObject({ code: 'NOT_FOUND', field: 'deliveryId' });
      const none = await call(app, 'GET', '/_sandbox/deliveries/dlv_unknown');
      expect(none.statusCode).toBe(404);
      const noKey = await call(app, 'GET', `/_sandbox/deliveries/${deliveryId}`, { key: null });
      expect(noKey.statusCode).toBe(401);
    } finally {
      await receiver.close();
      await app.close();
    }
  });
});
