/**
 * Sections 7 to 9 of the journey: instant Zaps run from the deliveries, polling Zaps poll, and a rotated
 * signing secret costs nothing.
 */
import { deliveriesIdle } from '../../sandbox';
import { readDelivery } from '../../src/connect';
import { functionOf } from '../lib/app';
import { type HookReceiver, hookBundle, signedDelivery } from '../lib/hookRequest';
import {
  HOOK_TRIGGERS,
  type HookKey,
  type Item,
  type Journey,
  type PollingZap,
  asItems,
  firstSentence,
  plural,
  summary,
} from './context';
import { check, describeError } from './runner';

/** How long the journey waits for the sandbox's deliveries: local requests, so only a real hang reaches it. */
const DELIVERIES_WAIT_MS = 120_000;
const STILL_PENDING = `deliveries still pending after ${DELIVERIES_WAIT_MS / 1000} s`;

/** 7. Each signed delivery reaches its trigger's perform in rawRequest form; a retried and a tampered one are dropped. */
export const runInstantZaps = async (j: Journey): Promise<void> => {
  const { run, call, authData, sandbox, hooks, subscriptions, appLogs } = j;
  run.heading('7. Instant Zaps run', 'each signed delivery → the trigger’s perform, in rawRequest form');
  await run.step('Wait for the service’s deliveries', async () => {
    const idle = await deliveriesIdle(sandbox.app, DELIVERIES_WAIT_MS);
    check(idle, STILL_PENDING);
    return { detail: `${hooks.received.length} deliveries received` };
  });
  // What the journey causes, in Zap runs. A trigger it does not cause (one added since) gets no delivery and
  // runs no Zap here: workbench.test.ts fires every instant trigger of the app through its simulation.
  const expected: Partial<Record<HookKey, number>> = {
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
      const want = expected[key] ?? 0;
      check(items.length === want, `expected ${want} Zap runs, got ${items.length}`);
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
};

/** 8. Polling Zaps poll: only what is new runs them, and a failed poll loses nothing. */
export const pollZaps = async (
  j: Journey,
  eventId: string,
  zaps: { newEventZap: PollingZap; submissionZap: PollingZap; paidOrderZap: PollingZap },
): Promise<{ alanId: string }> => {
  const { run, call, authData, service } = j;
  const { newEventZap, submissionZap, paidOrderZap } = zaps;
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
    const same = JSON.stringify(Object.keys(polled).sort()) === JSON.stringify(Object.keys(hookItem).sort());
    check(same, 'polled and instant items have different fields');
    return { detail: `3 new (Charles, Ada, Grace), the same fields as the instant trigger` };
  });
  await run.step('New Order (paid) polls', async () => {
    const fresh = await paidOrderZap.poll();
    check(fresh.length === 1, `expected Ada's paid order alone (Grace's was refunded), got ${fresh.length}`);
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
  const alan = await run.step('The next poll catches up', async () => {
    const fresh = await submissionZap.poll();
    check(
      fresh.length === 1 && fresh[0]?.email === 'alan@example.com',
      `expected Alan alone, got ${fresh.length}`,
    );
    return { detail: `1 new: ${summary(fresh[0])}`, value: fresh[0] };
  });
  return { alanId: String(alan?.id ?? '') };
};

/**
 * 9. The organizer rotates a subscription's signing secret and retires the old one at once. The Zap keeps
 * the secret it was given when it was turned on: the next delivery runs after one read of the
 * subscription's current secret (`GET …/hooks/:id`, counted by the sandbox), and a forgery runs nothing and
 * reads it no second time.
 */
export const rotatedSecret = async (j: Journey, alanId: string): Promise<void> => {
  const { run, call, authData, sandbox, hooks, subscriptions, service, appLogs } = j;
  const key: HookKey = 'registration_approved';
  const subscribeData: { id: string } & Item = subscriptions.get(key) ?? { id: '' };
  const path = `/hooks/${key}`;
  const reads = async () =>
    (
      await service.call<{ count: number }>(
        'GET',
        `/_sandbox/requests?route=${encodeURIComponent(`GET /api/v1/integrations/zapier/hooks/${subscribeData.id}`)}`,
      )
    ).count;
  const perform = (delivery: HookReceiver['received'][number]) =>
    call(functionOf('triggers', key), hookBundle(delivery, { authData, subscribeData })).then(asItems);
  run.heading('9. A rotated secret costs nothing', 'the Zap keeps the secret it was given when turned on');
  await run.step('The organizer rotates the hook’s secret', async () => {
    const rotated = await service.call<Item>('POST', '/_sandbox/secrets/rotate', {
      hookId: subscribeData.id,
      overlapMs: 0,
    });
    check(rotated.previousSecret === null, 'the old secret still signs');
    check(rotated.secret !== subscribeData.secret, 'the secret did not change');
    return { detail: `${subscribeData.id} (${key}): new secret, the old one retired at once` };
  });
  const genuine = await run.step('Alan is approved: the Zap still runs', async () => {
    const before = await reads();
    const from = hooks.received.filter((d) => d.path === path).length;
    await service.call('POST', `/_sandbox/submissions/${alanId}/approve`);
    check(await deliveriesIdle(sandbox.app, DELIVERIES_WAIT_MS), STILL_PENDING);
    const deliveries = hooks.received.filter((d) => d.path === path).slice(from);
    check(deliveries.length === 1, `expected 1 delivery, got ${deliveries.length}`);
    const items: Item[] = [];
    for (const delivery of deliveries) items.push(...(await perform(delivery)));
    const refreshes = (await reads()) - before;
    check(items.length === 1, `expected 1 Zap run, got ${items.length}`);
    check(refreshes === 1, `expected 1 read of the current secret, got ${refreshes}`);
    return {
      detail: `1 run after 1 read of the subscription's current secret · ${summary(items[0])}`,
      value: deliveries[0],
    };
  });
  /** What a delivery that must run nothing did: dropped with a log line, or halted with a message. */
  const runsNothing = async (delivery: HookReceiver['received'][number]) => {
    const logged = appLogs.length;
    try {
      const items = await perform(delivery);
      check(items.length === 0, 'it ran the Zap');
      const line = appLogs.slice(logged).find((l) => /dropped because/i.test(l));
      check(line !== undefined, 'the drop was not logged');
      return { how: 'dropped', line: line ?? '' };
    } catch (error) {
      check(error instanceof Error && error.name === 'HaltedError', `it failed: ${describeError(error)}`);
      return { how: 'halted', line: describeError(error) };
    }
  };
  await run.step('A forged delivery after the rotation', async () => {
    check(genuine, 'no delivery to forge');
    const body = genuine.body.replace(/"email":"[^"]*"/, '"email":"attacker@example.com"');
    check(body !== genuine.body, 'nothing to forge');
    const before = await reads();
    const outcome = await runsNothing({ ...genuine, body });
    check((await reads()) === before, 'the forgery made the app read the secret again');
    return {
      detail: `runs nothing (${outcome.how}: the secret was checked less than a minute ago), and no second read of the secret (1 in all)`,
    };
  });
  await run.step('A delivery signed with the retired secret', async () => {
    check(genuine, 'no delivery to copy');
    // The genuine delivery read as the app reads it, then written again one second later by the service's writer.
    const read = readDelivery({ content: genuine.body, headers: genuine.headers });
    check(read.content.ok && read.signedAt !== null, 'the genuine delivery could not be read');
    const { id, type, hookId, data } = read.content.delivery;
    const later = new Date(read.signedAt + 1000).toISOString();
    // Its record as it was carried: written again in the same dialect, it is unchanged.
    const body = sandbox.wire.deliveryBody({ id, type, createdAt: later, hookId, data });
    check(body !== genuine.body, 'nothing to change');
    const forged = signedDelivery(body, String(subscribeData.secret ?? ''), sandbox.wire);
    const outcome = await runsNothing({ ...forged, path });
    check(/replaced/.test(outcome.line), `not refused as signed with a retired secret: ${outcome.line}`);
    return { detail: 'runs nothing: dated after the rotation, so the old secret no longer vouches for it' };
  });
};
