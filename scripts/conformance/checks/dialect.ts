/**
 * The service's dialect (`../dialect.ts`), reported first and once per difference: names (nested ones
 * included), the list envelope and the meaning of its paging member, the error body, and the signature of
 * a delivery the user captured. What is found is applied to every later answer, so the other groups check
 * what the service means, not again how it spells it.
 */
import { readFileSync } from 'node:fs';
import App from '../../../index';
import {
  CONTRACT_DIALECT,
  DIALECT,
  type Dialect,
  type ListNext,
  SCHEMES,
  contractStatusOf,
  listAnswer,
  statusOfAnswer,
  memberAt,
  membersBeside,
  nextMember,
  nextWords,
  restater,
  wireFieldName,
} from '../../../src/connect/testing';
import { paths } from '../../../src/connect/paths';
import { instantTriggerKeys } from '../../lib/app';
import { UNKNOWN_EVENT } from './errors';
import { REGISTRATION_OPERATIONS, WHOLE_EVENT_SINCE } from './submissions';
import { OPERATIONS as ORDER_OPERATIONS } from './orders';
import {
  DOTTED_KINDS,
  type ErrorFinding,
  type Sample,
  type Samples,
  errorDialectOf,
  kindSpellingOf,
  listOf,
  moreMember,
  nameDifferences,
  nextOf,
  readSamples,
  renamedOf,
  ruleOf,
  sameDialect,
  signatureOf,
  statusSpellingOf,
} from '../dialect';
import type { Run } from '../run';
import { type Check, type Outcome, checkMaker, differs, holds, unchecked } from '../types';
import { shapeOfPath } from '../shapes';

const check = checkMaker('The service’s dialect (read first, applied to every check below)', 'dialect');

const TEACH =
  'If the service documents it, teach it to the app in src/connect/dialect.ts and to the contract (docs/connect-contract.md) together; otherwise send this report to the service.';

const labelOf = (group: 'triggers' | 'searches' | 'creates', key: string): string =>
  String((App[group]?.[key] as { display?: { label?: string; hidden?: boolean } })?.display?.label ?? key);

/** Every visible operation of the app that reads records: all of them but the ones that only write. */
const readingOperations = (): string => {
  const visible = (group: 'triggers' | 'searches' | 'creates') =>
    Object.entries(App[group] ?? {})
      .filter(([, op]) => !(op as { display?: { hidden?: boolean } }).display?.hidden)
      .map(([key]) => labelOf(group, key));
  const all = [...visible('triggers'), ...visible('searches'), ...visible('creates')];
  return `all ${all.length} operations (${all.join(', ')})`;
};

const instantOperations = (): string =>
  instantTriggerKeys()
    .map((key) => labelOf('triggers', key))
    .join(', ');

const namesCheck = (samples: Sample[], found: Dialect): Check => {
  const assumption = 'Fields have the contract’s camelCase names (docs/connect-contract.md §3–5).';
  if (!samples.length)
    return check('names', assumption, unchecked('No record could be read to compare names with.'));
  const differences = nameDifferences(samples, found);
  if (!differences.length) {
    const kinds = samples.map((s) => s.noun).join(', ');
    return check('names', assumption, holds(`The records read (${kinds}) carry the contract’s names.`));
  }
  const words = differences.map(([ours, theirs]) => `"${theirs}" for "${ours}"`).join(', ');
  const rule = found.names.name === 'camelCase' ? '' : ` Names follow ${found.names.name}:`;
  if (!nameDifferences(samples, found, DIALECT).length) {
    return check('names', assumption, holds(`${rule} ${words}. The app was taught these names.`.trim()));
  }
  const detail = `${rule} ${words}. Until the app is taught these names it would read no record, so ${readingOperations()} would fail or lose fields. The kit read every later answer in these names.`;
  return check('names', assumption, differs(detail.trim(), TEACH));
};

