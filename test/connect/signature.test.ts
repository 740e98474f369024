/**
 * The signature suite shared by every instant trigger: the verifier itself (known answers, encodings, body
 * changes, malformed headers, rotation, properties), then the same checks through every hook trigger's
 * `perform`, including which secret applies (the subscription's, else the connection's).
 */
import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import nock from 'nock';
import { paths } from '../../src/connect';
import {
  SCHEMES,
  findSignatureHeader,
  sign,
  signatureDigests,
  signedPayload,
  verifySignature,
} from '../../src/connect/testing';
import { SAMPLE_EVENT } from '../../src/mappers/event';
import { SAMPLE_ORDER } from '../../src/mappers/order';
import { SAMPLE_SUBMISSION } from '../../src/mappers/submission';
import { instantKindOf } from '../../src/webhooks';
import {
  BASE_URL,
  SENTINEL_KEY,
  appTester,
  authData,
  hookOperation,
  hookTriggerKeys,
  testerCache,
} from '../support/app';
import { deliveryBody, hookBundle, signedDelivery } from '../support/deliveries';
import { type ServiceHooks, serviceHooks } from '../support/serviceHooks';
import { SIGNATURE_HEADER, signatureOf, wireList } from '../../sandbox/wire';

const hexOf = (secret: string, body: string | Buffer) =>
  createHmac('sha256', secret).update(body).digest('hex');

/** The hex of the (first) digest of a signature header, in whatever scheme the service signs. */
const digestHexOf = (header: string): string => signatureDigests(header)[0]!.toString('hex');

/** A header of the service's scheme with its digest's hex changed by `change` (the rest of it kept). */
const withDigest = (header: string, change: (hex: string) => string): string => {
  const hex = digestHexOf(header);
  return header.replace(hex, change(hex));
};

/** The name a header's digest goes by (`sha256` in the contract's scheme, `v1` in the timestamped one). */
const digestNameOf = (header: string): string => {
  const before = header.slice(0, header.indexOf(digestHexOf(header)));
  return before.slice(before.lastIndexOf(',') + 1, -1);
};

