import { KEPT_OVERFLOW, type Kept, decodeKept, encodeKept } from '../../../src/triggers/common/kept';

const kept = (count: number): Kept<Record<string, unknown>> => ({
  v: 1,
  base: { ms: 1_000, id: '' },
  settled: { ms: 9_000, id: 'sub_9' },
  batches: [
    {
      f: 5_000,
      b: count * 100,
      e: Array.from({ length: count }, (_, i) => [
        2_000 + i,
        `sub_${i}`,
        {
          submissionId: `sub_${i}`,
          email: `guest${i}@example.com`,
          createdAt: new Date(2_000 + i).toISOString(),
        },
      ]),
    },
  ],
});

describe('the kept entry', () => {
  it('is stored compressed (brotli, base64) and read back as it was', () => {
    const entry = kept(2_000);
    const encoded = encodeKept(entry);
    expect(encoded.startsWith('br1:')).toBe(true);
    expect(encoded.length).toBeLessThan(JSON.stringify(entry).length / 4);
    expect(decodeKept(encoded)).toEqual(entry);
  });

  it('anything that is not an entry reads as none: the poll then reads its window', () => {
    expect(decodeKept(undefined)).toBeNull();
    expect(decodeKept(KEPT_OVERFLOW)).toBeNull();
    expect(decodeKept('br1:not brotli')).toBeNull();
    expect(decodeKept(JSON.stringify(kept(1)))).toBeNull();
    const encoded = encodeKept(kept(10));
    expect(decodeKept(encoded.slice(0, encoded.length - 8))).toBeNull();
    // A batch with an entry that is not [ms, id, record] spoils the whole entry.
    const broken = kept(2) as unknown as { batches: Array<{ e: unknown[] }> };
    broken.batches[0]?.e.push(['x', 'sub_x', {}]);
    expect(decodeKept(encodeKept(broken as unknown as Kept<unknown>))).toBeNull();
    expect(decodeKept(encodeKept({ ...kept(1), v: 2 } as unknown as Kept<unknown>))).toBeNull();
  });
});
