/**
 * The integration's main job, end to end, on the embedded sandbox: the app's own operations run as Zapier
 * runs them (through `createAppTester`), against a local Connect server over real HTTP.
 *
 * connect → dropdowns → polling triggers → instant triggers subscribe → registration, approval, payment and
 * door check-in happen in the service → each signed delivery reaches its trigger's `perform` in Zapier's
 * `rawRequest` form → a replayed and a tampered delivery are dropped → check-in twice → searches → embed
 * code → bad input → unsubscribe.
 */
import { type PerformFunction, createAppTester } from 'zapier-platform-core';
import App from '../../index';
import authentication from '../../src/authentication';
import { SEED_TENANTS, type RunningSandbox, deliveriesIdle, sandboxCall, startSandbox } from '../../sandbox';
import { type HookReceiver, hookBundle, startHookReceiver } from '../../test/support/hookRequest';
import { functionOf } from '../lib/app';
import { type Printer, Runner, check, describeError } from './runner';

type Item = Record<string, unknown>;

const NORTHWIND = SEED_TENANTS[0];
const LUMEN = SEED_TENANTS[1];

const HOOK_TRIGGERS = [
  'event_changed',
  'event_published',
  'new_registration',
  'registration_approved',
  'payment_succeeded',
  'payment_failed',
  'payment_refunded',
  'attendee_checked_in',
] as const;
type HookKey = (typeof HOOK_TRIGGERS)[number];
/** Triggers subscribed to every event of the account; the others follow the journey's event only. */
const ACCOUNT_WIDE: ReadonlySet<HookKey> = new Set(['event_changed', 'event_published']);

const asItems = (value: unknown): Item[] => (Array.isArray(value) ? (value as Item[]) : [value as Item]);

/** The first sentence of a message, for the table. */
const firstSentence = (text: string): string => text.replace(/^(.*?\.)(\s.*)?$/s, '$1');

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

const shortTime = (iso: unknown) =>
  typeof iso === 'string' ? iso.replace(/\.\d{3}Z$/, 'Z').replace('T', ' ') : '—';

/** One line about an item of any noun, for the table. */
const summary = (item: Item | undefined): string => {
  if (!item) return 'no item';
  if (typeof item.totalFormatted === 'string') {
    return `${String(item.orderId ?? item.id)} · ${item.totalFormatted} · ${String(item.status)}${item.eventTitle ? ` · ${String(item.eventTitle)}` : ''}`;
  }
  if (typeof item.fullName === 'string' || typeof item.email === 'string') {
    return `${String(item.fullName ?? item.email)} <${String(item.email)}> · ${String(item.status)}${item.eventTitle ? ` · ${String(item.eventTitle)}` : ''}`;
  }
  if (typeof item.title === 'string') {
    return `"${item.title}" · ${String(item.status)}${item.change ? ` · change: ${String(item.change)}` : ''}`;
  }
  return JSON.stringify(item).slice(0, 80);
};

export interface JourneyResult {
  ok: boolean;
  rows: Runner['rows'];
  seconds: number;
}

export interface JourneyOptions {
  out: Printer;
}

