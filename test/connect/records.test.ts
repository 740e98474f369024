/**
 * The odd-record rule (contract §1): an odd optional field is dropped and logged, a record without its
 * identifier or `createdAt` is skipped and logged, and neither affects the other records.
 */
import {
  EVENT_RULE,
  FLOOR_PLAN_RULE,
  ORDER_RULE,
  SUBMISSION_KEY_RULE,
  SUBMISSION_RULE,
  checkRecord,
  keepRecord,
  recordLog,
} from '../../src/connect/records';

export const submission = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
  submissionId: 'sub_1',
  eventId: 'evt_1',
  status: 'approved',
  email: 'ada@example.com',
  firstName: 'Ada',
  lastName: 'Lovelace',
  answers: [
    { key: 'company', label: 'Company', value: 'Analytical Engines' },
    { key: 'diet', label: 'Dietary needs', value: ['vegan'] },
  ],
  ticketType: 'Standard',
  qrCode: 'EVT1:evt_1:sub_1:9f2c',
  createdAt: '2026-11-21T14:05:09.123Z',
  approvedAt: '2026-11-21T14:06:00.000Z',
  checkedInAt: null,
  futureField: { kept: true },
  ...overrides,
});

const order = (overrides: Record<string, unknown> = {}) => ({
  id: 'ord_1',
  companyId: 'cmp_42',
  eventId: 'evt_1',
  submissionId: 'sub_1',
  status: 'paid',
  currency: 'EUR',
  totalAmount: 12900,
  items: [{ name: 'Standard ticket', quantity: 1, unitAmount: 12900 }],
  paymentId: 'pay_1',
  createdAt: '2026-11-21T14:07:30.000Z',
  updatedAt: '2026-11-21T14:07:31.000Z',
  ...overrides,
});

const lines = () => {
  const written: string[] = [];
  return { written, log: recordLog((line) => written.push(line), 'the registrations of this event') };
};

