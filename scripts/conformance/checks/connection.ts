/**
 * The connection: a first request that stops the run when the URL or the key is wrong; then, from every
 * answer of the run, HTTPS, redirects, the `Date` header and the clock skew against this machine.
 */
import { isLoopbackHost } from '../../../src/connect/config';
import { paths } from '../../../src/connect/paths';
import { POLL_TIMINGS as CURSOR_TIMING } from '../../../src/polling';
import { type Probe, type Seen, excerpt } from '../http';
import type { Run } from '../run';
import {
  type Check,
  type ConformanceOptions,
  type Outcome,
  StopError,
  checkMaker,
  differs,
  holds,
  tolerated,
  unchecked,
} from '../types';

const check = checkMaker('Connection', 'connection');

/**
 * Stops the run (exit 2) when nothing at `baseUrl` answers like the Connect API, the key is refused, or the
 * service knows no `--event` or `--company` of that name for the key.
 */
export const preflight = async (probe: Probe, options: ConformanceOptions): Promise<void> => {
  await checkAddressAndKey(probe, options.baseUrl);
  const tomorrow = new Date(Date.now() + 24 * 3600_000).toISOString();
  if (options.eventId) {
    const answer = await probe.get(paths.submissions(), { eventId: options.eventId, since: tomorrow });
    if (answer.status === 404) {
      throw new StopError(
        `--event ${options.eventId}: the service knows no such event for this key (HTTP 404).`,
      );
    }
  }
  if (options.companyId) {
    const answer = await probe.get(paths.orders(), { companyId: options.companyId, limit: 1 });
    if (answer.status === 404) {
      throw new StopError(
        `--company ${options.companyId}: the service knows no such company for this key (HTTP 404); the Company ID is shown in the dashboard under Settings → Company.`,
      );
    }
  }
};

const checkAddressAndKey = async (probe: Probe, baseUrl: string): Promise<void> => {
  const answer = await probe.get(paths.events(), { limit: 1 });
  if (answer.status === 401 || answer.status === 403) {
    throw new StopError(
      `The service at ${baseUrl} did not accept the API key (HTTP ${answer.status}): check the key, and that it belongs to this service.`,
    );
  }
  if (answer.status === 404 || answer.status === 405 || (answer.status < 300 && answer.json === undefined)) {
    throw new StopError(
      `${baseUrl} does not answer like a Connect API: GET ${paths.events()} answered HTTP ${answer.status} with ${excerpt(answer)}. Check the base URL (for example https://api.example.com, without /api/v1).`,
    );
  }
};

export const connectionChecks = (run: Run): Check[] => {
  const keyed = run.probe.answers.filter((a) => a.keyed);
  return [
    check('https', 'The service is reached over HTTPS.', httpsOutcome(run.options.baseUrl)),
    check(
      'no-redirects',
      'The Connect API never answers with a redirect.',
      redirectOutcome(run.probe.answers),
    ),
    check('date-header', "Every answer carries a Date header (the service's clock).", dateOutcome(keyed)),
    check(
      'clock-skew',
      `The service's clock is within ${CURSOR_TIMING.clockSkewMs / 60_000} minutes of this machine's.`,
      skewOutcome(keyed),
    ),
  ];
};

const httpsOutcome = (baseUrl: string): Outcome => {
  const url = new URL(baseUrl);
  if (url.protocol === 'https:') return holds(`${url.origin} is https.`);
  if (isLoopbackHost(url.hostname))
    return tolerated(
      `${url.origin} is plain http on this machine (a sandbox or a tunnel); the app accepts http for loopback addresses only.`,
    );
  return differs(
    `${url.origin} is plain http: the app refuses this address when an account is connected ("it must start with https://"), and the API key would travel unencrypted.`,
    'Use the https address of the service.',
  );
};

const redirectOutcome = (answers: Seen[]): Outcome => {
  const redirected = answers.filter((a) => a.status >= 300 && a.status < 400);
  if (!redirected.length) return holds(`None of the ${answers.length} answers was a redirect.`);
  const first = redirected[0] as Seen;
  const where = first.headers.get('location') ?? 'nowhere';
  return differs(
    `${redirected.length} of ${answers.length} answers were redirects (first: GET ${first.path.split('?')[0]} → HTTP ${first.status} to ${where}): the app never follows a redirect with the key, so every operation reading these endpoints would fail with an error naming that address.`,
    "Use the base URL the redirect points to (if it is the service's own), or ask the service why it redirects.",
  );
};

const dateOutcome = (keyed: Seen[]): Outcome => {
  const without = keyed.filter((a) => !Number.isFinite(Date.parse(a.headers.get('date') ?? '')));
  if (!without.length) return holds(`All ${keyed.length} keyed answers carry a Date header.`);
  return tolerated(
    `${without.length} of ${keyed.length} keyed answers have no usable Date header: New Form Submission then dates each poll by the newest registration it read and assumes the full ${CURSOR_TIMING.clockSkewMs / 60_000} minutes of skew, so its polls read wider windows; nothing is missed.`,
  );
};

/** The service's clock minus this machine's, per answer: [lowest, highest] (the Date header has whole seconds). */
const skewRange = (answers: Seen[]): [number, number] | null => {
  const offsets = answers.flatMap((a) => {
    const date = Date.parse(a.headers.get('date') ?? '');
    if (!Number.isFinite(date)) return [];
    return [[date - a.receivedAt, date + 1000 - a.sentAt] as const];
  });
  if (!offsets.length) return null;
  return [Math.max(...offsets.map((o) => o[0])), Math.min(...offsets.map((o) => o[1]))];
};

const skewOutcome = (keyed: Seen[]): Outcome => {
  const range = skewRange(keyed);
  if (!range) return unchecked('No answer had a Date header.');
  const [low, high] = range;
  // The smallest skew every answer allows (0 when the range spans it).
  const skew = low > 0 ? low : high < 0 ? high : 0;
  const words = `The service's clock is ${Math.abs(skew) < 1000 ? 'within a second of' : `about ${Math.round(Math.abs(skew) / 1000)} s ${skew > 0 ? 'ahead of' : 'behind'}`} this machine's`;
  if (Math.abs(skew) <= CURSOR_TIMING.clockSkewMs) return holds(`${words}.`);
  return differs(
    `${words}: beyond the ${CURSOR_TIMING.clockSkewMs / 60_000} minutes New Form Submission allows, its polls could skip registrations (Zapier's clock is assumed to be close to this machine's).`,
    "Check this machine's clock first (it must be set by NTP); if it is right, ask the service to correct its clock.",
  );
};
