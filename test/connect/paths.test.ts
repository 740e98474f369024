/**
 * Path segments never leave their place: `.`, `..`, slashes and the like are refused (percent-encoding leaves
 * dots alone, and URL parsing then walks up the path), everything else is percent-encoded. Requests and the
 * browser-surface URLs alike.
 */
import nock from 'nock';
import { PathSegmentError, mapUrl, pathSegment, paths } from '../../src/connect';
import { buildUrl } from '../../src/connect/testing';
import { wireList } from '../../sandbox/wire';
import { functionOf } from '../../scripts/lib/app';
import { SAMPLE_EVENT } from '../../src/mappers/event';
import { BASE_URL, appTester, authData, caught, errorMessage, meta } from '../support/app';

const EVENT_ID = SAMPLE_EVENT.id;
const UNSAFE = ['..', '.', '', 'a/b', '../x', 'a\\b', 'x?y', 'x#y', 'a\nb', 'a\u0000b'];

afterEach(() => nock.cleanAll());

it.each(UNSAFE)('refuses %j as a path segment, in requests and in the map frame', (value) => {
  expect(() => pathSegment(value)).toThrow(PathSegmentError);
  expect(() => paths.floorPlan(EVENT_ID, value)).toThrow(/cannot be used as an identifier in an address/);
  expect(() => paths.hook(value)).toThrow(PathSegmentError);
  expect(() => paths.eventWidget(value)).toThrow(PathSegmentError);
  expect(() => mapUrl('https://front.example', EVENT_ID, value)).toThrow(PathSegmentError);
});

it('encodes every other value so that it stays one segment', () => {
  expect(pathSegment('...')).toBe('...');
  expect(pathSegment('%2e%2e')).toBe('%252e%252e');
  expect(pathSegment('plan main')).toBe('plan%20main');
  const url = new URL(buildUrl(BASE_URL, paths.floorPlan(EVENT_ID, '%2e%2e')));
  expect(url.pathname).toBe(`/connect/v1/events/${EVENT_ID}/floor-plans/%252e%252e`);
  expect(mapUrl('https://front.example/', EVENT_ID, 'plan_main')).toBe(
    `https://front.example/embed/${EVENT_ID}/map/plan_main?list=1`,
  );
});

it.each(['..', '.', 'a/b'])('Find Floor Plan refuses the plan %j before any request', async (planId) => {
  const anything = nock(BASE_URL).get(/.*/).reply(200, wireList([])).persist();
  const error = await caught(() =>
    appTester(functionOf('searches', 'find_floor_plan'), {
      authData: authData(),
      inputData: { eventId: EVENT_ID, planId },
      meta: meta(),
    }),
  );
  expect(errorMessage(error)).toMatch(
    new RegExp(`^"${planId.replace(/\./g, '\\.')}" in Floor Plan is not a floor plan ID`),
  );
  expect(anything.isDone()).toBe(false);
});