/** What each member besides the records means, from the full list and a list of one (which `limit` cuts). */
const memberWords = async (
  run: Run,
  members: Record<string, unknown>,
  more: string | null,
  total: number,
): Promise<string> => {
  const names = Object.keys(members);
  if (!names.length) return '';
  const one = (await run.probe.get(paths.events(), { limit: 1 })).json as Record<string, unknown> | undefined;
  const all = `${total} event${total === 1 ? '' : 's'}`;
  const cutWords = total > 1 ? `limit=1 of ${all}` : `limit=1 (only ${all}: nothing was cut)`;
  const words = (name: string): string => {
    const full = JSON.stringify(members[name]);
    const cut = JSON.stringify(one?.[name]);
    if (name === more && total > 1 && one?.[name] === true && members[name] === false) {
      return `"${name}" is true when \`limit\` left records out (${cut} with ${cutWords}, ${full} with all): the app reads it as "this list was cut", never as a page to fetch.`;
    }
    if (full === cut) {
      return `"${name}" is ${full} with all and with ${cutWords}: it offers no further page, and the app needs nothing from it.`;
    }
    return `"${name}" is ${full} with all and ${cut} with ${cutWords}: a next page, which the app does not follow (it reads one answer per list).`;
  };
  return names.map((name) => ` ${words(name)}`).join('');
};

const envelopeCheck = async (run: Run, events: unknown, found: Dialect): Promise<Check> => {
  const assumption = 'Lists answer { "data": [ … ] } (docs/connect-contract.md §1).';
  const list = listOf(events);
  if (list.member === '') {
    const bare = 'Lists answer a bare JSON array, without an envelope.';
    if (DIALECT.list.member === '')
      return check('envelope', assumption, holds(`${bare} The app was taught it.`));
    return check(
      'envelope',
      assumption,
      differs(
        `${bare} Until the app is taught it (list.member "" in src/connect/dialect.ts) it reads no list, so ${readingOperations()} would fail. The kit read every later list so.`,
        TEACH,
      ),
    );
  }
  if (list.member === null) {
    const none =
      'The events list answered no list the kit could find (the events group says what it answered).';
    return check('envelope', assumption, unchecked(none));
  }
  const items = memberAt(events, list.member) as unknown[];
  const members = await memberWords(run, list.others, found.list.more, items.length);
  if (list.member === CONTRACT_DIALECT.list.member && found.list.more === null) {
    return check('envelope', assumption, holds(`Lists hold their records in "data".${members}`));
  }
  const where = list.member.includes('.') ? `the nested member "${list.member}"` : `"${list.member}"`;
  const detail = `Lists hold their records in ${where} where the contract has "data".${members} Until the app is taught this envelope it would read no list, so ${readingOperations()} would fail. The kit read every later list in this envelope.`;
  const taught = list.member === DIALECT.list.member && found.list.more === DIALECT.list.more;
  return check(
    'envelope',
    assumption,
    taught ? holds(`${detail.split(' Until')[0]} The app was taught this envelope.`) : differs(detail, TEACH),
  );
};

/** Whether two error dialects read an error body alike (where, which member, which spelling, which statuses). */
const sameErrors = (a: Dialect['errors'], b: Dialect['errors']): boolean =>
  sameDialect({ ...DIALECT, errors: a }, { ...DIALECT, errors: b });

/** The words of an error dialect found: where the error object and its code are, and the statuses that differ. */
const errorWords = (found: ErrorFinding, statuses: Readonly<Record<string, number>>): string => {
  const place =
    found.at === CONTRACT_DIALECT.errors.at
      ? ''
      : found.at === ''
        ? ' of the body itself (no "error" member around it)'
        : ` of the member "${found.at}"`;
  const spelled = found.value === found.code ? '' : `, spelled "${found.value}" for ${found.code}`;
  const differing = Object.entries(statuses).map(
    ([code, status]) => `${code} with HTTP ${status} where the contract has ${contractStatusOf(code)}`,
  );
  const answered = differing.length ? ` They answer ${differing.join(', and ')}.` : '';
  return `Error bodies carry their code in "${found.member}"${place}${spelled}.${answered}`;
};

