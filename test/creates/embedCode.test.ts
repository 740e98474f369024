import nock from 'nock';
import generateEmbedCode from '../../src/creates/embedCode';
import { ENV_EMBED_URL, ENV_FRONT_URL, paths } from '../../src/connect';
import { SAMPLE_EVENT } from '../../src/mappers/event';
import { SAMPLE_FLOOR_PLAN } from '../../src/mappers/floorPlan';
import { BASE_URL, SENTINEL_KEY, appTester, authData, caught, errorMessage, meta } from '../support/app';
import { functionOf } from '../../scripts/lib/app';
import { type Operation, inputFieldsOf } from '../../scripts/lib/inputSchemas';
import { wireError, wireList } from '../../sandbox/wire';

const perform = functionOf('creates', generateEmbedCode.key);
const EVENT_ID = SAMPLE_EVENT.id;
const HOSTILE = `"><script>alert(1)</script>`;
/** Hostile but one path segment (a "/" would be refused as a plan ID). */
const HOSTILE_ID = `"><img src=x onerror=alert(1)>`;

const run = (inputData: Record<string, unknown>, auth: Record<string, string> = authData()) =>
  appTester(perform, { authData: auth, inputData, meta: meta() }, true);
const events = (data: unknown[] = [SAMPLE_EVENT]) =>
  nock(BASE_URL).get(paths.events()).query(true).reply(200, wireList(data)).persist();
/** The service answers every published-plan lookup with that plan. */
const plans = () =>
  nock(BASE_URL)
    .get((uri) => uri.startsWith(paths.floorPlans(EVENT_ID)))
    .reply((uri) => {
      const planId = decodeURIComponent(uri.split('/').pop() ?? '');
      return [200, { ...SAMPLE_FLOOR_PLAN, id: planId }];
    })
    .persist();

beforeEach(() => {
  process.env[ENV_FRONT_URL] = 'https://front.example.com';
  process.env[ENV_EMBED_URL] = 'https://embed.example.com/';
});
afterEach(() => {
  delete process.env[ENV_FRONT_URL];
  delete process.env[ENV_EMBED_URL];
  nock.cleanAll();
});

it('generates the agenda embed with the event slug, theme and language, hosts from the environment', async () => {
  events();
  const item = await run({ embedType: 'agenda', eventId: EVENT_ID, theme: 'dark', language: 'fr' });
  expect(item.html).toBe(
    '<div data-service="agenda" data-event-slug="techweek-2026" data-theme="dark" data-lang="fr"></div>\n<script async src="https://embed.example.com/embed/v1/service-embed.js"></script>',
  );
  expect(item).toMatchObject({
    embedType: 'agenda',
    eventSlug: 'techweek-2026',
    eventTitle: 'TechWeek 2026',
    warning: '',
  });
});

it('defaults to the agenda, light theme and English', async () => {
  events();
  const item = await run({ eventId: EVENT_ID });
  expect(item.html).toContain('data-theme="light" data-lang="en"');
});

it('generates the map iframe from the front application, titled after the event, with the connection override', async () => {
  events();
  plans();
  const item = await run(
    { embedType: 'map', eventId: EVENT_ID, planId: 'plan_main' },
    authData({ frontUrl: 'maps.agency.example/' }),
  );
  expect(item.html).toBe(
    `<iframe src="https://maps.agency.example/embed/${EVENT_ID}/map/plan_main?list=1" title="Floor plan — TechWeek 2026" width="100%" style="width:100%;min-height:720px;border:0;" loading="lazy" allowfullscreen></iframe>`,
  );
});

