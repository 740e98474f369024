import nock from 'nock';
import type { Bundle } from 'zapier-platform-core';
import { paths } from '../../src/connect';
import { SAMPLE_EVENT } from '../../src/mappers/event';
import { NO_EVENT_CONTEXT } from '../../src/mappers/submission';
import {
  ANY_STATUS,
  SAMPLE_SIZE,
  chosenStatus,
  hasStatus,
  pollKind,
  present,
  statusField,
} from '../../src/polling';
import { eventContext } from '../../src/events';
import { BASE_URL, appTester, authData, meta } from '../support/app';
import { testerCache } from '../support/hookRequest';

type R = { id: string; createdAt: string };
const rec = (id: string, createdAt: string): R => ({ id, createdAt });
const presenter = { idOf: (r: R) => r.id, toItem: (r: R) => ({ id: r.id, mapped: true }) };
const bundleWith = (m: Record<string, unknown>) => ({ meta: meta(m) }) as unknown as Pick<Bundle, 'meta'>;

const records = [
  rec('b', '2026-11-22T10:00:00.000Z'),
  rec('a', '2026-11-22T09:00:00.000Z'),
  rec('d', '2026-11-22T10:00:00.000Z'),
  rec('c', '2026-11-22T11:00:00.000+02:00'),
  rec('b', '2026-11-22T10:00:00.000Z'),
];

describe('present', () => {
  it('answers newest first by time (zones understood), ties by id descending, each id once, mapped', () => {
    expect(present(bundleWith({}), records, presenter)).toEqual([
      { id: 'd', mapped: true },
      { id: 'b', mapped: true },
      { id: 'c', mapped: true },
      { id: 'a', mapped: true },
    ]);
  });

  it('gives the editor the 3 newest and a Zap being turned on ids only', () => {
    expect(pollKind(bundleWith({ isLoadingSample: true }))).toBe('sample');
    expect(present(bundleWith({ isLoadingSample: true }), records, presenter)).toHaveLength(SAMPLE_SIZE);
    expect(pollKind(bundleWith({ isPopulatingDedupe: true }))).toBe('dedupe');
    expect(present(bundleWith({ isPopulatingDedupe: true }), records, presenter)).toEqual([
      { id: 'd' },
      { id: 'b' },
      { id: 'c' },
      { id: 'a' },
    ]);
    expect(pollKind(bundleWith({}))).toBe('poll');
  });
});

describe('the status filter', () => {
  it('is an optional dropdown whose default is any status', () => {
    const field = statusField({
      label: 'Order Status',
      choices: [{ value: 'paid', label: 'Paid' }],
      helpText: 'Only orders with this status.',
    });
    expect(field).toMatchObject({ key: 'status', required: false, default: ANY_STATUS });
    expect(field.choices).toEqual([
      { value: 'any', label: 'Any status', sample: 'any' },
      { value: 'paid', label: 'Paid', sample: 'paid' },
    ]);
  });

  it('reads any, empty and missing as no filter, and compares without case', () => {
    const input = (status?: unknown) => ({ inputData: status === undefined ? {} : { status } });
    expect(chosenStatus(input())).toBeNull();
    expect(chosenStatus(input(''))).toBeNull();
    expect(chosenStatus(input('any'))).toBeNull();
    expect(chosenStatus(input(' Approved '))).toBe('approved');
    expect(hasStatus('approved')({ status: 'APPROVED' })).toBe(true);
    expect(hasStatus('approved')({ status: 'pending' })).toBe(false);
    expect(hasStatus(null)({ status: 'anything' })).toBe(true);
  });
});

describe('eventContext', () => {
  const run = (eventId: string) =>
    appTester((z: Parameters<typeof eventContext>[0], b: Bundle) => eventContext(z, b, eventId), {
      authData: authData(),
    });

  beforeEach(() => {
    testerCache(appTester).zcacheTestObj = {};
  });
  afterEach(() => nock.cleanAll());

  it('looks the event up once and remembers its title and dates', async () => {
    const scope = nock(BASE_URL)
      .get(paths.events())
      .query({ limit: '100' })
      .reply(200, { data: [SAMPLE_EVENT] });
    const expected = {
      eventTitle: 'TechWeek 2026',
      eventSlug: 'techweek-2026',
      eventStartsAt: '2026-12-01T08:00:00.000Z',
      eventEndsAt: '2026-12-03T18:00:00.000Z',
    };
    await expect(run(SAMPLE_EVENT.id)).resolves.toEqual(expected);
    await expect(run(SAMPLE_EVENT.id)).resolves.toEqual(expected);
    scope.done();
  });

  it('remembers an event the service does not list, so polls do not look it up again and again', async () => {
    const scope = nock(BASE_URL).get(paths.events()).query(true).twice().reply(200, { data: [] });
    await expect(run('00000000-0000-4000-8000-000000000000')).resolves.toEqual(NO_EVENT_CONTEXT);
    await expect(run('00000000-0000-4000-8000-000000000000')).resolves.toEqual(NO_EVENT_CONTEXT);
    scope.done();
  });

  it('does not remember a failed lookup', async () => {
    nock(BASE_URL).get(paths.events()).query(true).reply(500, 'oops');
    await expect(run(SAMPLE_EVENT.id)).resolves.toEqual(NO_EVENT_CONTEXT);
    nock(BASE_URL)
      .get(paths.events())
      .query(true)
      .reply(200, { data: [SAMPLE_EVENT] });
    await expect(run(SAMPLE_EVENT.id)).resolves.toMatchObject({ eventTitle: 'TechWeek 2026' });
  });
});