describe('verifySignature', () => {
  const secret = 'whsec_test_secret';
  const ok = { ok: true };
  const failed = expect.objectContaining({ ok: false, reason: expect.any(String) });

  it('matches the published GitHub known-answer vector for raw-body HMAC-SHA256', () => {
    const body = 'Hello, World!';
    const key = "It's a Secret to Everybody";
    // The vector is written in the contract's own scheme (§5), which the app always knows whichever scheme
    // the service signs with: this literal header is the subject of the check.
    const expected = 'sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17';
    expect(SCHEMES.sha256.sign(body, [key], 0)).toBe(expected);
    expect(SCHEMES.sha256.digests(expected).map((d) => d.toString('hex'))).toEqual([hexOf(key, body)]);
    // The service's scheme signs with the same HMAC-SHA256, of what that scheme covers.
    const header = sign(body, key);
    expect(digestHexOf(header)).toBe(hexOf(key, signedPayload(header, body)));
    expect(verifySignature(body, header, [key])).toEqual(ok);
    expect(verifySignature(body, header, ['its a secret to everybody'])).toEqual(failed);
  });

  it('signs the UTF-8 bytes of non-ASCII and emoji bodies', () => {
    for (const body of [
      '{"name":"Zoë Ångström","city":"Zürich"}',
      '{"title":"東京イベント 2026","note":"Привет"}',
      '{"emoji":"🎟️👩🏽‍💻🚀","flag":"🇫🇷"}',
      '{"escaped":"\\u00e9 vs é"}',
    ]) {
      const header = sign(body, secret);
      const payload = signedPayload(header, body);
      expect(payload.toString('utf8')).toContain(body);
      expect(digestHexOf(header)).toBe(hexOf(secret, payload));
      expect(verifySignature(body, header, [secret])).toEqual(ok);
      // The same text signed in another encoding is not the same body.
      const latin1 = Buffer.from(payload.toString('utf8'), 'latin1');
      expect(
        verifySignature(
          body,
          withDigest(header, () => hexOf(secret, latin1)),
          [secret],
        ),
      ).toEqual(failed);
      expect(verifySignature(body.normalize('NFD'), header, [secret])).toEqual(
        body.normalize('NFD') === body ? ok : failed,
      );
    }
  });

  it('fails for any whitespace or newline change of the body', () => {
    const body = '{"id":"dlv_1","type":"FORM_SUBMISSION",\n  "data":{"a":1}}';
    const header = sign(body, secret);
    expect(verifySignature(body, header, [secret])).toEqual(ok);
    for (const changed of [
      `${body}\n`,
      `${body} `,
      ` ${body}`,
      body.replace('\n', '\r\n'),
      body.replace('\n  ', ''),
      body.replace(':1', ': 1'),
      body.replace('\n', '\t'),
    ]) {
      expect(verifySignature(changed, header, [secret])).toEqual(failed);
    }
  });

  it('fails for a re-serialised body (parsed and stringified again)', () => {
    const body =
      '{ "type": "FORM_SUBMISSION", "id": "dlv_1", "data": { "amount": 1.50, "name": "\\u00e9" } }';
    const header = sign(body, secret);
    const reserialised = JSON.stringify(JSON.parse(body));
    expect(reserialised).not.toBe(body);
    expect(verifySignature(body, header, [secret])).toEqual(ok);
    expect(verifySignature(reserialised, header, [secret])).toEqual(failed);
  });

  it('treats a missing, empty or blank header as a failed check with a reason', () => {
    const body = '{}';
    for (const header of [undefined, null, '', '   ', ',', 'sha256=', 'sha256', '=']) {
      const result = verifySignature(body, header, [secret]);
      expect(result).toEqual(failed);
    }
    expect(verifySignature(body, undefined, [secret])).toEqual({
      ok: false,
      reason: 'the signature header is missing',
    });
    expect(verifySignature(undefined, sign('{}', secret), [secret])).toEqual({
      ok: false,
      reason: 'the raw request body is missing',
    });
  });

  it('fails for truncated, extended, non-hex and odd-length signatures without throwing', () => {
    const body = '{"id":"dlv_1"}';
    const good = sign(body, secret);
    const hex = digestHexOf(good);
    const name = digestNameOf(good);
    const named = (value: string) => good.replace(`${name}=${hex}`, value);
    expect(verifySignature(body, good, [secret])).toEqual(ok);
    for (const header of [
      withDigest(good, (h) => h.slice(0, 63)),
      withDigest(good, (h) => h.slice(0, 62)),
      withDigest(good, (h) => h.slice(0, 32)),
      withDigest(good, (h) => `${h}0`),
      withDigest(good, (h) => `${h}00`),
      withDigest(good, (h) => `${h.slice(0, 62)}zz`),
      withDigest(good, () => 'g'.repeat(64)),
      withDigest(good, (h) => `${h.slice(0, 60)} ${h.slice(61)}`),
      named(`sha1=${hex}`),
      named(`sha512=${hex}`),
      named(hex),
      named(`${name}:${hex}`),
      withDigest(good, (h) => `0x${h.slice(2)}`),
      withDigest(good, (h) => Buffer.from(h, 'hex').toString('base64')),
    ]) {
      expect(() => verifySignature(body, header, [secret])).not.toThrow();
      expect(verifySignature(body, header, [secret])).toEqual(failed);
    }
  });

  it('accepts upper-case hex on purpose: it encodes the same digest bytes', () => {
    const body = '{"id":"dlv_1"}';
    const header = sign(body, secret);
    expect(
      verifySignature(
        body,
        withDigest(header, (h) => h.toUpperCase()),
        [secret],
      ),
    ).toEqual(ok);
    // The contract's scheme (§5) reads its name in any case too.
    const hex = hexOf(secret, body);
    expect(SCHEMES.sha256.digests(`SHA256=${hex}`).map((d) => d.toString('hex'))).toEqual([hex]);
    // …but an upper-cased body is another body.
    expect(verifySignature(body.toUpperCase(), header, [secret])).toEqual(failed);
  });

  it('tries every comma-separated value during a secret rotation', () => {
    const body = '{"id":"dlv_rotation"}';
    const [oldSecret, newSecret] = ['whsec_old', 'whsec_new'];
    const both = signatureOf(body, [oldSecret, newSecret]);
    expect(signatureDigests(both)).toHaveLength(2);
    expect(verifySignature(body, both, [oldSecret])).toEqual(ok);
    expect(verifySignature(body, both, [newSecret])).toEqual(ok);
    expect(verifySignature(body, both.replace(/,/g, ', '), [newSecret])).toEqual(ok);
    const name = digestNameOf(sign(body, newSecret));
    expect(verifySignature(body, `${name}=nothex, ${sign(body, newSecret)}`, [newSecret])).toEqual(ok);
    expect(verifySignature(body, `${sign(body, newSecret)},garbage`, [newSecret])).toEqual(ok);
    expect(verifySignature(body, both, ['whsec_other'])).toEqual(failed);
    // Several secrets on our side: any one matching any value is enough.
    expect(verifySignature(body, sign(body, newSecret), ['whsec_other', newSecret])).toEqual(ok);
  });

  it('fails with a wrong secret and with no secret at all, naming no secret in the reason', () => {
    const body = '{"id":"dlv_1"}';
    const header = sign(body, secret);
    const wrong = verifySignature(body, header, ['whsec_wrong']);
    expect(wrong).toEqual({ ok: false, reason: 'the signature does not match the body', mismatch: true });
    expect(verifySignature(body, header, [])).toEqual(failed);
    expect(verifySignature(body, header, [undefined, null, ''])).toEqual(failed);
    for (const result of [wrong, verifySignature(body, header, [])]) {
      expect(JSON.stringify(result)).not.toContain(secret);
      expect(JSON.stringify(result)).not.toContain('whsec_wrong');
    }
  });

  it('checks the digest length before the constant-time comparison (a short digest fails, never throws)', () => {
    const body = '{"id":"dlv_1"}';
    const short = createHmac('sha1', secret).update(body).digest('hex');
    const header = withDigest(sign(body, secret), () => short);
    expect(() => verifySignature(body, header, [secret])).not.toThrow();
    expect(verifySignature(body, header, [secret])).toEqual(failed);
  });

  describe('properties', () => {
    const bodies = fc.string({ unit: 'binary', maxLength: 300 });
    const secrets = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 });

    it('a body signed with the secret always verifies', () => {
      fc.assert(
        fc.property(bodies, secrets, (body, key) => {
          expect(verifySignature(body, sign(body, key), [key])).toEqual(ok);
        }),
        { numRuns: 300 },
      );
    });

    it('random headers never verify and never throw', () => {
      fc.assert(
        fc.property(bodies, secrets, fc.string({ unit: 'binary', maxLength: 120 }), (body, key, header) => {
          const result = verifySignature(body, header, [key]);
          expect(result.ok).toBe(false);
        }),
        { numRuns: 300 },
      );
    });

    it('a mutated signature or body never verifies and never throws', () => {
      const mutation = fc.oneof(
        // flip one hex digit to another value
        fc.record({ kind: fc.constant('flip' as const), at: fc.nat(63), to: fc.nat(15) }),
        fc.record({ kind: fc.constant('truncate' as const), at: fc.nat(63), to: fc.constant(0) }),
        fc.record({ kind: fc.constant('extend' as const), at: fc.nat(15), to: fc.nat(15) }),
        fc.record({ kind: fc.constant('body' as const), at: fc.nat(), to: fc.nat(0x10ffff) }),
      );
      fc.assert(
        fc.property(bodies, secrets, mutation, (body, key, m) => {
          let header = sign(body, key);
          const hex = digestHexOf(header);
          let signedBody = body;
          if (m.kind === 'flip') {
            const current = parseInt(hex.charAt(m.at), 16);
            const next = ((current + 1 + (m.to % 15)) % 16).toString(16);
            header = withDigest(header, () => `${hex.slice(0, m.at)}${next}${hex.slice(m.at + 1)}`);
          } else if (m.kind === 'truncate') {
            header = withDigest(header, () => hex.slice(0, m.at));
          } else if (m.kind === 'extend') {
            header = withDigest(header, () => `${hex}${m.to.toString(16)}`);
          } else {
            const codePoint = m.to >= 0xd800 && m.to <= 0xdfff ? 0x41 : m.to;
            const at = body.length ? m.at % (body.length + 1) : 0;
            signedBody = `${body.slice(0, at)}${String.fromCodePoint(codePoint)}${body.slice(at)}`;
          }
          let result: ReturnType<typeof verifySignature> | undefined;
          expect(() => {
            result = verifySignature(signedBody, header, [key]);
          }).not.toThrow();
          expect(result?.ok).toBe(false);
        }),
        { numRuns: 500 },
      );
    });

    it('odd inputs of any type never throw', () => {
      fc.assert(
        fc.property(fc.anything(), fc.anything(), fc.array(fc.anything(), { maxLength: 3 }), (b, h, s) => {
          expect(() =>
            verifySignature(b as string, h as string, s as Array<string | undefined | null>),
          ).not.toThrow();
          expect(() => findSignatureHeader(h as Record<string, unknown>)).not.toThrow();
        }),
        { numRuns: 300 },
      );
    });
  });
});

