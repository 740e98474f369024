/** Sections 10 to 13 of the journey: searches, embed code, bad input, and the Zaps turned off. */
import { functionOf } from '../lib/app';
import { SHOWN_PLAN } from '../lib/showcase';
import {
  HOOK_TRIGGERS,
  type Item,
  type Journey,
  LUMEN,
  NORTHWIND,
  asItems,
  firstSentence,
  plural,
  summary,
} from './context';
import { check, describeError } from './runner';

/** 10. The Find steps of a Zap; resolves the floor plan found. */
export const searchSteps = async (
  j: Journey,
  ids: { eventId: string; adaId: string; seededEventId: string },
): Promise<Item | undefined> => {
  const { run, call, authData, service } = j;
  const { eventId, adaId, seededEventId } = ids;
  run.heading('10. Searches', 'the Find steps of a Zap');
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
  // The plan a user picks in the Floor Plan dropdown; npm start's screenshots show the same one.
  const plan = await run.step(`Find Floor Plan "${SHOWN_PLAN.name}"`, async () => {
    const [found] = await floorPlan({ eventId: seededEventId, planId: SHOWN_PLAN.planId });
    check(found, `no published floor plan ${SHOWN_PLAN.planId}`);
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

  return plan;
};

/** 11. Embed code for the organizer's own site: no API call, every value escaped. */
export const embedCode = async (j: Journey, seededEventId: string, plan: Item | undefined): Promise<void> => {
  const { run, call, authData } = j;
  run.heading('11. Embed code for the organizer’s own site', 'no API call, every value escaped');
  const embed = (label: string, inputData: Item, marker: string) =>
    run.step(label, async () => {
      const item = (await call(functionOf('creates', 'generate_embed_code'), {
        authData,
        inputData,
      })) as Item;
      const html = String(item.html ?? '');
      check(html.includes(marker), `no ${marker} in the embed code`);
      check(!html.includes(NORTHWIND.apiKey), 'the API key leaked into the embed code');
      return { detail: html };
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
};

/** 12. Bad input gets a clear message and changes nothing. */
export const badInput = async (j: Journey): Promise<void> => {
  const { run, call, authData, sandbox } = j;
  run.heading('12. Bad input gets a clear message', 'and changes nothing');
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
    call(functionOf('creates', 'check_in_attendee'), {
      authData,
      inputData: { checkInBy: 'code', code: 'MYSYS|badge|000123' },
    }),
  );
  await refused('Check-in on a plan without QR check-in', () =>
    call(functionOf('creates', 'check_in_attendee'), {
      authData: { apiKey: LUMEN.apiKey, baseUrl: sandbox.url },
      inputData: { checkInBy: 'code', code: 'EVT1:00000000:sub_x:0000' },
    }),
  );
};

/** 13. Zaps turned off: every hook unsubscribed; a hook already gone is fine. */
export const turnZapsOff = async (j: Journey): Promise<void> => {
  const { run, call, authData, service, subscriptions } = j;
  run.heading('13. Zaps turned off', 'unsubscribe every hook; a hook already gone is fine');
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
};
