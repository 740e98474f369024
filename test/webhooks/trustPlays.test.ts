/**
 * The edges of the instant triggers, each played as an adversarial user would, on a virtual clock with a
 * cache that honours `nx` and TTL (as Zapier's does): an outage of the subscription endpoint with a rotation
 * in it and the recovery after it; a `Date` header ahead of this app's clock while a rotation is learnt.
 * Every figure a play measures is asserted against its target.
 */
import type { Bundle, ZObject } from 'zapier-platform-core';
import { errors } from 'zapier-platform-core';
import { type Submission, appErrorCode, errorText, paths } from '../../src/connect';
import { SAMPLE_EVENT } from '../../src/mappers/event';
import { SAMPLE_SUBMISSION } from '../../src/mappers/submission';
import { type Clock, systemClock } from '../../src/memory';
import { CLOCK_SKEW_MARGIN_MS, DEFAULT_SECRET_TIMINGS } from '../../src/webhooks';
import { authData } from '../support/app';
import { FakeCache } from '../support/cache';
import { type VirtualClock, virtualClock } from '../support/clock';
import { hookBundle, newRegistrationOn, signedDelivery } from '../support/deliveries';
import { wireDeliveryBody, wireError, wireList, wireObject } from '../../sandbox/wire';
import { inAppNames } from '../../src/connect/testing';

type Fn = (z: ZObject, bundle: Bundle) => Promise<unknown>;

const OLD_SECRET = 'whsec_old_play_5e6f7a';
const NEW_SECRET = 'whsec_new_play_8b9c0d';
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const RETRY_MS = DEFAULT_SECRET_TIMINGS.retrySeconds * SECOND;
const CONFIRM_MS = DEFAULT_SECRET_TIMINGS.confirmSeconds * SECOND;

let counter = 0;
const dated = (t: number, data: Partial<Submission> = {}) =>
  wireDeliveryBody({
    id: `dlv_play_${++counter}`,
    type: 'FORM_SUBMISSION',
    createdAt: new Date(t).toISOString(),
    hookId: 'hook_1',
    data: { ...SAMPLE_SUBMISSION, ...data },
  });

type Outcome = 'run' | 'dropped' | 'halted' | 'errored';

/** The service's side of `GET …/hooks/hook_1` (contract §5), on the virtual clock. */
interface Service {
  secret: string;
  /** When set, every read answers this status with a contract error body. */
  failWith: number | null;
  /** How far the service's clock (its `Date` header) runs ahead of this app's. */
  offsetMs: number;
  /** When each read arrived, in order. */
  readTimes: number[];
}

let virtual: VirtualClock;
let service: Service;
let store: FakeCache;
let z: ZObject;
let perform: Fn;
const logs: string[] = [];

/**
 * A `z` as Zapier hands it to `perform`, with only what a delivery uses: a cache that honours `nx` and TTL
 * on the virtual clock, and requests answered by `service` (the app's own client reads the answers). Plays
 * of hundreds of deliveries run in a second this way, and nothing of core's per-run machinery piles up.
 */
const playZ = (): ZObject => {
  const hookPath = paths.hook('hook_1');
  const json = (status: number, body: unknown) => ({
    status,
    content: JSON.stringify(body),
    headers: new Headers({
      'content-type': 'application/json',
      date: new Date(virtual.now() + service.offsetMs).toUTCString(),
    }),
  });
  const request = async (options: { url?: string }) => {
    const url = new URL(String(options.url));
    if (url.pathname.endsWith(hookPath)) {
      service.readTimes.push(virtual.now());
      if (service.failWith !== null) {
        return json(service.failWith, wireError('INTERNAL', 'The service is down.'));
      }
      return json(
        200,
        wireObject({
          id: 'hook_1',
          event: 'FORM_SUBMISSION',
          eventId: null,
          targetUrl: 'https://hooks.zapier.com/hooks/standard/1/play/',
          secret: service.secret,
          createdAt: new Date(virtual.now() - HOUR).toISOString(),
        }),
      );
    }
    return json(200, wireList([SAMPLE_EVENT]));
  };
  const log = (...args: unknown[]) => logs.push(args.map(String).join(' '));
  return {
    console: { log, error: log, warn: log },
    errors,
    cache: store.api,
    request,
  } as unknown as ZObject;
};

