import { SAMPLE_AGENDA, agendaSample, localDay, toAgendaItem } from '../../src/mappers/agenda';
import type { Agenda } from '../../src/connect';

const EVENT = { title: 'TechWeek 2026', slug: 'techweek-2026', timezone: 'Europe/Paris' };
const AT = '2026-11-30T10:00:00.000Z';

const agenda: Agenda = {
  eventId: 'e1',
  slug: 'techweek-2026',
  timezone: 'Europe/Paris',
  sessions: [
    {
      id: 's3',
      title: 'Day two',
      startsAt: '2026-12-01T23:30:00.000Z',
      track: 'Main',
      room: 'Hall',
      speakers: [],
    },
    {
      id: 's1',
      title: 'Keynote',
      startsAt: '2026-12-01T08:30:00.000Z',
      endsAt: '2026-12-01T09:15:00.000Z',
      track: 'Main',
    },
    {
      id: 's2',
      title: 'Café talk',
      startsAt: '2026-12-01T10:00:00.000Z',
      track: 'Équipe',
      speakers: [{ name: 'A' }, { name: 'B' }],
    },
  ],
};

it('sorts sessions by start and gives local days and times in the agenda time zone', () => {
  const item = toAgendaItem(agenda, EVENT, AT);
  expect(item.sessions.map((s) => [s.id, s.day, s.startTime, s.endTime])).toEqual([
    ['s1', '2026-12-01', '09:30', '10:15'],
    ['s2', '2026-12-01', '11:00', null],
    ['s3', '2026-12-02', '00:30', null],
  ]);
  expect(item).toMatchObject({
    id: 'e1',
    eventTitle: 'TechWeek 2026',
    sessionCount: 3,
    days: '2026-12-01, 2026-12-02',
    tracks: 'Main, Équipe',
    rooms: 'Hall',
    firstSessionTitle: 'Keynote',
    firstSessionStartsAt: '2026-12-01T08:30:00.000Z',
    lastSessionTitle: 'Day two',
    lastSessionEndsAt: null,
    dataAsOf: AT,
  });
  expect(item.sessions[1]?.speakers).toBe('A, B');
});

it('filters by local day and by track without case or accents', () => {
  expect(toAgendaItem(agenda, EVENT, AT, { day: '2026-12-02' }).sessions.map((s) => s.id)).toEqual(['s3']);
  expect(toAgendaItem(agenda, EVENT, AT, { track: ' equipe ' }).sessions.map((s) => s.id)).toEqual(['s2']);
  expect(
    toAgendaItem(agenda, EVENT, AT, { day: '2026-12-01', track: 'MAIN' }).sessions.map((s) => s.id),
  ).toEqual(['s1']);
  const none = toAgendaItem(agenda, EVENT, AT, { track: 'Nope' });
  expect(none).toMatchObject({
    sessionCount: 0,
    firstSessionTitle: null,
    lastSessionStartsAt: null,
    days: '',
  });
});

it('falls back to the event time zone, then UTC when the zone is unknown', () => {
  expect(toAgendaItem({ ...agenda, timezone: null }, EVENT, AT).timezone).toBe('Europe/Paris');
  expect(toAgendaItem({ ...agenda, timezone: 'Mars/Olympus' }, null, AT).timezone).toBe('UTC');
  expect(localDay('2026-12-01T23:30:00.000Z', 'America/New_York')).toBe('2026-12-01');
});

it('keeps unknown session fields and the sample comes from the mapper', () => {
  const item = toAgendaItem(
    { ...agenda, sessions: [{ ...SAMPLE_AGENDA.sessions[0]!, level: 'intro' }] },
    EVENT,
    AT,
  );
  expect(item.sessions[0]).toHaveProperty('level', 'intro');
  expect(agendaSample).toEqual(toAgendaItem(SAMPLE_AGENDA, EVENT, AT));
});