it('escapes hostile titles, slugs and inputs, and never contains the key', async () => {
  events([{ ...SAMPLE_EVENT, title: HOSTILE, slug: `x${HOSTILE}`, status: 'draft' }]);
  plans();
  const agenda = await run({ eventId: EVENT_ID, theme: HOSTILE, language: HOSTILE });
  const map = await run({ embedType: 'map', eventId: EVENT_ID, planId: HOSTILE_ID });
  const titled = await run({ embedType: 'map', eventId: EVENT_ID, planId: 'p', frameTitle: HOSTILE });
  for (const item of [agenda, map, titled]) {
    expect(item.html).not.toContain('<script>alert');
    // No tag or attribute was added or broken: the same "<" and quotes as a clean embed.
    expect(item.html.match(/</g)).toHaveLength(item.embedType === 'map' ? 2 : 4);
    expect(item.html.match(/"/g)).toHaveLength(10);
    expect(JSON.stringify(item)).not.toContain(SENTINEL_KEY);
  }
  expect(agenda.html).toContain('data-event-slug="x&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
  expect(map.html).toContain('title="Floor plan — &quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
  expect(map.url).toBe(
    `https://front.example.com/embed/${EVENT_ID}/map/%22%3E%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E?list=1`,
  );
  expect(agenda.warning).toMatch(/^This event is a draft/);
});

it('shows the fields of what is embedded: the floor plan (required) and frame title for a map, theme and language for an agenda', () => {
  const kindFields = (generateEmbedCode.operation.inputFields ?? []).find(
    (f) => typeof f === 'function',
  ) as unknown as (
    z: unknown,
    bundle: { inputData: Record<string, unknown> },
  ) => Array<{ key: string; required?: boolean }>;
  const shown = (embedType: string) =>
    kindFields(null, { inputData: { embedType } }).map((f) => `${f.key}${f.required ? ' (required)' : ''}`);
  expect(shown('map')).toEqual(['planId (required)', 'frameTitle']);
  expect(shown('agenda')).toEqual(['theme', 'language']);
  expect(shown('')).toEqual(['theme', 'language']);
  // A kind mapped from an earlier step is unknown while the Zap is edited: every field, none required.
  expect(shown('{{123__kind}}')).toEqual(['planId', 'frameTitle', 'theme', 'language']);
});

it('offers the themes and languages of the embed script as choices, and says what another value shows', async () => {
  const fields = inputFieldsOf(generateEmbedCode as unknown as Operation) as Array<{
    key: string;
    choices?: object;
  }>;
  expect(fields.find((f) => f.key === 'theme')?.choices).toEqual({
    light: 'Light',
    dark: 'Dark',
    auto: "Auto (follows the visitor's light or dark setting)",
  });
  expect(Object.keys(fields.find((f) => f.key === 'language')?.choices ?? {})).toEqual([
    'en',
    'fr',
    'de',
    'es',
  ]);
  expect((fields.find((f) => f.key === 'embedType') as { label?: string } | undefined)?.label).toBe(
    'What to Embed',
  );

  events();
  const known = await run({ eventId: EVENT_ID, theme: 'Auto', language: 'fr-CA' });
  expect(known.warning).toBe('');
  const other = await run({ eventId: EVENT_ID, theme: 'purple', language: 'French' });
  expect(other.html).toContain('data-theme="purple" data-lang="French"');
  expect(other.warning).toBe(
    'The embed script has no theme "purple" (it has light, dark, auto): the agenda shows in the light theme. The embed script has no language "French" (it has en, fr, de, es, also with a region such as fr-CA): the agenda shows its words in English. Use a language code, such as fr for French.',
  );
});

it('still builds the map when the event title cannot be read', async () => {
  nock(BASE_URL).get(paths.events()).query(true).reply(500, 'down').persist();
  plans();
  const item = await run({ embedType: 'map', eventId: EVENT_ID, planId: 'plan_main' });
  expect(item.html).toContain('title="Event floor plan"');
});

it.each([
  [{ embedType: 'map', eventId: EVENT_ID }, /^Choose the floor plan to show/],
  [{ embedType: 'video', eventId: EVENT_ID }, /^"What to Embed" must be Floor Plan Map or Agenda/],
  [
    { embedType: 'agenda', eventId: 'TechWeek 2026' },
    /^"TechWeek 2026" is not an event ID, slug or public page link/,
  ],
  [{ embedType: 'agenda' }, /^No event was given/],
])('refuses %j before any request', async (inputData, message) => {
  const scope = events();
  expect(errorMessage(await caught(() => run(inputData)))).toMatch(message);
  expect(scope.isDone()).toBe(false);
});

it('a map for a floor plan that does not exist says so instead of embedding a broken frame', async () => {
  events();
  nock(BASE_URL)
    .get(paths.floorPlan(EVENT_ID, 'plan_gone'))
    .reply(404, wireError('NOT_FOUND', 'Floor plan not found'));
  nock(BASE_URL).get(paths.floorPlans(EVENT_ID)).reply(200, wireList([]));
  const error = await caught(() => run({ embedType: 'map', eventId: EVENT_ID, planId: 'plan_gone' }));
  expect(errorMessage(error)).toBe(
    'The floor plan "plan_gone" is not a published floor plan of the event "TechWeek 2026", so its map would show nothing. Choose a plan in the Floor Plan field (it lists the published plans of the event), or publish the plan in the dashboard first.',
  );
});

it('an event that is not among yours any more says so, for an agenda and for a map', async () => {
  const message = `The event in the Event field (ID ${EVENT_ID}) is not among the events of the connected account: it may have been deleted, or it belongs to another organizer account. Choose the event again in the Event field, or map an event ID of this account from an earlier step.`;
  events([]);
  expect(errorMessage(await caught(() => run({ eventId: EVENT_ID })))).toBe(message);
  nock(BASE_URL)
    .get(paths.floorPlan(EVENT_ID, 'plan_main'))
    .reply(404, wireError('NOT_FOUND', 'Event not found'));
  nock(BASE_URL).get(paths.floorPlans(EVENT_ID)).reply(404, wireError('NOT_FOUND', 'Event not found'));
  expect(
    errorMessage(await caught(() => run({ embedType: 'map', eventId: EVENT_ID, planId: 'plan_main' }))),
  ).toBe(message);
});

it('says which host is missing when neither the environment nor the connection sets it', async () => {
  delete process.env[ENV_EMBED_URL];
  const error = await caught(() => run({ eventId: EVENT_ID }));
  expect(errorMessage(error)).toMatch(/No embed script URL is configured/);
  expect(nock.pendingMocks()).toEqual([]);
});

it.each([
  ['..', '".." would point to another address'],
  ['.', '"." would point to another address'],
  ['a/b', 'it contains "/"'],
  ['a\\b', 'it contains "\\"'],
  ['plan?x=1', 'it contains "?"'],
])('refuses the Floor Plan %j before generating a frame', async (planId, problem) => {
  events();
  const error = await caught(() => run({ embedType: 'map', eventId: EVENT_ID, planId }));
  expect(errorMessage(error)).toBe(
    `"${planId}" in Floor Plan is not a floor plan ID (${problem}). Choose the plan in the Floor Plan field, or map the ID of a floor plan from an earlier step.`,
  );
});
