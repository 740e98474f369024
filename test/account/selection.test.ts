/** The bounded selection keeps exactly the first `limit` items in the wanted order, whatever is offered. */
import fc from 'fast-check';
import { FirstN, newestFirstOrder } from '../../src/account/selection';

it('keeps what a full sort would put first (property)', () => {
  fc.assert(
    fc.property(
      fc.array(fc.integer({ min: -50, max: 50 })),
      fc.integer({ min: 0, max: 20 }),
      (values, limit) => {
        const first = new FirstN<number>(limit, (a, b) => a - b);
        values.forEach((v) => first.offer(v));
        expect(first.sorted()).toEqual([...values].sort((a, b) => a - b).slice(0, limit));
        expect(first.size).toBe(Math.min(limit, values.length));
      },
    ),
    { numRuns: 500 },
  );
});

it('says whether an item would be kept, and never holds more than its limit', () => {
  const first = new FirstN<number>(2, (a, b) => a - b);
  expect([
    first.offer(5),
    first.offer(3),
    first.wants(9),
    first.offer(9),
    first.wants(4),
    first.offer(1),
  ]).toEqual([true, true, false, false, true, true]);
  expect(first.sorted()).toEqual([1, 3]);
  expect(new FirstN<number>(0, (a, b) => a - b).offer(1)).toBe(false);
});

it('orders newest first, ties by id descending', () => {
  const rows = [
    { ms: 1, id: 'a' },
    { ms: 3, id: 'a' },
    { ms: 3, id: 'b' },
    { ms: 2, id: 'c' },
  ];
  const newest = new FirstN(3, newestFirstOrder);
  rows.forEach((row) => newest.offer(row));
  expect(newest.sorted()).toEqual([rows[2], rows[1], rows[3]]);
});
