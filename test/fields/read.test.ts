import type { ZObject } from 'zapier-platform-core';
import { eventIdInput } from '../../src/fields/event';
import { booleanInput, dateTimeInput, textInput } from '../../src/fields/read';
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
    withZ((z) => dateTimeInput(z, { inputData: { at: value } }, 'at', 'Check-in Time'));
  await expect(read('2026-12-01T09:00:00+01:00')).resolves.toBe('2026-12-01T08:00:00.000Z');
  await expect(read('1764576000')).resolves.toBe('2025-12-01T08:00:00.000Z');
  await expect(read('')).resolves.toBeNull();
  expect(errorMessage(await caught(() => read('99999999-01-01')))).toMatch(/is not a date and time/);
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