export const runJourney = async ({ out }: JourneyOptions): Promise<JourneyResult> => {
  const started = performance.now();
  const run = new Runner(out);
  const appTester = createAppTester(App);
  const call = (fn: PerformFunction, bundle: Record<string, unknown>): Promise<unknown> =>
    appTester(fn, bundle);

  // The app's own log lines (why a delivery was dropped, …) are collected, not printed over the table.
  const appLogs: string[] = [];
  const consoleLog = console.log;
  const logToStdout = process.env.LOG_TO_STDOUT;
  process.env.LOG_TO_STDOUT = 'true';
  console.log = (...args: unknown[]) => appLogs.push(args.map(String).join(' '));

  let sandbox: RunningSandbox | undefined;
  let receiver: HookReceiver | undefined;
  try {
    run.heading('1. The service', 'an embedded Connect sandbox on 127.0.0.1, seeded with three organizers');
    sandbox = await run.step('Start the Connect sandbox', async () => {
      const value = await startSandbox({
        port: 0,
        delivery: { baseDelayMs: 20, maxDelayMs: 200, timeoutMs: 2_000 },
      });
      return { detail: `${value.url} · organizer "${NORTHWIND.name}"`, value };
    });
    receiver = await run.step('Start a local stand-in for Zapier hooks', async () => {
      const value = await startHookReceiver();
      return { detail: value.targetUrl('<trigger>').replace('%3Ctrigger%3E', '<trigger>'), value };
    });
    if (!sandbox || !receiver) throw new Error('the sandbox or the receiver did not start');
    const sb = sandbox;
    const hooks = receiver;
    const authData = {
      apiKey: NORTHWIND.apiKey,
      baseUrl: sb.url,
      companyId: NORTHWIND.companyId,
      frontUrl: 'https://front.example.com',
      embedUrl: 'https://embed.example.com',
    };
    /** What organizers, attendees and the door app do in the service itself (its simulation API). */
    const service = {
      call: <T = Item>(method: string, path: string, body?: unknown) =>
        sandboxCall<T>(sb.url, NORTHWIND.apiKey, method, path, body),
    };

    run.heading('2. Connect the account', 'authentication test and connection label');
    await run.step('Test the connection', async () => {
      const result = (await call(authentication.test, { authData })) as Item;
      const label = await call(authentication.connectionLabel, { authData, inputData: result });
      return { detail: `label "${String(label)}"` };
    });
    await run.step('Test it with a revoked key', async () => {
      try {
        await call(authentication.test, { authData: { ...authData, apiKey: 'sk_revoked_key' } });
      } catch (error) {
        return { detail: firstSentence(describeError(error)) };
      }
      throw new Error('a revoked key was accepted');
    });

    run.heading('3. Zaps are turned on', 'polling Zaps record what exists; instant Zaps subscribe');
    const dropdown = await run.step('Event dropdown (event_list)', async () => {
      const items = asItems(await call(functionOf('triggers', 'event_list'), { authData }));
      check(items.length > 0, 'no events listed');
      return {
        detail: `${plural(items.length, 'event')}, newest first: ${String(items[0]?.label)}`,
        value: items,
      };
    });
    const seeded =
      dropdown?.find((event) => event.slug === 'techweek-paris-2026') ??
      dropdown?.find((event) => event.status === 'published');
    const seededEventId = String(seeded?.id ?? '');

    /** A polling Zap as Zapier runs it: turned on once (dedupe seeding), then polled; only new ids run it. */
    let zapIds = 100;
    const pollingZap = (key: string, inputData: Item) => {
      const seen = new Set<string>();
      const meta = { zap: { id: (zapIds += 1) } };
      const perform = functionOf('triggers', key);
      return {
        turnOn: async () => {
          const items = asItems(
            await call(perform, { authData, inputData, meta: { ...meta, isPopulatingDedupe: true } }),
          );
          for (const item of items) seen.add(String(item.id));
          return items.length;
        },
        poll: async () => {
          const items = asItems(await call(perform, { authData, inputData, meta }));
          const fresh = items.filter((item) => !seen.has(String(item.id)));
          for (const item of fresh) seen.add(String(item.id));
          return fresh;
        },
      };
    };
    const newEventZap = pollingZap('new_event', {});
    const paidOrderZap = pollingZap('new_order', { status: 'paid' });
    await run.step('New Event Zap turned on', async () => {
      const count = await newEventZap.turnOn();
      return { detail: `${plural(count, 'existing event')} recorded as seen` };
    });
    await run.step('New Order (paid) Zap turned on', async () => {
      const count = await paidOrderZap.turnOn();
      return { detail: `${plural(count, 'existing order')} recorded as seen` };
    });
    await run.step('New Form Submission: editor test', async () => {
      const items = asItems(
        await call(functionOf('triggers', 'new_submission'), {
          authData,
          inputData: { eventId: seededEventId },
          meta: { isLoadingSample: true },
        }),
      );
      check(items.length > 0, 'no sample registrations');
      return {
        detail: `${plural(items.length, 'sample')} of "${String(seeded?.title)}" · ${summary(items[0])}`,
      };
    });

    const subscriptions = new Map<HookKey, { id: string } & Item>();
    const subscribe = async (key: HookKey, eventId: string | null) =>
      run.step(`Subscribe ${key}`, async () => {
        const inputData: Item = eventId ? { eventId } : {};
        const data = (await call(functionOf('triggers', key, 'performSubscribe'), {
          authData,
          inputData,
          targetUrl: hooks.targetUrl(key),
        })) as Item;
        subscriptions.set(key, { ...data, id: String(data.id) });
        return {
          detail: `${String(data.id)} · ${String(data.kind)}${eventId ? ' · this event only' : ' · every event'}`,
        };
      });
    for (const key of HOOK_TRIGGERS) if (ACCOUNT_WIDE.has(key)) await subscribe(key, null);

    run.heading('4. The organizer publishes an event', 'and builds Zaps for it');
    const journeyEvent = await run.step('Organizer creates and publishes an event', async () => {
      const created = await service.call<Item>('POST', '/_sandbox/events', {
        title: 'Journey Demo Summit',
        venueName: 'Harbour Hall',
        timezone: 'Europe/Paris',
      });
      const published = await service.call<Item>('POST', `/_sandbox/events/${String(created.id)}/publish`);
      return { detail: `"${String(published.title)}" (${String(published.status)})`, value: published };
    });
    const eventId = String(journeyEvent?.id ?? '');
    const submissionZap = pollingZap('new_submission', { eventId });
    await run.step('New Form Submission Zap turned on', async () => {
      const count = await submissionZap.turnOn();
      return { detail: `${plural(count, 'existing registration')} recorded as seen` };
    });
    for (const key of HOOK_TRIGGERS) if (!ACCOUNT_WIDE.has(key)) await subscribe(key, eventId);
    await run.step('Editor test of New Registration (performList)', async () => {
      await service.call('POST', '/_sandbox/submissions', {
        eventId,
        email: 'charles@example.com',
        firstName: 'Charles',
        lastName: 'Babbage',
      });
      const items = asItems(
        await call(functionOf('triggers', 'new_registration', 'performList'), {
          authData,
          inputData: { eventId },
        }),
      );
      return { detail: `${plural(items.length, 'recent registration')}, live shape · ${summary(items[0])}` };
    });

    run.heading('5. Attendees register and pay', 'in the service’s own forms and payment pages');
    const ada = await run.step('Ada registers', async () => {
      const value = await service.call<Item>('POST', '/_sandbox/submissions', {
        eventId,
        email: 'ada@example.com',
        firstName: 'Ada',
        lastName: 'Lovelace',
        ticketType: 'Standard',
        answers: [
          { key: 'company', label: 'Company', value: 'Analytical Engines' },
          { key: 'diet', label: 'Dietary needs', value: ['vegan'] },
        ],
      });
      return { detail: `${String(value.submissionId)} · ${String(value.status)}`, value };
    });
    const adaId = String(ada?.submissionId ?? '');
    const approved = await run.step('Organizer approves her: the QR ticket is issued', async () => {
      const value = await service.call<Item>('POST', `/_sandbox/submissions/${adaId}/approve`);
      check(typeof value.qrCode === 'string', 'no QR code after approval');
      return { detail: `QR ${String(value.qrCode)}`, value };
    });
    await run.step('Ada pays', async () => {
      const order = await service.call<Item>('POST', '/_sandbox/orders', {
        submissionId: adaId,
        outcome: 'paid',
      });
      return { detail: `${String(order.id)} · ${String(order.status)}` };
    });
    const grace = await run.step('Grace registers, is approved, a payment fails', async () => {
      const value = await service.call<Item>('POST', '/_sandbox/submissions', {
        eventId,
        email: 'grace@example.com',
        firstName: 'Grace',
        lastName: 'Hopper',
      });
      await service.call('POST', `/_sandbox/submissions/${String(value.submissionId)}/approve`);
      await service.call('POST', '/_sandbox/orders', { submissionId: value.submissionId, outcome: 'failed' });
      const paid = await service.call<Item>('POST', '/_sandbox/orders', {
        submissionId: value.submissionId,
        outcome: 'paid',
      });
      const refunded = await service.call<Item>('POST', `/_sandbox/orders/${String(paid.id)}/refund`);
      return { detail: `then pays and cancels: ${String(refunded.id)} ${String(refunded.status)}`, value };
    });

    run.heading(
      '6. Door check-in with the Check In Attendee action',
      'a scanner’s raw string, or a pick from a list',
    );
    const checkIn = functionOf('creates', 'check_in_attendee');
    const scanned = `  ${String(approved?.qrCode ?? '')}\r\n`;
    const firstScan = await run.step('Scan Ada’s QR code', async () => {
      const item = (await call(checkIn, {
        authData,
        inputData: { checkInBy: 'code', code: scanned },
      })) as Item;
      check(item.result === 'checked_in', `unexpected result ${String(item.result)}`);
      return {
        detail: `${String(item.result)} at ${shortTime(item.checkInTime)} · ${String(item.fullName ?? '')} · ${String(item.eventTitle ?? '')}`,
        value: item,
      };
    });
    await run.step('Zapier replays the same step', async () => {
      const item = (await call(checkIn, {
        authData,
        inputData: { checkInBy: 'code', code: scanned },
      })) as Item;
      check(item.checkInTime === firstScan?.checkInTime, 'the replay changed the check-in time');
      return {
        detail: `same answer: ${String(item.result)} at ${shortTime(item.checkInTime)} (nobody checked in twice)`,
      };
    });
    await run.step('A volunteer scans her badge again later', async () => {
      const item = (await call(checkIn, {
        authData,
        inputData: { checkInBy: 'code', code: scanned, scanId: 'desk-2-scan-0042' },
      })) as Item;
      check(item.alreadyCheckedIn === true, 'a second scan was not reported as already checked in');
      return { detail: `alreadyCheckedIn: true · first check-in ${shortTime(item.checkInTime)}` };
    });
    await run.step('Grace is picked from the registration list', async () => {
      const options = asItems(
        await call(functionOf('triggers', 'registration_list'), {
          authData,
          inputData: { eventId },
          meta: { isFillingDynamicDropdown: true },
        }),
      );
      const pick = options.find((option) => option.submissionId === grace?.submissionId);
      check(pick, 'Grace is not in the dropdown of approved registrations');
      const item = (await call(checkIn, {
        authData,
        inputData: { checkInBy: 'registration', eventId, submissionId: pick.submissionId },
      })) as Item;
      check(item.result === 'checked_in', `unexpected result ${String(item.result)}`);
      return { detail: `dropdown "${String(pick.label)}" → ${String(item.result)}` };
    });

    run.heading('7. Instant Zaps run', 'each signed delivery → the trigger’s perform, in rawRequest form');
    await run.step('Wait for the service’s deliveries', async () => {
      const idle = await deliveriesIdle(sb.app, 10_000);
      check(idle, 'deliveries still pending after 10 s');
      return { detail: `${hooks.received.length} deliveries received` };
    });
    const expected: Record<HookKey, number> = {
      event_changed: 2,
      event_published: 1,
      new_registration: 3,
      registration_approved: 2,
      payment_succeeded: 2,
      payment_failed: 1,
      payment_refunded: 1,
      attendee_checked_in: 2,
    };
    let sampleDelivery: { key: HookKey; delivery: HookReceiver['received'][number] } | undefined;
    for (const key of HOOK_TRIGGERS) {
      await run.step(`${key} runs its Zap`, async () => {
        const deliveries = hooks.received.filter((d) => d.path === `/hooks/${key}`);
        const items: Item[] = [];
        for (const delivery of deliveries) {
          const bundle = hookBundle(delivery, {
            authData,
            subscribeData: subscriptions.get(key) ?? { id: '' },
          });
          items.push(...asItems(await call(functionOf('triggers', key), bundle)));
          sampleDelivery ??= key === 'new_registration' ? { key, delivery } : undefined;
        }
        check(items.length === expected[key], `expected ${expected[key]} Zap runs, got ${items.length}`);
        const types = [...new Set(deliveries.map((d) => (JSON.parse(d.body) as { type: string }).type))].join(
          ', ',
        );
        return { detail: `${types} → ${plural(items.length, 'run')} · ${summary(items[items.length - 1])}` };
      });
    }
    await run.step('The same delivery retried by the service', async () => {
      check(sampleDelivery, 'no delivery to replay');
      const { key, delivery } = sampleDelivery;
      const bundle = hookBundle(delivery, { authData, subscribeData: subscriptions.get(key) ?? { id: '' } });
      const items = asItems(await call(functionOf('triggers', key), bundle));
      check(items.length === 0, 'a retried delivery ran the Zap again');
      return { detail: 'dropped: already processed (Zap ran once)' };
    });
    await run.step('A tampered delivery', async () => {
      check(sampleDelivery, 'no delivery to tamper with');
      const { key, delivery } = sampleDelivery;
      const body = delivery.body.replace(/"email":"[^"]*"/, '"email":"attacker@example.com"');
      check(body !== delivery.body, 'nothing to tamper with');
      const bundle = hookBundle(
        { ...delivery, body },
        { authData, subscribeData: subscriptions.get(key) ?? { id: '' } },
      );
      const logged = appLogs.length;
      const items = asItems(await call(functionOf('triggers', key), bundle));
      check(items.length === 0, 'a tampered delivery was accepted');
      const why = appLogs.slice(logged).find((line) => /dropped because/i.test(line));
      check(why, 'the drop was not logged');
      return { detail: `dropped and logged: "${why.replace(/^.*dropped because /, '').slice(0, 80)}"` };
    });

    run.heading('8. Polling Zaps poll', 'only what is new runs them; a failed poll loses nothing');
    await run.step('New Event polls', async () => {
      const fresh = await newEventZap.poll();
      check(
        fresh.length === 1 && fresh[0]?.id === eventId,
        `expected the journey's event alone, got ${fresh.length}`,
      );
      return { detail: `1 new: ${summary(fresh[0])}` };
    });
    await run.step('New Form Submission polls', async () => {
      const fresh = await submissionZap.poll();
      check(fresh.length === 3, `expected 3 new registrations, got ${fresh.length}`);
      const [hookItem] = asItems(
        await call(functionOf('triggers', 'new_registration', 'performList'), {
          authData,
          inputData: { eventId },
        }),
      );
      const polled = fresh.find((item) => item.id === hookItem?.id);
      check(polled && hookItem, 'the polled registrations miss the instant one');
      const same =
        JSON.stringify(Object.keys(polled).sort()) === JSON.stringify(Object.keys(hookItem).sort());
      check(same, 'polled and instant items have different fields');
      return { detail: `3 new (Charles, Ada, Grace), the same fields as the instant trigger` };
    });
    await run.step('New Order (paid) polls', async () => {
      const fresh = await paidOrderZap.poll();
      check(
        fresh.length === 1,
        `expected Ada's paid order alone (Grace's was refunded), got ${fresh.length}`,
      );
      const item = fresh[0] as Item;
      const lines = Array.isArray(item.items) ? (item.items as Item[]) : [];
      return { detail: `1 new: ${summary(item)} · ${lines.map((line) => String(line.name)).join(', ')}` };
    });
    await run.step('Alan registers while the service fails', async () => {
      await service.call('POST', '/_sandbox/faults', {
        route: 'GET /api/v1/integrations/zapier/submissions',
        kind: '500',
        count: 1,
      });
      await service.call('POST', '/_sandbox/submissions', {
        eventId,
        email: 'alan@example.com',
        firstName: 'Alan',
        lastName: 'Turing',
      });
      try {
        await submissionZap.poll();
      } catch (error) {
        return { detail: `poll failed: ${firstSentence(describeError(error))}` };
      }
      throw new Error('the poll did not fail');
    });
    await run.step('The next poll catches up', async () => {
      const fresh = await submissionZap.poll();
      check(
        fresh.length === 1 && fresh[0]?.email === 'alan@example.com',
        `expected Alan alone, got ${fresh.length}`,
      );
      return { detail: `1 new: ${summary(fresh[0])}` };
    });

    run.heading('9. Searches', 'the Find steps of a Zap');
    const search = async (key: string, label: string, inputData: Item) =>
      run.step(label, async () => {
        const items = asItems(await call(functionOf('searches', key), { authData, inputData }));
        check(items.length > 0, 'nothing found');
        return { detail: `${plural(items.length, 'result')} · ${summary(items[0])}` };
      });
    await search('find_event', 'Find Event "journey demo"', { query: 'journey demo' });
    await search('find_registration', 'Find Registration by email', { eventId, email: 'ADA@example.com' });
    await search('find_order', 'Find Order by registration', { submissionIdText: adaId });
    await run.step('Find Event Agenda', async () => {
      const items = asItems(
        await call(functionOf('searches', 'find_agenda'), {
          authData,
          inputData: { eventId: seededEventId },
        }),
      );
      const agenda = items[0];
      check(agenda, 'no agenda found');
      return {
        detail: `${String(agenda.sessionCount ?? '?')} sessions · first "${String(agenda.firstSessionTitle ?? '—')}"`,
      };
    });
    const floorPlan = (inputData: Item) =>
      call(functionOf('searches', 'find_floor_plan'), { authData, inputData }).then(asItems);
    const counts = (plan: Item) =>
      `${String(plan.availableCount)} available, ${String(plan.heldCount)} held, ${String(plan.bookedCount)} booked`;
    const plan = await run.step('Find Floor Plan', async () => {
      const [found] = await floorPlan({ eventId: seededEventId });
      check(found, 'no published floor plan found');
      return { detail: `"${String(found.name)}" v${String(found.version)} · ${counts(found)}`, value: found };
    });
    await run.step('A booth is booked: cached, then Bypass Cache', async () => {
      check(plan, 'no plan to book a booth on');
      const planId = String(plan.id);
      const booths = Array.isArray(plan.booths) ? (plan.booths as Item[]) : [];
      const booth = booths.find((b) => b.status === 'available');
      check(booth, 'no available booth');
      const [before] = await floorPlan({ eventId: seededEventId, planId });
      const base = `/_sandbox/events/${seededEventId}/floor-plans/${planId}`;
      await service.call('POST', `${base}/booths/${String(booth.id)}`, { status: 'booked' });
      await service.call('POST', `${base}/publish`);
      const [cached] = await floorPlan({ eventId: seededEventId, planId });
      const [fresh] = await floorPlan({ eventId: seededEventId, planId, bypassCache: true });
      check(before && cached && fresh, 'the plan disappeared');
      const statusIn = (item: Item) =>
        (Array.isArray(item.booths) ? (item.booths as Item[]) : []).find((b) => b.id === booth.id)?.status;
      check(statusIn(cached) === 'available', 'the cached answer was not used');
      check(statusIn(fresh) === 'booked', 'Bypass Cache did not show the booking');
      return {
        detail: `booth ${String(booth.label ?? booth.id)}: cached v${String(cached.version)} "available" → bypassed v${String(fresh.version)} "booked"`,
      };
    });

    run.heading('10. Embed code for the organizer’s own site', 'no API call, every value escaped');
    const embed = (label: string, inputData: Item, marker: string) =>
      run.step(label, async () => {
        const item = (await call(functionOf('creates', 'generate_embed_code'), {
          authData,
          inputData,
        })) as Item;
        const html = String(item.html ?? '');
        check(html.includes(marker), `no ${marker} in the embed code`);
        check(!html.includes(NORTHWIND.apiKey), 'the API key leaked into the embed code');
        return { detail: html.replace(/\s+/g, ' ').slice(0, 110) };
      });
    await embed(
      'Agenda embed',
      { eventId: seededEventId, embedType: 'agenda', theme: 'light', language: 'en' },
      'data-service="agenda"',
    );
    await embed(
      'Floor plan map iframe',
      { eventId: seededEventId, embedType: 'map', planId: String(plan?.id) },
      '<iframe',
    );

    run.heading('11. Bad input gets a clear message', 'and changes nothing');
    const refused = async (label: string, fn: () => Promise<unknown>) =>
      run.step(label, async () => {
        try {
          await fn();
        } catch (error) {
          return { detail: firstSentence(describeError(error)) };
        }
        throw new Error('it was accepted');
      });
    await refused('A QR code from another system', () =>
      call(checkIn, { authData, inputData: { checkInBy: 'code', code: 'MYSYS|badge|000123' } }),
    );
    await refused('Check-in on a plan without QR check-in', () =>
      call(checkIn, {
        authData: { apiKey: LUMEN.apiKey, baseUrl: sb.url },
        inputData: { checkInBy: 'code', code: 'EVT1:00000000:sub_x:0000' },
      }),
    );

    run.heading('12. Zaps turned off', 'unsubscribe every hook; a hook already gone is fine');
    for (const key of HOOK_TRIGGERS) {
      await run.step(`Unsubscribe ${key}`, async () => {
        const subscribeData = subscriptions.get(key) ?? { id: '' };
        await call(functionOf('triggers', key, 'performUnsubscribe'), { authData, subscribeData });
        return { detail: `${String(subscribeData.id)} removed` };
      });
    }
    await run.step('No subscription is left in the service', async () => {
      const hooksLeft = await service.call<{ data?: unknown[] }>('GET', '/_sandbox/hooks');
      const left = Array.isArray(hooksLeft.data)
        ? hooksLeft.data.length
        : Array.isArray(hooksLeft)
          ? (hooksLeft as unknown[]).length
          : -1;
      check(left === 0, `${left} subscriptions left`);
      return { detail: '0 subscriptions' };
    });
  } finally {
    console.log = consoleLog;
    if (logToStdout === undefined) delete process.env.LOG_TO_STDOUT;
    else process.env.LOG_TO_STDOUT = logToStdout;
    await Promise.all([sandbox?.close(), receiver?.close()]);
  }

  const seconds = (performance.now() - started) / 1000;
  const failed = run.failed.length;
  out.line('');
  out.line(
    `${failed ? '✘' : '✔'} Journey ${failed ? 'failed' : 'complete'}: ${run.rows.length - failed} steps passed, ${failed} failed in ${seconds.toFixed(1)} s`,
  );
  return { ok: failed === 0, rows: run.rows, seconds };
};