describe('findSignatureHeader', () => {
  // The header the service signs under (`X-Connect-Signature` in the contract), however Zapier hands it on.
  const NAME = SIGNATURE_HEADER;
  const zapierName = (name: string) => `Http-${name}`;

  it('finds the header whatever its case, with or without Zapier’s Http- prefix', () => {
    for (const name of [
      NAME,
      NAME.toLowerCase(),
      NAME.toUpperCase(),
      zapierName(NAME),
      zapierName(NAME).toUpperCase(),
      zapierName(NAME).toLowerCase(),
    ]) {
      expect(findSignatureHeader({ 'Content-Type': 'application/json', [name]: '<any value>' })).toBe(
        '<any value>',
      );
    }
  });

  it('joins repeated values and ignores other headers', () => {
    expect(findSignatureHeader({ [zapierName(NAME)]: ['<first>', '<second>'] })).toBe('<first>,<second>');
    expect(
      findSignatureHeader({ [zapierName('X-Webhook-Signature')]: '<any value>', [`${NAME}-2`]: 'x' }),
    ).toBe(undefined);
    expect(findSignatureHeader(undefined)).toBeUndefined();
    expect(findSignatureHeader(null)).toBeUndefined();
  });
});

// ---------------------------------------------------------------------------------------------------------
// The same checks through every instant trigger's perform.

