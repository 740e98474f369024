/**
 * Sections 2 to 4 of the journey: the account is connected, Zaps are turned on, and the organizer publishes
 * the event the rest of the journey follows.
 */
import authentication from '../../src/authentication';
import { functionOf } from '../lib/app';
import {
  ACCOUNT_WIDE,
  HOOK_TRIGGERS,
  type HookKey,
  type Item,
  type Journey,
  type PollingZap,
  asItems,
  firstSentence,
  plural,
  pollingZap,
  summary,
} from './context';
import { check, describeError } from './runner';

/** Turns the instant Zap `key` on: subscribes it for `eventId` (or every event) and keeps its data. */
const subscribe = async (j: Journey, key: HookKey, eventId: string | null) =>
  j.run.step(`Subscribe ${key}`, async () => {
    const inputData: Item = eventId ? { eventId } : {};
    const data = (await j.call(functionOf('triggers', key, 'performSubscribe'), {
      authData: j.authData,
      inputData,
      targetUrl: j.hooks.targetUrl(key),
    })) as Item;
    j.subscriptions.set(key, { ...data, id: String(data.id) });
    return {
      detail: `${String(data.id)} · ${String(data.kind)}${eventId ? ' · this event only' : ' · every event'}`,
    };
  });

/** The integration's title on Zapier (the name given to `zapier-platform register`, see the README). */
const APP_TITLE = 'Event Platform Connect';

/** 2. The authentication test and connection label, and a revoked key. */
export const connectAccount = async (j: Journey): Promise<void> => {
  const { run, call, authData } = j;
  run.heading('2. Connect the account', 'authentication test and connection label');
  await run.step('Test the connection', async () => {
    const result = (await call(authentication.test, { authData })) as Item;
    const label = await call(authentication.connectionLabel, { authData, inputData: result });
    // Zapier names a connection by the integration's title followed by its label.
    return { detail: `shown as "${APP_TITLE} ${String(label)}"` };
  });
  await run.step('Test it with a revoked key', async () => {
    try {
      await call(authentication.test, { authData: { ...authData, apiKey: 'sk_revoked_key' } });
    } catch (error) {
      return { detail: firstSentence(describeError(error)) };
    }
    throw new Error('a revoked key was accepted');
  });
};

export interface TurnedOn {
  seededEventId: string;
  newEventZap: PollingZap;
  paidOrderZap: PollingZap;
}

/** 3. Polling Zaps record what exists; the account-wide instant Zaps subscribe. */
export const turnZapsOn = async (j: Journey): Promise<TurnedOn> => {
  const { run, call, authData } = j;
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

  const newEventZap = pollingZap(j, 'new_event', {});
  const paidOrderZap = pollingZap(j, 'new_order', { status: 'paid' });
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

  for (const key of HOOK_TRIGGERS) if (ACCOUNT_WIDE.has(key)) await subscribe(j, key, null);

  return { seededEventId, newEventZap, paidOrderZap };
};

/** 4. The organizer publishes an event and builds Zaps for it. */
export const publishEvent = async (j: Journey): Promise<{ eventId: string; submissionZap: PollingZap }> => {
  const { run, call, authData, service } = j;
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
  const submissionZap = pollingZap(j, 'new_submission', { eventId });
  await run.step('New Form Submission Zap turned on', async () => {
    const count = await submissionZap.turnOn();
    return { detail: `${plural(count, 'existing registration')} recorded as seen` };
  });
  for (const key of HOOK_TRIGGERS) if (!ACCOUNT_WIDE.has(key)) await subscribe(j, key, eventId);
  await run.step('Charles registers while the Zap is built', async () => {
    const charles = await service.call('POST', '/_sandbox/submissions', {
      eventId,
      email: 'charles@example.com',
      firstName: 'Charles',
      lastName: 'Babbage',
    });
    return { detail: `${String(charles.submissionId)} · ${String(charles.status)}` };
  });
  await run.step('New Registration: editor test', async () => {
    const items = asItems(
      await call(functionOf('triggers', 'new_registration', 'performList'), {
        authData,
        inputData: { eventId },
      }),
    );
    return { detail: `${plural(items.length, 'recent registration')}, live shape · ${summary(items[0])}` };
  });

  return { eventId, submissionZap };
};