/** Runs one delivery signed with `secret` (or several) and says how it ended; errors keep their code. */
const deliver = async (
  payload: string,
  secret: string | string[],
): Promise<{ outcome: Outcome; code?: string; message?: string }> => {
  const bundle = hookBundle(signedDelivery(payload, secret), {
    authData: authData(),
    subscribeData: { id: 'hook_1', secret: OLD_SECRET, kind: 'FORM_SUBMISSION', eventId: null },
    inputData: {},
  }) as unknown as Bundle;
  try {
    const items = (await perform(z, bundle)) as unknown[];
    return { outcome: items.length > 0 ? 'run' : 'dropped' };
  } catch (error) {
    const halted = (error as Error).name === 'HaltedError';
    return { outcome: halted ? 'halted' : 'errored', code: appErrorCode(error), message: errorText(error) };
  }
};

beforeEach(() => {
  virtual = virtualClock(Date.UTC(2030, 5, 1, 9));
  // A delivery is dated against this app's clock (its freshness check reads `Date.now()`).
  jest.spyOn(Date, 'now').mockImplementation(() => virtual.now());
  // A read's time bound races an answer that comes at once here; every other wait is virtual.
  const clock: Clock = {
    now: () => virtual.now(),
    sleep: (ms, signal) =>
      ms === DEFAULT_SECRET_TIMINGS.readTimeoutMs ? systemClock.sleep(ms, signal) : virtual.sleep(ms, signal),
  };
  perform = newRegistrationOn(clock).operation.perform as Fn;
  service = { secret: OLD_SECRET, failWith: null, offsetMs: 0, readTimes: [] };
  store = new FakeCache(() => virtual.now());
  z = playZ();
  logs.length = 0;
});
afterEach(() => {
  jest.restoreAllMocks();
});

/** The shortest time between two reads of the subscription made from `from` on. */
const shortestGap = (from: number): number => {
  const times = service.readTimes.filter((at) => at >= from);
  return Math.min(...times.slice(1).map((at, i) => at - (times[i] as number)));
};