const hookTriggers = hookTriggerKeys().map((key) => ({ key, operation: hookOperation(key) }));

const SUB_SECRET = 'whsec_subscription_5c1d';
/** The signature header of a delivery as `signedDelivery` writes it. */
const SIGNED = SIGNATURE_HEADER.toLowerCase();
const ACCOUNT_SECRET = 'whsec_account_8e2f';

/** A delivery each trigger accepts, by the kind it subscribes to. */
/** A delivery of the kind the app declares for `key` (an event-lifecycle trigger gets EVENT_PUBLISHED). */
const deliveryFor = (key: string): { type: string; data: unknown } => {
  const kind = instantKindOf(key) ?? 'unknown';
  if (kind.startsWith('PAYMENT_')) return { type: kind, data: SAMPLE_ORDER };
  if (kind.startsWith('EVENT_'))
    return { type: kind === 'EVENT_*' ? 'EVENT_PUBLISHED' : kind, data: SAMPLE_EVENT };
  return { type: kind, data: SAMPLE_SUBMISSION };
};

describe.each(hookTriggers.map((t) => [t.key, t] as const))('perform of %s', (key, trigger) => {
  const logs: string[] = [];
  let logSpy: jest.SpyInstance;
  let hooks: ServiceHooks;

  beforeEach(() => {
    testerCache(appTester).zcacheTestObj = {};
    logs.length = 0;
    logSpy = jest.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
      logs.push(args.map(String).join(' '));
    });
    nock(BASE_URL)
      .get(paths.events())
      .query(true)
      .reply(200, wireList([SAMPLE_EVENT]))
      .persist();
    // The subscription's current secret, as the service answers it: unchanged here.
    hooks = serviceHooks(SUB_SECRET);
  });
  afterEach(() => {
    logSpy.mockRestore();
    nock.cleanAll();
  });

  const run = (
    delivery: ReturnType<typeof signedDelivery>,
    options: { subscriptionSecret?: string | null; accountSecret?: string } = {},
  ) =>
    appTester(
      trigger.operation.perform,
      hookBundle(delivery, {
        authData: authData(options.accountSecret ? { webhookSecret: options.accountSecret } : {}),
        subscribeData: {
          id: 'hook_1',
          secret: options.subscriptionSecret === undefined ? SUB_SECRET : options.subscriptionSecret,
          kind: 'x',
          eventId: null,
        },
      }),
    ) as Promise<unknown[]>;

  const body = () => {
    const { type, data } = deliveryFor(key);
    return deliveryBody(type, data);
  };

  it('runs for a delivery signed with the subscription secret', async () => {
    await expect(run(signedDelivery(body(), SUB_SECRET))).resolves.toHaveLength(1);
  });

  it('uses the connection’s secret only when the subscription has none', async () => {
    const payload = body();
    hooks.current.set('hook_1', null);
    await expect(
      run(signedDelivery(payload, ACCOUNT_SECRET), {
        subscriptionSecret: null,
        accountSecret: ACCOUNT_SECRET,
      }),
    ).resolves.toHaveLength(1);
    // Another subscription, signed with a secret of its own.
    hooks.current.delete('hook_1');
    testerCache(appTester).zcacheTestObj = {};
    await expect(
      run(signedDelivery(body(), ACCOUNT_SECRET), { accountSecret: ACCOUNT_SECRET }),
    ).resolves.toEqual([]);
    expect(logs.join('\n')).toContain('the signature matches neither the secret this Zap was given');
  });

  it('runs during a rotation when any of several signatures matches', async () => {
    await expect(run(signedDelivery(body(), ['whsec_retired', SUB_SECRET]))).resolves.toHaveLength(1);
  });

  it.each([
    [
      'a wrong secret',
      (d: ReturnType<typeof signedDelivery>) => ({
        ...d,
        headers: signedDelivery(d.body, 'whsec_wrong').headers,
      }),
    ],
    [
      'a missing header',
      (d: ReturnType<typeof signedDelivery>) => ({ ...d, headers: { 'content-type': 'application/json' } }),
    ],
    [
      'an empty header',
      (d: ReturnType<typeof signedDelivery>) => ({
        ...d,
        headers: { ...d.headers, [SIGNED]: '' },
      }),
    ],
    [
      'a truncated signature',
      (d: ReturnType<typeof signedDelivery>) => ({
        ...d,
        headers: {
          ...d.headers,
          [SIGNED]: (d.headers[SIGNED] ?? '').slice(0, -1),
        },
      }),
    ],
    [
      'a non-hex signature',
      (d: ReturnType<typeof signedDelivery>) => ({
        ...d,
        headers: {
          ...d.headers,
          [SIGNED]: withDigest(d.headers[SIGNED] ?? '', () => 'x'.repeat(64)),
        },
      }),
    ],
    [
      'a changed body',
      (d: ReturnType<typeof signedDelivery>) => ({ ...d, body: d.body.replace('"data"', '"data" ') }),
    ],
    [
      'a re-serialised body',
      (d: ReturnType<typeof signedDelivery>) => ({ ...d, body: JSON.stringify(JSON.parse(d.body), null, 2) }),
    ],
  ])('drops a delivery with %s, logging why and no secret', async (_name, tamper) => {
    const result = await run(tamper(signedDelivery(body(), SUB_SECRET)));
    expect(result).toEqual([]);
    const log = logs.join('\n');
    expect(log).toMatch(/delivery dropped because the (signature|raw)/);
    for (const secret of [SUB_SECRET, 'whsec_wrong', SENTINEL_KEY]) expect(log).not.toContain(secret);
  });

  it('drops a delivery when no secret is available at all, and says how to fix it', async () => {
    const result = await run(signedDelivery(body(), SUB_SECRET), { subscriptionSecret: null });
    expect(result).toEqual([]);
    expect(logs.join('\n')).toContain('no signing secret is available');
    expect(logs.join('\n')).toContain('Webhook Signing Secret');
  });
});
