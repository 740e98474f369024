import {
  MAX_KEY_LENGTH,
  chosenScanKey,
  cleanCode,
  derivedScanKey,
  followUpScanKey,
  keyHeaderValue,
} from '../../../src/creates/common/scan';

it('trims only what scanners add around a code', () => {
  expect(cleanCode('\uFEFF\r\n\t EVT1:a b:c \r\n')).toBe('EVT1:a b:c');
});

it('derives a key that is stable for a body, whatever the key order, and fits the header limit', () => {
  const a = derivedScanKey({ eventId: 'e', submissionId: 's', checkInTime: 't' });
  const b = derivedScanKey({ checkInTime: 't', submissionId: 's', eventId: 'e' });
  expect(a).toBe(b);
  expect(a.length).toBeLessThanOrEqual(MAX_KEY_LENGTH);
  // No ambiguity between fields: moving text from one field to another changes the key.
  expect(derivedScanKey({ eventId: 'ab', submissionId: 'c' })).not.toBe(
    derivedScanKey({ eventId: 'a', submissionId: 'bc' }),
  );
  expect(derivedScanKey({ code: 'x' })).not.toBe(derivedScanKey({ code: 'x', checkInTime: 'T' }));
});

it('keeps a chosen Scan ID when it can be a header value, and hashes it otherwise', () => {
  expect(chosenScanKey(' abc ')).toBe('abc');
  expect(chosenScanKey('a\nb')).toMatch(/^zapier-scan-v1-[0-9a-f]{64}$/);
  expect(chosenScanKey('a\nb')).not.toBe(chosenScanKey('a\nc'));
});

it('writes keys as a token or an RFC 8941 quoted string', () => {
  expect(keyHeaderValue('abc-123:x/y')).toBe('abc-123:x/y');
  expect(keyHeaderValue('a b')).toBe('"a b"');
  expect(keyHeaderValue('a"b\\c')).toBe('"a\\"b\\\\c"');
});

it('gives a follow-up key that is stable within a minute and new the next minute', () => {
  const t = Date.parse('2026-12-01T08:00:10.000Z');
  expect(followUpScanKey('k', t)).toBe(followUpScanKey('k', t + 40_000));
  expect(followUpScanKey('k', t)).not.toBe(followUpScanKey('k', t + 60_000));
  expect(followUpScanKey('k', t)).not.toBe(followUpScanKey('k2', t));
});
