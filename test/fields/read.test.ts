import type { ZObject } from 'zapier-platform-core';
import { eventIdInput } from '../../src/fields/event';
import { booleanInput, dateTimeInput, readIsoDateTime, textInput } from '../../src/fields/read';
import { appTester, caught, errorMessage } from '../support/app';

const withZ = <T>(fn: (z: ZObject) => T) => appTester((z: ZObject) => fn(z));

it('reads text and booleans the way Zapier hands them over', () => {
  const bundle = { inputData: { a: '  x ', n: 3, t: 'Yes', f: 'false', b: true } };
  expect([textInput(bundle, 'a'), textInput(bundle, 'n'), textInput(bundle, 'missing')]).toEqual([
    'x',
    '3',
    '',
  ]);
  expect(['t', 'f', 'b', 'missing'].map((k) => booleanInput(bundle, k))).toEqual([true, false, true, false]);
});

it('normalises date-times to UTC and refuses what is not one', async () => {
  const read = (value: unknown) =>
    withZ((z) => dateTimeInput(z, { inputData: { at: value } }, 'at', 'Check-In Time'));
  await expect(read('2026-12-01T09:00:00+01:00')).resolves.toBe('2026-12-01T08:00:00.000Z');
  await expect(read('')).resolves.toBeNull();
  expect(errorMessage(await caught(() => read('99999999-01-01')))).toMatch(/is not a date and time/);
});

describe('ISO 8601 instants only', () => {
  it.each([
    ['2026-12-01T09:01:12.123456+05:30', 'UTC', '2026-12-01T03:31:12.123Z'],
    ['2026-12-01T09:01:12-0800', 'UTC', '2026-12-01T17:01:12.000Z'],
    ['2026-12-01T09:01+01', 'UTC', '2026-12-01T08:01:00.000Z'],
    ['2028-02-29T00:00:00Z', 'UTC', '2028-02-29T00:00:00.000Z'],
    // Daylight saving time: the offset of that date, not of today.
    ['2026-03-29T03:30:00', 'Europe/Paris', '2026-03-29T01:30:00.000Z'],
    ['2026-10-25T12:00:00', 'Europe/Paris', '2026-10-25T11:00:00.000Z'],
  ])('%s in %s is %s', (value, zone, instant) => {
    const reading = readIsoDateTime(value, zone);
    expect('ms' in reading && new Date(reading.ms).toISOString()).toBe(instant);
  });

  it.each([
    ['20261201', 'it is not an ISO 8601 date and time'],
    ['1', 'it is not an ISO 8601 date and time'],
    ['Dec 1', 'it is not an ISO 8601 date and time'],
    ['2026-12-01', 'it has a date but no time of day'],
    ['2026-02-30T10:00:00Z', 'February 2026 has no day 30'],
    ['2027-02-29T10:00:00Z', 'February 2027 has no day 29'],
    ['2026-13-01T10:00:00Z', '13 is not a month'],
    ['2026-12-01T24:00:00Z', '24:00:00 is not a time of day'],
    ['2026-12-01T09:01:12+25:00', '+25:00 is not a UTC offset'],
  ])('refuses %s: %s', (value, problem) => {
    expect(readIsoDateTime(value, 'UTC')).toEqual({ problem });
  });
});

it('accepts event IDs only', async () => {
  const read = (value: unknown, required = true) =>
    withZ((z) => eventIdInput(z, { inputData: { eventId: value } }, { required }));
  await expect(read(' 7D0C6F1E-2F6A-4A7E-9A51-3F0E1B2C4D5E ')).resolves.toBe(
    '7D0C6F1E-2F6A-4A7E-9A51-3F0E1B2C4D5E',
  );
  await expect(read('', false)).resolves.toBeNull();
  expect(errorMessage(await caught(() => read('TechWeek')))).toMatch(/^"TechWeek" is not an event ID/);
});