describe('play 1: an outage of the subscription endpoint with a rotation in it, then the recovery', () => {
  /**
   * The old secret is confirmed; then `GET …/hooks/:id` answers 503 for 30 minutes and the secret is
   * rotated one minute in. Deliveries come every `everyMs`: signed with both secrets for 2 minutes after the
   * rotation, then with the new one only; they go on for 200 s after the service answers again.
   */
  const play = async (everyMs: number) => {
    expect((await deliver(dated(virtual.now()), OLD_SECRET)).outcome).toBe('run');
    await virtual.sleep(20 * SECOND);
    const down = virtual.now();
    const rotation = down + MINUTE;
    const back = down + 30 * MINUTE;
    service.failWith = 503;
    const seen: Array<{ at: number; secrets: string; outcome: Outcome; code?: string }> = [];
    while (virtual.now() < back + 200 * SECOND) {
      const at = virtual.now();
      if (at >= back) service.failWith = null;
      if (at >= rotation) service.secret = NEW_SECRET;
      const secrets =
        at < rotation ? [OLD_SECRET] : at < rotation + 2 * MINUTE ? [OLD_SECRET, NEW_SECRET] : [NEW_SECRET];
      seen.push({
        at,
        secrets: secrets.length > 1 ? 'both' : secrets[0] === NEW_SECRET ? 'new' : 'old',
        ...(await deliver(dated(at), secrets)),
      });
      await virtual.sleep(everyMs);
    }
    const during = seen.filter((one) => one.at < back);
    const after = seen.filter((one) => one.at >= back);
    return { down, back, during, after };
  };

  it('deliveries every 20 s: new-only ones are errors to replay while it is down, and the first one after it runs', async () => {
    const { down, back, during, after } = await play(20 * SECOND);
    const errored = during.filter((one) => one.outcome === 'errored');
    // While down: every delivery the old secret (confirmed within the hour) verifies runs; each new-only one
    // is an errored run with the code the guide names, never a silent loss.
    expect(during.filter((one) => one.secrets !== 'new').every((one) => one.outcome === 'run')).toBe(true);
    expect(errored.length).toBe(during.filter((one) => one.secrets === 'new').length);
    expect(new Set(errored.map((one) => one.code))).toEqual(new Set(['SECRET_REFRESH_FAILED']));
    // After: the first new-only delivery reads the subscription, learns the new secret and runs; so do all.
    expect(after[0]?.outcome).toBe('run');
    expect(after.filter((one) => one.outcome !== 'run')).toEqual([]);
    // Reads stayed bounded: at most one per 15 s while it was down.
    expect(shortestGap(down)).toBeGreaterThanOrEqual(RETRY_MS);
    expect(service.readTimes.filter((at) => at >= down && at < back).length).toBeLessThanOrEqual(
      Math.ceil((back - down) / RETRY_MS),
    );
  });

  it('deliveries every 2 s: reads stay at one per 15 s while it is down, and errors stop within 15 s of the recovery', async () => {
    const { down, back, during, after } = await play(2 * SECOND);
    expect(during.length).toBeGreaterThan(800);
    expect(shortestGap(down)).toBeGreaterThanOrEqual(RETRY_MS);
    const readsWhileDown = service.readTimes.filter((at) => at >= down && at < back).length;
    expect(readsWhileDown).toBeLessThanOrEqual(Math.ceil((back - down) / RETRY_MS));
    const late = after.filter((one) => one.outcome !== 'run');
    expect(late.every((one) => one.outcome === 'errored' && one.at < back + RETRY_MS)).toBe(true);
    expect(after.filter((one) => one.at >= back + RETRY_MS).every((one) => one.outcome === 'run')).toBe(true);
  });

  it("the error's words say what happened and to replay the run, and nothing about polls", async () => {
    service.failWith = 503;
    const { outcome, message } = await deliver(dated(virtual.now()), NEW_SECRET);
    expect(outcome).toBe('errored');
    expect(message).toContain("could not be checked against the subscription's current signing secret");
    expect(message).toContain('replay this run');
    expect(message).not.toMatch(/poll/i);
  });
});

describe('play 2: a `Date` header 14 minutes ahead while a rotation without secretRotatedAt is learnt', () => {
  /**
   * The old secret is confirmed; 30 s later it is rotated (no `secretRotatedAt`), and the service's `Date`
   * header runs 14 minutes ahead. The first delivery after the rotation is a genuine retry signed with the
   * old secret, 4.5 minutes after the rotation (just over 5 after the last confirmation, so it reads the
   * subscription); 48 hours later, deliveries forged with the old secret are dated every 30 s from the
   * rotation to 20 minutes past it.
   */
  it('the retired secret is trusted for deliveries dated at most 5 minutes after the rotation; later ones never run', async () => {
    const confirmed = virtual.now();
    expect((await deliver(dated(confirmed), OLD_SECRET)).outcome).toBe('run');
    await virtual.sleep(30 * SECOND);
    const rotation = virtual.now();
    service.secret = NEW_SECRET;
    service.offsetMs = 14 * MINUTE;
    await virtual.sleep(4.5 * MINUTE + SECOND);
    // The genuine retry (dated before the rotation) is the delivery that learns it; it runs.
    expect((await deliver(dated(rotation - 10 * SECOND), OLD_SECRET)).outcome).toBe('run');
    expect(service.readTimes).toHaveLength(2);
    expect(logs.join('\n')).toContain('its signing secret was rotated');
    await virtual.sleep(48 * HOUR);
    const forged: Array<{ minutes: number; outcome: Outcome }> = [];
    for (let past = 30 * SECOND; past <= 20 * MINUTE; past += 30 * SECOND) {
      forged.push({
        minutes: past / MINUTE,
        outcome: (await deliver(dated(rotation + past), OLD_SECRET)).outcome,
      });
    }
    const ran = forged.filter((one) => one.outcome === 'run').map((one) => one.minutes);
    // Trusted no later than 5 minutes after the rotation on this app's clock, whatever the header said.
    expect(Math.max(...ran)).toBeLessThanOrEqual(CONFIRM_MS / MINUTE);
    expect(Math.max(...ran)).toBe(4.5);
    // Dated after that but not after the service's own clock at the read: halted with a message, never run.
    const halted = forged.filter((one) => one.outcome === 'halted').map((one) => one.minutes);
    expect(Math.min(...halted)).toBe(5);
    expect(Math.max(...halted)).toBe(18.5);
    expect(forged.filter((one) => one.minutes > 18.5).every((one) => one.outcome === 'dropped')).toBe(true);
    // The header counts within the skew margin only.
    expect(14 * MINUTE).toBeLessThan(CLOCK_SKEW_MARGIN_MS);
    // Genuine deliveries, signed with the new secret, run.
    expect((await deliver(dated(virtual.now()), NEW_SECRET)).outcome).toBe('run');
  });
});

