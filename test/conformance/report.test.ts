/** The kit's pieces that need no service: the HTTPS check, the table, the summary, the JSON and the scrub. */
import { connectionChecks } from '../../scripts/conformance/checks/connection';
import { Probe } from '../../scripts/conformance/http';
import { renderSummary, renderTable, toJson, wrap } from '../../scripts/conformance/report';
import { newRun } from '../../scripts/conformance/run';
import type { Check } from '../../scripts/conformance/types';

const connection = (baseUrl: string) =>
  connectionChecks(newRun(new Probe(baseUrl, 'k'), { baseUrl, apiKey: 'k' }));

describe('connection.https', () => {
  it.each([
    ['https://api.example.com', 'holds'],
    ['http://127.0.0.1:4010', 'tolerated'],
    ['http://localhost:4010', 'tolerated'],
    ['http://api.example.com', 'differs'],
  ])('%s %s', (url, status) => {
    expect(connection(url).find((c) => c.id === 'connection.https')?.status).toBe(status);
  });

  it('leaves the clock unchecked when no answer had a Date header', () => {
    expect(connection('https://api.example.com').find((c) => c.id === 'connection.clock-skew')?.status).toBe(
      'unchecked',
    );
  });
});

const CHECKS: Check[] = [
  {
    id: 'events.envelope',
    group: 'Events',
    assumption: 'An envelope.',
    status: 'holds',
    detail: '3 records.',
  },
  {
    id: 'submissions.filter',
    group: 'Submissions',
    assumption: 'since filters.',
    status: 'differs',
    detail: 'since is ignored: New Form Submission would read the whole event.',
    action: 'Send this report to the service.',
  },
  {
    id: 'orders.envelope',
    group: 'Orders',
    assumption: 'An envelope.',
    status: 'unchecked',
    detail: 'No --company.',
  },
];

it('prints each group once, its checks under it, and wraps long text', () => {
  const table = renderTable(CHECKS, { width: 60 });
  expect(table).toMatch(/^Events\n {2}holds {6}envelope {2}An envelope\.\n\s+→ 3 records\.$/m);
  for (const line of table.split('\n')) expect(line.length).toBeLessThanOrEqual(60);
  expect(wrap('one two three', 7)).toEqual(['one two', 'three']);
});

it('sums up, with what to do for each difference and the unchecked ones named', () => {
  const summary = renderSummary(CHECKS);
  expect(summary).toContain('Summary: 3 checks: 1 holds, 0 tolerated, 1 differs, 1 unchecked.');
  expect(summary).toMatch(
    /- submissions\.filter \(since filters\.\)\n {4}→ Send this report to the service\./,
  );
  expect(summary).toContain('Unchecked (1): orders.envelope');
  expect(renderSummary(CHECKS.slice(0, 1))).toContain('Nothing differs');
});

it('writes the JSON of the interface', () => {
  expect(JSON.parse(toJson(CHECKS))).toEqual({
    checks: CHECKS.map(({ id, assumption, status, detail }) => ({ id, assumption, status, detail })),
  });
});
