/** Fields the service adds: one limit for every record kind, and a marker that gives the count it sent. */
import { boundRecord, withCuts } from '../../src/connect/bounds';
import { ADDED_FIELDS, EXTRA_CHARS, EXTRA_FIELDS } from '../../src/mappers/cuts';
import { SAMPLE_EVENT, toEventItem } from '../../src/mappers/event';
import { SAMPLE_SUBMISSION, toSubmissionItem } from '../../src/mappers/submission';
import { SAMPLE_ORDER, toOrderItem } from '../../src/mappers/order';
import { SAMPLE_FLOOR_PLAN, toFloorPlanItem } from '../../src/mappers/floorPlan';
import { SAMPLE_CHECK_IN, toCheckInItem } from '../../src/mappers/checkIn';

/** A record as the app reads it: bounded (src/connect/bounds.ts), with what was cut. */
const asRead = <T>(record: T): T => {
  const { value, cuts } = boundRecord(record);
  return withCuts(value as T, cuts);
};

/** `record` with `count` fields the contract does not name; the first one a long text. */
const withAdded = <T extends object>(record: T, count: number): T => {
  const copy = { ...record } as Record<string, unknown>;
  for (let i = 0; i < count; i++) copy[`added${i}`] = i === 0 ? 'x'.repeat(5000) : `v${i}`;
  return copy as unknown as T;
};

type Item = Record<string, unknown> & { cutFields?: string | null };
const KINDS: Array<[string, (added: number) => Item]> = [
  ['event', (n) => toEventItem(asRead(withAdded(SAMPLE_EVENT, n)))],
  ['registration', (n) => toSubmissionItem(asRead(withAdded(SAMPLE_SUBMISSION, n)))],
  ['order', (n) => toOrderItem(asRead(withAdded(SAMPLE_ORDER, n)))],
  [
    'floor plan',
    (n) => toFloorPlanItem(asRead(withAdded(SAMPLE_FLOOR_PLAN, n)), null, SAMPLE_ORDER.createdAt),
  ],
  [
    'check-in',
    (n) => toCheckInItem(asRead(withAdded(SAMPLE_CHECK_IN, n)), null, { replayed: false, scanId: 's' }),
  ],
];

const addedKeys = (item: Item) => Object.keys(item).filter((key) => /^added\d+$/.test(key));

describe.each(KINDS)('a %s item', (_kind, item) => {
  it(`keeps ${EXTRA_FIELDS} of 40 fields the service added, each up to ${EXTRA_CHARS} characters, and says so`, () => {
    const kept = item(40);
    expect(addedKeys(kept)).toHaveLength(EXTRA_FIELDS);
    expect(String(kept.added0).length).toBeLessThan(EXTRA_CHARS + 20);
    expect(kept.cutFields).toBe(`added0 (5,000 characters), ${ADDED_FIELDS} (40 entries)`);
  });

  it('gives the count the service sent, past what a record keeps as it is read (300,000 fields)', () => {
    const kept = item(300_000);
    expect(addedKeys(kept)).toHaveLength(EXTRA_FIELDS);
    expect(kept.cutFields).toBe(`added0 (5,000 characters), ${ADDED_FIELDS} (300,000 entries)`);
    expect(Buffer.byteLength(JSON.stringify(kept))).toBeLessThan(64 * 1024);
  });

  it('keeps a few added fields whole, with nothing said', () => {
    const kept = item(3);
    expect(addedKeys(kept)).toHaveLength(3);
    expect(kept.cutFields).toBe('added0 (5,000 characters)');
  });
});
