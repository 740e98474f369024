import { SAMPLE_CHECK_IN, checkInSample, toCheckInItem } from '../../src/mappers/checkIn';

it('maps a first check-in and an "already checked in" answer', () => {
  const first = toCheckInItem(
    SAMPLE_CHECK_IN,
    { title: 'TechWeek', slug: 'tw' },
    { replayed: false, scanId: 'k' },
  );
  expect(first).toMatchObject({
    alreadyCheckedIn: false,
    fullName: 'Ada Lovelace',
    eventTitle: 'TechWeek',
    scanId: 'k',
  });
  const again = toCheckInItem({ ...SAMPLE_CHECK_IN, result: 'already_checked_in' }, null, {
    replayed: true,
    scanId: 'k',
  });
  expect(again).toMatchObject({
    alreadyCheckedIn: true,
    isRepeatedScan: true,
    eventTitle: null,
    eventSlug: null,
  });
});

it('copes with an answer without attendee and keeps unknown fields', () => {
  const item = toCheckInItem({ ...SAMPLE_CHECK_IN, attendee: null, gate: 'North' }, null, {
    replayed: false,
    scanId: 'k',
  });
  expect(item).toMatchObject({ firstName: null, lastName: null, fullName: null, email: null, gate: 'North' });
  expect(checkInSample.id).toBe(SAMPLE_CHECK_IN.submissionId);
});