describe('play 3: a turn-on whose answer is lost', () => {
  const TARGET_URL = 'https://hooks.zapier.com/hooks/standard/1/play3/';

  /**
   * The service's side of `POST …/hooks` and `DELETE …/hooks/:id` (contract §5): an `Idempotency-Key` with
   * the same body answers the subscription it made while that one exists. `lose` answers are lost: the
   * subscription is made, and the app sees no answer in time (as after its request's time bound).
   */
  const hookService = () => {
    const live = new Map<string, string>();
    const keys = new Map<string, { body: string; id: string }>();
    const sent: Array<{ method: string; key: string | undefined }> = [];
    let made = 0;
    const model = {
      live,
      sent,
      lose: 0,
      refuse: null as null | { status: number; code: string },
      /** How many requests `refuse` answers (-1: all). */
      refusals: -1,
    };
    const answer = (status: number, body: unknown, headers: Record<string, string> = {}) => ({
      status,
      content: body === null ? '' : JSON.stringify(body),
      headers: new Headers({ 'content-type': 'application/json', ...headers }),
    });
    const hookOf = (id: string) =>
      wireObject({
        id,
        event: 'FORM_SUBMISSION',
        eventId: null,
        targetUrl: live.get(id),
        secret: `whsec_play3_${id}`,
        createdAt: new Date(virtual.now()).toISOString(),
      });
    const request = async (options: {
      url?: string;
      method?: string;
      headers?: Record<string, string>;
      body?: string;
    }) => {
      const method = options.method ?? 'GET';
      const key = options.headers?.['Idempotency-Key'];
      sent.push({ method, key });
      const path = new URL(String(options.url)).pathname;
      if (method === 'DELETE') {
        const id = decodeURIComponent(path.split('/').pop() ?? '');
        return live.delete(id) ? answer(204, null) : answer(404, wireError('NOT_FOUND', 'No such hook.'));
      }
      const body = String(options.body);
      if (model.refuse && model.refusals !== 0) {
        model.refusals -= 1;
        const { status, code } = model.refuse;
        return answer(status, wireError(code, 'Not now.'), status === 429 ? { 'Retry-After': '120' } : {});
      }
      const earlier = key === undefined ? undefined : keys.get(key);
      let reply;
      if (earlier && earlier.body === body && live.has(earlier.id)) {
        reply = answer(201, hookOf(earlier.id), { 'Idempotent-Replayed': 'true' });
      } else {
        const id = `hook_${++made}`;
        live.set(id, String(inAppNames('hook', JSON.parse(body)).targetUrl));
        if (key !== undefined) keys.set(key, { body, id });
        reply = answer(201, hookOf(id));
      }
      if (model.lose > 0) {
        model.lose -= 1;
        throw Object.assign(new Error('network timeout at: the subscription endpoint'), {
          type: 'request-timeout',
        });
      }
      return reply;
    };
    const log = (...args: unknown[]) => logs.push(args.map(String).join(' '));
    const hz = {
      console: { log, error: log, warn: log },
      errors,
      cache: store.api,
      request,
    } as unknown as ZObject;
    return { model, z: hz };
  };

  const operation = () => newRegistrationOn().operation;
  const bundle = { authData: authData(), inputData: {}, targetUrl: TARGET_URL } as unknown as Bundle;
  const turnOn = async (hz: ZObject) => {
    try {
      return { on: (await operation().performSubscribe!(hz, bundle)) as { id: string } };
    } catch (error) {
      return { error: errorText(error) };
    }
  };

  it('the first answer lost: the same turn-on asks again with the same key and takes the subscription over', async () => {
    const { model, z: hz } = hookService();
    model.lose = 1;
    const result = await turnOn(hz);
    expect(result.on?.id).toBe('hook_1');
    // One subscription in the service, and it is this Zap's: turning the Zap off ends it.
    expect([...model.live.keys()]).toEqual(['hook_1']);
    const posts = model.sent.filter((one) => one.method === 'POST');
    expect(posts).toHaveLength(2);
    expect(posts[0]?.key).toMatch(/^zap-hook-[0-9a-f]{48}$/);
    expect(posts[1]?.key).toBe(posts[0]?.key);
    expect(logs.join('\n')).toContain('taken over, not made twice');
    await operation().performUnsubscribe!(hz, { ...bundle, subscribeData: result.on } as unknown as Bundle);
    expect(model.live.size).toBe(0);
  });

  it('every answer lost: the message says to turn the Zap on again (nothing about polls), and that turn-on takes the subscription over', async () => {
    const { model, z: hz } = hookService();
    model.lose = 2;
    const failed = await turnOn(hz);
    expect(failed.on).toBeUndefined();
    expect(failed.error).toContain('The Zap was not turned on');
    expect(failed.error).toContain('turn the Zap on again');
    expect(failed.error).not.toMatch(/poll/i);
    expect(model.live.size).toBe(1);
    // Turned on again, the Zap owns the one subscription the service made; turned off, nothing is left.
    const again = await turnOn(hz);
    expect(again.on?.id).toBe('hook_1');
    expect(model.live.size).toBe(1);
    await operation().performUnsubscribe!(hz, { ...bundle, subscribeData: again.on } as unknown as Bundle);
    expect(model.live.size).toBe(0);
    // Turned on once more after that, the key makes a new subscription: the deleted one is not answered.
    expect((await turnOn(hz)).on?.id).toBe('hook_2');
  });

  it.each([
    [503, 'INTERNAL', 2, /turn the Zap on again in a few minutes/],
    [429, 'RATE_LIMITED', 1, /wait 120 seconds, then turn it on again/],
  ])(
    'a turn-on answered %i (%s) is sent %i time(s) at most; the message says to turn the Zap on again, nothing about polls',
    async (status, code, posts, next) => {
      const { model, z: hz } = hookService();
      model.refuse = { status, code };
      const failed = await turnOn(hz);
      expect(failed.error).toContain('The Zap was not turned on');
      expect(failed.error).toMatch(next);
      expect(failed.error).not.toMatch(/poll/i);
      expect(model.sent.filter((one) => one.method === 'POST')).toHaveLength(posts);
      expect(model.live.size).toBe(0);
    },
  );

  it('the first request still in flight (409): the second, 2 s later, gets the subscription; both 409: the message says to turn the Zap on again', async () => {
    const { model, z: hz } = hookService();
    model.refuse = { status: 409, code: 'IDEMPOTENCY_KEY_IN_USE' };
    model.refusals = 1;
    expect((await turnOn(hz)).on?.id).toBe('hook_1');
    const busy = hookService();
    busy.model.refuse = { status: 409, code: 'IDEMPOTENCY_KEY_IN_USE' };
    const failed = await turnOn(busy.z);
    expect(failed.error).toContain('so the Zap was not turned on. Turn the Zap on again in a minute');
    expect(failed.error).not.toMatch(/poll|scan/i);
  });

  it('another Zap (another target URL) is another key: a turn-on never takes over a subscription of something else', async () => {
    const { model, z: hz } = hookService();
    expect((await turnOn(hz)).on?.id).toBe('hook_1');
    const other = newRegistrationOn().operation;
    await other.performSubscribe!(hz, { ...bundle, targetUrl: `${TARGET_URL}other/` } as unknown as Bundle);
    expect(model.live.size).toBe(2);
    const keys = new Set(model.sent.map((one) => one.key));
    expect(keys.size).toBe(2);
  });
});