const errorsCheck = async (
  run: Run,
  eventId: string | undefined,
): Promise<{ check: Check; errors: Dialect['errors'] }> => {
  const assumption =
    'An error answers { "error": { "code": "NOT_FOUND", … } } with the status of its code (docs/connect-contract.md §2).';
  // Two things that do not exist and a malformed `since`: their codes, where the body holds them, their statuses.
  const answers = [
    await run.probe.get(paths.hook(`hook_conformance_missing_${Date.now()}`)),
    await run.probe.get(paths.submissions(), { eventId: UNKNOWN_EVENT, since: WHOLE_EVENT_SINCE }),
    await run.probe.get(paths.submissions(), { eventId: eventId ?? UNKNOWN_EVENT, since: 'yesterday' }),
  ];
  const statuses: Record<string, number> = {};
  const findings = answers.map((answer) => {
    const one = errorDialectOf(answer.json);
    const contract = one === null ? undefined : contractStatusOf(one.code);
    if (one !== null && contract !== undefined && answer.status >= 400 && answer.status !== contract)
      statuses[one.code] = answer.status;
    return one;
  });
  const found = findings.find((f) => f !== null) ?? null;
  if (!found) {
    const outcome = unchecked(
      `A subscription and an event that do not exist answered HTTP ${answers.map((a) => a.status).join(' and ')} with no error code the kit could find (the errors group says what they answered).`,
    );
    return { check: check('errors', assumption, outcome), errors: DIALECT.errors };
  }
  const errors: Dialect['errors'] = { ...found.dialect, statuses };
  const words = errorWords(found, statuses);
  if (sameErrors(errors, CONTRACT_DIALECT.errors))
    return { check: check('errors', assumption, holds(words)), errors };
  if (sameErrors(errors, DIALECT.errors)) {
    const taught = holds(`${words} The app was taught these errors.`);
    return { check: check('errors', assumption, taught), errors: DIALECT.errors };
  }
  const detail = `${words} Until the app is taught these errors (errors in src/connect/dialect.ts) it misreads them: a search for something gone would fail instead of finding nothing, a plan without a feature would read as a refused key, a Zap whose subscription is already gone could not be turned off, check-in would not tell a ticket it does not know, and a refused field would not be named. The kit read every later error in this dialect.`;
  return { check: check('errors', assumption, differs(detail, TEACH)), errors };
};

