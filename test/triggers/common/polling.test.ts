import type { Bundle } from 'zapier-platform-core';
import { newestFirst } from '../../../src/connect';
import { SAMPLE_SIZE, pollKind, present } from '../../../src/triggers/common/polling';
import { meta } from '../../support/app';

type R = { id: string; createdAt: string };
const rec = (id: string, createdAt: string): R => ({ id, createdAt });
const presenter = { idOf: (r: R) => r.id, toItem: (r: R) => ({ id: r.id, mapped: true }) };
const bundleWith = (m: Record<string, unknown>) => ({ meta: meta(m) }) as unknown as Pick<Bundle, 'meta'>;

/** As the connect list functions return them: sorted and de-duplicated once, by `newestFirst`. */
const records = newestFirst(
  [
    rec('b', '2026-11-22T10:00:00.000Z'),
    rec('a', '2026-11-22T09:00:00.000Z'),
    rec('d', '2026-11-22T10:00:00.000Z'),
    rec('c', '2026-11-22T11:00:00.000+02:00'),
    rec('b', '2026-11-22T10:00:00.000Z'),
  ],
  presenter.idOf,
);

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

  it('maps each record on its own: one that throws is left out with a line naming it, its siblings kept', () => {
    const lines: string[] = [];
    const fragile = {
      ...presenter,
      noun: 'registration',
      toItem: (r: R) => {
        if (r.id === 'b') throw new TypeError('Cannot read properties of undefined (reading "secret value")');
        return { id: r.id, mapped: true };
      },
    };
    expect(present(bundleWith({}), records, fragile, (line) => lines.push(line)).map((i) => i.id)).toEqual([
      'd',
      'c',
      'a',
    ]);
    expect(lines).toEqual([
      'Odd record in this poll: registration "b" (item 2) skipped: it could not be turned into a Zap item (TypeError).',
    ]);
  });

  it('fails the poll when most records throw: a fault of the app, where skipping them all would lose them', () => {
    const broken = {
      ...presenter,
      toItem: (): { id: string } => {
        throw new TypeError('mapper bug');
      },
    };
    expect(() => present(bundleWith({}), records, broken, () => undefined)).toThrow('mapper bug');
  });
});
