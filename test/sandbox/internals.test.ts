// White-box checks of the sandbox's building blocks.

import { sign } from '../../sandbox';
import { FaultRegistry } from '../../sandbox/faults';
import { IdempotencyStore } from '../../sandbox/idempotency';
import { Prng } from '../../sandbox/prng';
import { CONNECT_ROUTES } from '../../sandbox/connect';
import { canonicalJson, parseIso } from '../../sandbox/validate';
import { DIALECT, SCHEMES, verifySignature } from '../../src/connect/testing';

describe('IdempotencyStore', () => {
  it('reserves, replays, refuses another body, forgets an abandoned key and expires after the ttl', () => {
    let now = 0;
    const store = new IdempotencyStore(() => now, 1000);
    expect(store.begin('key', 'k', 'a')).toEqual({ kind: 'new' });
    expect(store.begin('key', 'k', 'a')).toEqual({ kind: 'in_flight' });
    expect(store.begin('key', 'k', 'b')).toEqual({ kind: 'reused' });
    store.complete('key', 'k', { statusCode: 200, body: '{}' });
    expect(store.begin('key', 'k', 'a')).toEqual({
      kind: 'replay',
      response: { statusCode: 200, body: '{}' },
    });
    expect(store.begin('other-key', 'k', 'b')).toEqual({ kind: 'new' });
    store.abandon('other-key', 'k');
    expect(store.begin('other-key', 'k', 'c')).toEqual({ kind: 'new' });
    now = 1000;
    expect(store.begin('key', 'k', 'b')).toEqual({ kind: 'new' });
  });

  it('drops the oldest keys beyond its memory bound', () => {
    const store = new IdempotencyStore(() => 0, 1000, 3);
    for (const k of ['a', 'b', 'c', 'd']) {
      store.begin('key', k, 'x');
      store.complete('key', k, { statusCode: 200, body: k });
    }
    expect(store.size).toBe(3);
    expect(store.begin('key', 'a', 'x').kind).toBe('new');
    expect(store.begin('key', 'd', 'x').kind).toBe('replay');
  });
});

describe('sign', () => {
  it("signs as the app's signer does, one signature per secret, each verifying", () => {
    const body = '{"id":"dlv_1"}';
    const scheme = SCHEMES[DIALECT.signature];
    expect(sign(body, ['one'])).toBe(scheme.sign(body, ['one'], 0));
    expect(sign(body, ['one', 'two'])).toBe(scheme.sign(body, ['one', 'two'], 0));
    expect(scheme.digests(sign(body, ['one', 'two']))).toHaveLength(2);
    for (const secret of ['one', 'two'])
      expect(verifySignature(body, sign(body, ['one', 'two']), [secret]).ok).toBe(true);
    expect(verifySignature(body, sign(body, ['one']), ['two']).ok).toBe(false);
  });
});

describe('FaultRegistry.resolve', () => {
  const registry = new FaultRegistry(CONNECT_ROUTES);

  it('accepts a pattern or a concrete path, any method case, and ignores a query', () => {
    expect(registry.resolve('get /widgets/event/:slug')).toMatchObject({
      spec: { pattern: '/widgets/event/:slug' },
      path: null,
    });
    expect(registry.resolve('GET /widgets/event/abc/agenda?x=1')).toMatchObject({
      spec: { pattern: '/widgets/event/:slug/agenda', keyless: true },
      path: '/widgets/event/abc/agenda',
    });
    expect(registry.resolve('DELETE /api/v1/integrations/zapier/hooks/hook_1').spec.keyless).toBe(false);
  });
});

describe('parseIso', () => {
  it.each([
    ['2026-11-22T10:00:00.000Z', Date.UTC(2026, 10, 22, 10)],
    ['2026-11-22T10:00:00Z', Date.UTC(2026, 10, 22, 10)],
    ['2026-11-22T11:00:00.000+01:00', Date.UTC(2026, 10, 22, 10)],
    ['2024-02-29T00:00:00Z', Date.UTC(2024, 1, 29)],
    ['2026-02-29T00:00:00Z', undefined],
    ['2026-11-22T24:00:00Z', undefined],
    ['2026-11-22', undefined],
    ['2026-11-22T10:00:00', undefined],
    ['22/11/2026', undefined],
  ])('%s → %s', (input, expected) => {
    expect(parseIso(input)).toBe(expected);
  });
});

describe('canonicalJson', () => {
  it('ignores key order and spacing, not values', () => {
    expect(canonicalJson({ b: 1, a: [{ d: 2, c: null }] })).toBe(
      canonicalJson(JSON.parse('{ "a": [ {"c":null,"d":2} ], "b": 1 }')),
    );
    expect(canonicalJson({ a: 1 })).not.toBe(canonicalJson({ a: '1' }));
  });
});

describe('Prng', () => {
  it('repeats for a seed and makes v4-shaped uuids', () => {
    const a = new Prng(42);
    const b = new Prng(42);
    expect([a.uuid(), a.base32(8), a.int(1000)]).toEqual([b.uuid(), b.base32(8), b.int(1000)]);
    expect(new Prng(7).uuid()).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });
});