/** A delivery the user captured: `{ "headers": {…}, "body": "<raw>" }`, or a raw HTTP request. */
export const readCapture = (text: string): { headers: Record<string, string>; body: string } => {
  try {
    const json = JSON.parse(text) as { headers?: unknown; body?: unknown };
    if (json && typeof json.body === 'string' && typeof json.headers === 'object' && json.headers !== null) {
      return { headers: json.headers as Record<string, string>, body: json.body };
    }
  } catch {
    // a raw HTTP request: its head, an empty line, its body
  }
  const split = text.search(/\r?\n\r?\n/);
  const head = split < 0 ? text : text.slice(0, split);
  const body = split < 0 ? '' : text.slice(split).replace(/^\r?\n\r?\n/, '');
  const headers: Record<string, string> = {};
  for (const line of head.split(/\r?\n/)) {
    const at = line.indexOf(':');
    if (at > 0) headers[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return { headers, body };
};

const signatureCheck = (
  run: Run,
): { check: Check; scheme: Dialect['signature']; header: string; type?: string } => {
  const assumption =
    'A delivery is signed X-Connect-Signature: sha256=<hex HMAC-SHA256 of the raw body> (§5).';
  const { delivery, secret } = run.options;
  if (!delivery || !secret) {
    const why =
      'No captured delivery was given: the kit cannot make the service send one (it only reads). Give one with --delivery FILE --secret SECRET.';
    return {
      check: check('signature', assumption, unchecked(why)),
      scheme: DIALECT.signature,
      header: DIALECT.signatureHeader,
    };
  }
  const { headers, body } = readCapture(readFileSync(delivery, 'utf8'));
  const found = signatureOf(headers, body, secret);
  const header = found?.header ?? DIALECT.signatureHeader;
  const contractHeader = CONTRACT_DIALECT.signatureHeader;
  if (found && found.header.toLowerCase() !== contractHeader.toLowerCase()) {
    const words = `The delivery is signed under ${found.header} (${SCHEMES[found.scheme].form}), where the contract has ${contractHeader}.`;
    const taught = found.header.toLowerCase() === DIALECT.signatureHeader.toLowerCase();
    const outcome =
      taught && found.scheme === DIALECT.signature
        ? holds(`${words} The app was taught it.`)
        : differs(
            `${words} Until the app is taught it (signatureHeader and signature in src/connect/dialect.ts), every instant trigger (${instantOperations()}) would refuse every delivery.`,
            TEACH,
          );
    return { check: check('signature', assumption, outcome), scheme: found.scheme, header };
  }
  return {
    check: check('signature', assumption, signatureOutcome(found?.scheme, headers)),
    scheme: found?.scheme ?? DIALECT.signature,
    header,
  };
};

const signatureOutcome = (
  matching: Dialect['signature'] | undefined,
  headers: Record<string, unknown>,
): Outcome => {
  if (matching === undefined) {
    const names = Object.keys(headers)
      .map((k) => `"${k}"`)
      .join(', ');
    return differs(
      `No header of the delivery (${names}) verifies in a scheme the kit knows (${Object.values(SCHEMES)
        .map((s) => s.form)
        .join(
          '; ',
        )}) verifies the delivery with this secret: check the secret; if it is right, every instant trigger (${instantOperations()}) would refuse every delivery.`,
      TEACH,
    );
  }
  const form = SCHEMES[matching].form;
  if (matching === CONTRACT_DIALECT.signature)
    return holds(`The delivery verifies as ${form} with the secret given.`);
  const words = `The delivery is signed ${form}, where the contract has ${SCHEMES[CONTRACT_DIALECT.signature].form}.`;
  if (matching === DIALECT.signature) return holds(`${words} The app was taught it.`);
  return differs(
    `${words} Until the app is taught it, every instant trigger (${instantOperations()}) would refuse every delivery.`,
    TEACH,
  );
};

/** Whether bodies of `dialect` read as the app's own: the same names, spellings, lists and error code. */
const readsAsApp = (dialect: Dialect): boolean =>
  sameDialect(
    { ...dialect, signature: DIALECT.signature, signatureHeader: DIALECT.signatureHeader },
    DIALECT,
  );

/** An outcome for one finding: holds as the contract, holds as the app was taught, or differs. */
const finding = (
  words: string,
  asContract: boolean,
  taught: boolean,
  breaks: string,
  value: string,
): Outcome => {
  if (asContract) return holds(words);
  if (taught) return holds(`${words} The app was taught it.`);
  return differs(
    `${words} Until the app is taught it (${value} in src/connect/dialect.ts), ${breaks}`,
    TEACH,
  );
};

/** How lists continue: one answer (the contract), or pages named by a member or a `Link` header the kit follows. */
const pagingCheck = (found: Dialect, value: string | null): Check => {
  const assumption = 'A list is one answer: it names no further page (docs/connect-contract.md §1).';
  const next = found.list.next;
  if (next === null) return check('paging', assumption, holds('No list read named a further page.'));
  const how =
    'link' in next
      ? 'its address'
      : next.cursor === null
        ? 'a link to it'
        : `a cursor, sent back as "${next.cursor}"`;
  const words = `Lists continue on further pages: ${nextWords(next)} (${JSON.stringify(value)} on a first page) names the next page by ${how}. The kit read every list to its last page.`;
  const taught = JSON.stringify(next) === JSON.stringify(DIALECT.list.next);
  const breaks = `the app reads the first page only and misses the records of the others: ${REGISTRATION_OPERATIONS}; ${ORDER_OPERATIONS} would miss every registration and order past a first page.`;
  return check('paging', assumption, finding(words, false, taught, breaks, `list.next`));
};

/** How query parameters are named: `eventId` or `event_id`. */
const queryCheck = (found: Dialect): Check => {
  const assumption = 'Query parameters have camelCase names: eventId, since, companyId (§1, §4).';
  const words = `Query parameters are named in ${found.query.name}${found.query.name === 'snake_case' ? ' (event_id, company_id)' : ''}.`;
  const breaks = `the service refuses or ignores the parameters the app sends: ${REGISTRATION_OPERATIONS}; ${ORDER_OPERATIONS}; the Event dropdown's older pages and Find Event (the catalog's page and limit) would fail or read the wrong records.`;
  const outcome = finding(
    words,
    found.query.name === CONTRACT_DIALECT.query.name,
    found.query.name === DIALECT.query.name,
    breaks,
    'query',
  );
  return check('query', assumption, outcome);
};

/** How statuses and kinds are spelled: the contract's (`paid`, `FORM_SUBMISSION`), or otherwise. */
const spellingsCheck = (found: Dialect, statuses: boolean, type: string | undefined): Check => {
  const assumption =
    'Statuses are spelled as the contract (paid, approved) and kinds as FORM_SUBMISSION (§3, §5).';
  const parts: string[] = [];
  if (found.spellings.status.name !== CONTRACT_DIALECT.spellings.status.name)
    parts.push(
      `statuses are spelled ${found.spellings.status.name} ("${found.spellings.status.wire('paid')}")`,
    );
  if (type !== undefined && found.spellings.kind.table)
    parts.push(
      `the delivery's kind is "${type}": kinds are dotted (${Object.entries(DOTTED_KINDS)
        .slice(0, 2)
        .map(([a, w]) => `${w} for ${a}`)
        .join(', ')}, …)`,
    );
  if (type !== undefined && kindSpellingOf(type) === null) {
    const outcome = differs(
      `The delivery's kind is "${type}", a spelling the kit does not know: the dialect can say it (spellings.kind: spelledBy({ … }) in src/connect/dialect.ts), but only the service's list of kinds can fill that table. Until then every instant trigger (${instantOperations()}) would subscribe to kinds the service does not send.`,
      'Ask the service for its list of webhook kinds and write it in src/connect/dialect.ts, then run the kit again.',
    );
    return check('spellings', assumption, outcome);
  }
  if (!statuses && type === undefined)
    return check(
      'spellings',
      assumption,
      unchecked('No status and no delivery was read to tell how they are spelled.'),
    );
  if (!parts.length)
    return check('spellings', assumption, holds('Statuses and kinds are spelled as the contract.'));
  const words = `${parts.join('; ')}.`;
  const taught =
    found.spellings.status.name === DIALECT.spellings.status.name &&
    JSON.stringify(found.spellings.kind.table ?? null) ===
      JSON.stringify(DIALECT.spellings.kind.table ?? null);
  const breaks = `triggers that pick records by status (Registration Approved, Payment Succeeded) would pick none, and instant triggers (${instantOperations()}) would subscribe to kinds the service does not send.`;
  return check(
    'spellings',
    assumption,
    finding(words.charAt(0).toUpperCase() + words.slice(1), false, taught, breaks, 'spellings'),
  );
};

/** The pages of a list in `dialect` joined as one answer (the last page's other members, no next page). */
const pagesOf = (dialect: Dialect, next: ListNext): NonNullable<Run['probe']['pages']> => {
  const { member } = dialect.list;
  const inBody = nextMember(next);
  return {
    next,
    join: (bodies) => {
      const records = bodies.flatMap((body) => {
        const items = memberAt(body, member);
        return Array.isArray(items) ? items : [];
      });
      const members = membersBeside(bodies[bodies.length - 1], member);
      if (inBody !== null && inBody in members) members[inBody] = null;
      return listAnswer(member, records, members);
    },
    // The catalog continues as the dialect's `catalog` says (by page number, or its own cursor), never as a
    // list: the catalog's checks read it page by page as the app does, one page a request.
    isList: (path, status) =>
      shapeOfPath(path, status).kind === 'list' && path.split('?')[0] !== paths.publicEvents(),
  };
};

/**
 * Where a subscription's secret comes from, seen only with `--probe-turn-on` (a default run sends no POST):
 * a subscribe request without a secret and for a kind that does not exist, which a service following the
 * contract refuses naming the kind. A service that refuses it naming the secret takes the secret from the
 * request (`client`). A subscription made anyway is deleted at once.
 */
const secretCheck = async (
  run: Run,
  found: Dialect,
): Promise<{ check: Check | null; source: Dialect['secretSource'] }> => {
  if (!run.options.probeTurnOn) return { check: null, source: DIALECT.secretSource };
  const assumption =
    'The service makes each subscription’s signing secret and answers it (docs/connect-contract.md §5).';
  const name = (field: string) => wireFieldName(found, 'hook', field);
  const body = {
    [name('targetUrl')]: 'https://conformance.invalid/secret-probe',
    [name('event')]: 'CONFORMANCE_PROBE_NOT_A_KIND',
    [name('eventId')]: null,
  };
  const answer = await run.probe.write('POST', paths.hooks(), body, {
    'Idempotency-Key': `conformance-secret-probe-${Date.now()}`,
  });
  const id = (answer.json as { id?: unknown } | undefined)?.id;
  if (answer.status < 300 && typeof id === 'string') await run.probe.write('DELETE', paths.hook(id));
  const error = memberAt(answer.json, found.errors.at) as Record<string, unknown> | undefined;
  const field = error?.field;
  if (answer.status >= 400 && field === name('secret')) {
    const words = `POST …/hooks without a secret was refused naming "${String(field)}" (HTTP ${answer.status}): the service takes each subscription’s signing secret from the subscribe request, where the contract has the service make it.`;
    const breaks = `every instant trigger (${instantOperations()}) would fail to turn on: the app would send no secret.`;
    const outcome = finding(
      words,
      false,
      DIALECT.secretSource === 'client',
      breaks,
      "secretSource: 'client'",
    );
    return { check: check('secret', assumption, outcome), source: 'client' };
  }
  const seen =
    answer.status < 300
      ? 'made a subscription (deleted again)'
      : `answered HTTP ${answer.status}${typeof field === 'string' ? ` naming "${field}"` : ''}`;
  const words = `POST …/hooks without a secret ${seen}, never asking for one: the service makes the secret, as the contract says.`;
  const outcome = finding(words, true, false, '', 'secretSource');
  return { check: check('secret', assumption, outcome), source: 'service' };
};

/** The dialect the samples, the error answers and the captured delivery show. */
const foundDialect = async (run: Run, read: Samples): Promise<{ dialect: Dialect; checks: Check[] }> => {
  const { samples, events, lists } = read;
  const rule = ruleOf(samples);
  const list = listOf(events);
  const paging = nextOf(lists, read.links);
  const firstEvent = samples.find((s) => s.noun === 'event')?.objects[0]?.id;
  const errors = await errorsCheck(
    run,
    run.options.eventId ?? (typeof firstEvent === 'string' ? firstEvent : undefined),
  );
  const signature = signatureCheck(run);
  const type = deliveryType(run);
  const kind = type === undefined ? DIALECT.spellings.kind : (kindSpellingOf(type) ?? DIALECT.spellings.kind);
  const named = { ...DIALECT, names: rule, renamed: renamedOf(samples, rule), errors: errors.errors };
  const secret = await secretCheck(run, named);
  const dialect: Dialect = {
    names: rule,
    query: read.query,
    spellings: { status: statusSpellingOf(samples), kind },
    renamed: renamedOf(samples, rule),
    list: { member: list.member ?? DIALECT.list.member, next: paging.next, more: moreMember(list.others) },
    // How the catalog continues is found with the catalog's checks (catalog.paging); the app's until then.
    catalog: DIALECT.catalog ?? null,
    errors: errors.errors,
    signature: signature.scheme,
    signatureHeader: signature.header,
    secretSource: secret.source,
  };
  const statuses = samples.some((s) => s.objects.some((o) => typeof o.status === 'string'));
  const checks = [
    namesCheck(samples, dialect),
    await envelopeCheck(run, events, dialect),
    pagingCheck(dialect, paging.value),
    queryCheck(dialect),
    spellingsCheck(dialect, statuses, type),
    errors.check,
    signature.check,
    ...(secret.check ? [secret.check] : []),
  ];
  return { dialect, checks };
};

/** The kind of the captured delivery (`type`), when one was given and reads as JSON. */
const deliveryType = (run: Run): string | undefined => {
  if (!run.options.delivery) return undefined;
  try {
    const { body } = readCapture(readFileSync(run.options.delivery, 'utf8'));
    const type = (JSON.parse(body) as { type?: unknown }).type;
    return typeof type === 'string' ? type : undefined;
  } catch {
    return undefined;
  }
};

/** The findings, and every later answer read in the dialect found (every page of a list, as one answer). */
export const dialectChecks = async (run: Run): Promise<Check[]> => {
  const { dialect, checks } = await foundDialect(run, await readSamples(run));
  run.probe.query = dialect.query;
  if (dialect.list.next !== null) run.probe.pages = pagesOf(dialect, dialect.list.next);
  // From here on, every answer is read in the dialect found (as it came when that is the app's own: a large
  // answer is not parsed and written again for nothing).
  if (!readsAsApp(dialect)) {
    const restate = restater(dialect, DIALECT);
    run.probe.restate = (path, status, json) => restate(json, shapeOfPath(path, status));
  }
  const { at, codeMember, code, statuses } = dialect.errors;
  if (Object.keys(statuses).length) {
    run.probe.restateStatus = (status, json) => {
      const wire = (memberAt(json, at) as Record<string, unknown> | undefined)?.[codeMember];
      return statusOfAnswer(status, typeof wire === 'string' ? code(wire) : undefined, statuses);
    };
    run.probe.restateSeen();
  }
  run.dialect = dialect;
  run.options.onDialect?.(dialect);
  return checks;
};