describe('checkRecord', () => {
  it('keeps a record in its documented form as it is, unknown fields included', () => {
    expect(checkRecord(SUBMISSION_RULE, submission())).toEqual({
      ok: true,
      record: submission(),
      dropped: [],
    });
  });

  it.each([
    ['approvedAt', ''],
    ['approvedAt', 'yesterday'],
    ['checkedInAt', 1732198000],
    ['firstName', 42],
    ['email', { address: 'a@b.c' }],
    ['qrCode', false],
    ['answers', 'company=x'],
  ])('treats %s = %j as absent and keeps the record', (field, value) => {
    const result = checkRecord(SUBMISSION_RULE, submission({ [field]: value }));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.record).not.toHaveProperty(field);
    expect(result.record.submissionId).toBe('sub_1');
    expect(result.dropped).toEqual([{ path: field, problem: expect.any(String) }]);
  });

  it('drops only the odd part of a list field: one answer field, or one unusable answer', () => {
    const answers = [
      { key: 'company', label: 17, value: 'Analytical Engines' },
      { label: 'No key', value: 'x' },
      'not an answer',
      { key: 'diet', label: 'Dietary needs', value: ['vegan'] },
      { key: 'extra', value: { nested: 'object' } },
    ];
    const result = checkRecord(SUBMISSION_RULE, submission({ answers }));
    expect(result).toEqual({
      ok: true,
      record: submission({
        answers: [
          { key: 'company', value: 'Analytical Engines' },
          { key: 'diet', label: 'Dietary needs', value: ['vegan'] },
          { key: 'extra' },
        ],
      }),
      dropped: [
        { path: 'answers[0].label', problem: expect.any(String) },
        { path: 'answers[1]', problem: expect.stringMatching(/key is missing/) },
        { path: 'answers[2]', problem: 'not an object' },
        { path: 'answers[4].value', problem: expect.any(String) },
      ],
    });
  });

  it.each([
    [{ submissionId: undefined }, /submissionId is missing or unusable/],
    [{ submissionId: '' }, /submissionId/],
    [{ submissionId: 12 }, /submissionId/],
    [{ createdAt: undefined }, /createdAt is missing or unusable/],
    [{ createdAt: '' }, /createdAt/],
    [{ createdAt: 'last Tuesday' }, /createdAt/],
    [{ status: null }, /status/],
  ])('skips a record with %j', (overrides, reason) => {
    const result = checkRecord(SUBMISSION_RULE, submission(overrides));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.reason).toMatch(reason);
  });

  it('skips what is not an object, and names the record when it can', () => {
    expect(checkRecord(SUBMISSION_RULE, null)).toEqual({
      ok: false,
      id: null,
      reason: 'it is null, not an object',
    });
    expect(checkRecord(SUBMISSION_RULE, ['sub_1'])).toMatchObject({
      ok: false,
      reason: /a list, not an object/,
    });
    expect(checkRecord(SUBMISSION_RULE, 'sub_1')).toMatchObject({ ok: false, reason: /a string/ });
    expect(checkRecord(SUBMISSION_RULE, submission({ createdAt: '' }))).toMatchObject({
      ok: false,
      id: 'sub_1',
    });
  });

  it('reads only the keys with the key rule: odd fields elsewhere do not matter', () => {
    const result = checkRecord(SUBMISSION_KEY_RULE, submission({ approvedAt: '', answers: 7 }));
    expect(result).toEqual({
      ok: true,
      record: {
        submissionId: 'sub_1',
        eventId: 'evt_1',
        status: 'approved',
        createdAt: '2026-11-21T14:05:09.123Z',
      },
      dropped: [],
    });
  });

  it('applies to orders, events and floor plans alike', () => {
    expect(
      checkRecord(
        ORDER_RULE,
        order({ paymentId: 5, items: [{ name: 'x', quantity: 'one', unitAmount: 1 }] }),
      ),
    ).toEqual({
      ok: true,
      record: order({ paymentId: undefined, items: [] }),
      dropped: [
        { path: 'items[0]', problem: expect.stringMatching(/quantity/) },
        { path: 'paymentId', problem: expect.any(String) },
      ],
    });
    expect(checkRecord(ORDER_RULE, order({ totalAmount: '129.00' }))).toMatchObject({
      ok: false,
      id: 'ord_1',
    });
    expect(checkRecord(ORDER_RULE, order({ id: null }))).toMatchObject({ ok: false, id: null });

    const event = {
      id: 'evt_1',
      slug: 'techweek',
      title: 'TechWeek',
      status: 'published',
      startsAt: '',
      venueName: 3,
      createdAt: '2026-10-01T09:12:44.512Z',
    };
    expect(checkRecord(EVENT_RULE, event)).toMatchObject({
      ok: true,
      record: { id: 'evt_1', slug: 'techweek' },
      dropped: [{ path: 'startsAt' }, { path: 'venueName' }],
    });
    expect(checkRecord(EVENT_RULE, { ...event, createdAt: '' })).toMatchObject({ ok: false });

    const plan = {
      id: 'plan_main',
      name: 'Main hall',
      publishedAt: 'soon',
      booths: [{ id: 'B1', status: 'available', x: 'left' }, { status: 'held' }],
    };
    expect(checkRecord(FLOOR_PLAN_RULE, plan)).toEqual({
      ok: true,
      record: { id: 'plan_main', name: 'Main hall', booths: [{ id: 'B1', status: 'available' }] },
      dropped: [
        { path: 'publishedAt', problem: expect.any(String) },
        { path: 'booths[0].x', problem: expect.any(String) },
        { path: 'booths[1]', problem: expect.stringMatching(/id is missing/) },
      ],
    });
  });

  it('does not change the value it was given', () => {
    const value = submission({ approvedAt: '', answers: [{ value: 1 }] });
    const before = JSON.stringify(value);
    checkRecord(SUBMISSION_RULE, value);
    expect(JSON.stringify(value)).toBe(before);
  });
});

describe('keepRecord and its log', () => {
  it('writes one line for a kept odd record and one for a skipped one, naming fields but never values', () => {
    const { written, log } = lines();
    const kept = keepRecord(SUBMISSION_RULE, submission({ approvedAt: 'VALUE_7f3a' }), 0, log);
    expect(kept).not.toBeNull();
    expect(kept).not.toHaveProperty('approvedAt');
    expect(
      keepRecord(SUBMISSION_RULE, submission({ submissionId: 'sub_2', createdAt: 'VALUE_7f3b' }), 4, log),
    ).toBeNull();
    expect(keepRecord(SUBMISSION_RULE, submission(), 5, log)).not.toBeNull();
    log.close();
    expect(written).toEqual([
      expect.stringMatching(
        /^Odd record in the registrations of this event: registration "sub_1" kept without approvedAt \(.+\)/,
      ),
      expect.stringMatching(
        /^Odd record in the registrations of this event: registration "sub_2" \(item 5\) skipped: its createdAt/,
      ),
    ]);
    expect(written.join('\n')).not.toContain('VALUE_7f3');
    expect(log.counts).toEqual({ kept: 1, skipped: 1 });
  });

  it('writes the first lines one by one, then one summary', () => {
    const { written, log } = lines();
    for (let i = 0; i < 30; i++) keepRecord(SUBMISSION_RULE, submission({ approvedAt: '' }), i, log);
    for (let i = 0; i < 5; i++) keepRecord(SUBMISSION_RULE, { createdAt: '' }, 30 + i, log);
    log.close();
    expect(written).toHaveLength(21);
    expect(written[20]).toBe(
      'Odd records in the registrations of this event: 15 more not logged one by one (30 kept without some fields, 5 skipped in all).',
    );
  });
});
