/**
 * `npm run simulate -- <action> …`: causes in the running sandbox what attendees, organizers, payment
 * providers and door scanners cause in the service (its simulation API), as the organizer of `.env`, and
 * prints what it did and which webhook kinds that sends. Like `stripe trigger`, for this service.
 */
import {
  UsageError,
  callSandbox,
  ensureSandbox,
  findEvent,
  loadEnv,
  parseArgs,
  problemText,
  type EventJson,
  type ParsedArgs,
  type WorkbenchEnv,
} from './lib/workbench';
import { SIGNATURE_HEADER } from '../sandbox/wire';
import { EVENT_STATUSES } from '../sandbox/types';
import {
  API_KEY_HEADER,
  type PageAnswer,
  type RecordNoun,
  inAppNames,
  wholeListOf,
} from '../src/connect/testing';
import { paths } from '../src/connect/paths';

type Item = Record<string, unknown>;

const on = (event?: Pick<EventJson, 'slug'>) => (event ? ` --event ${event.slug}` : '');
const approved = (event?: Pick<EventJson, 'slug'>) => `register --status approved${on(event)}`;

interface Submission {
  submissionId: string;
  eventId: string;
  status: string;
  email: string;
  firstName: string;
  lastName: string;
  qrCode: string | null;
  createdAt: string;
  checkedInAt: string | null;
}

interface Order {
  id: string;
  submissionId: string;
  status: string;
  currency: string;
  totalAmount: number;
  paymentId: string | null;
  createdAt: string;
}

interface Booth {
  id: string;
  label: string;
  status: string;
}

const PEOPLE: [string, string, string][] = [
  ['Ada', 'Lovelace', 'Analytical Engines'],
  ['Grace', 'Hopper', 'Compiler Works'],
  ['Alan', 'Turing', 'Bletchley Labs'],
  ['Katherine', 'Johnson', 'Orbital Math'],
  ['Margaret', 'Hamilton', 'Apollo Software'],
  ['Edsger', 'Dijkstra', 'Shortest Path BV'],
  ['Barbara', 'Liskov', 'Substitution Inc'],
  ['Tim', 'Berners-Lee', 'Hypertext Ltd'],
];

/** The statuses an event can be put in by a verb of its own (`publish` is an action of its own, above). */
const STATUS_VERBS = (Object.entries(EVENT_STATUSES) as Array<[string, { verb: string; kind: string }]>)
  .filter(([, { verb }]) => verb !== 'publish')
  .map(([status, { verb, kind }]) => ({ status, verb, kind }));

const STATUS_HELP = STATUS_VERBS.map(
  ({ status, verb, kind }) =>
    `  ${`${verb} <event>`.padEnd(26)}${`its status becomes ${status}`.padEnd(30)}→ ${kind}`,
).join('\n');

const HELP = `usage: npm run simulate -- <action> [arguments] [--event <id, slug or title words>]

Causes a change in the running sandbox (the organizer of .env) and prints what it did.
Without --event, the organizer's next published event is used.

  register [--email E] [--first F] [--last L] [--status pending|approved]
                            a person registers            → FORM_SUBMISSION (+ _APPROVED if approved)
  approve [registration]    the organizer approves        → FORM_SUBMISSION_APPROVED (QR issued)
  reject [registration]     the organizer rejects         → nothing
  pay [registration] [--amount 129.00]
                            the payment succeeds          → PAYMENT_SUCCESS
  fail [registration]       the payment fails             → PAYMENT_FAILED
  refund [order]            a paid order is refunded      → PAYMENT_REFUNDED
  scan [QR code or registration]
                            the door app scans a ticket   → ATTENDANT_CHECKED_IN (first scan only)
  publish [event] [--title T]
                            publishes a draft event, or creates and publishes a new one
                                                          → EVENT_CREATED, EVENT_PUBLISHED
${STATUS_HELP}
  delete <event>            the organizer deletes the event → EVENT_DELETED (then 404 everywhere)
  book [booth] [--plan plan_main] [--status booked|held|available]
                            books a booth and publishes the plan (map and Find Floor Plan show it)
  rotate [subscription|account]
                            rotates a signing secret (default: the newest subscription with its own);
                            deliveries are then signed with the new and the previous secret
  expire [subscription|account]
                            retires the previous secret: only the new one signs
  hooks                     lists the organizer's subscriptions
  deliveries [--bodies]     the latest delivery attempts (with --bodies: each body and its signature)

Without a registration, approve/reject pick the newest pending one, pay/fail the newest approved one
without an order, scan the newest approved one not yet checked in, refund the newest paid order.`;

const money = (amount: number, currency: string): string => `${(amount / 100).toFixed(2)} ${currency}`;
const person = (s: Submission): string => `${s.firstName} ${s.lastName} <${s.email}>`;

/**
 * One page of a list of the sandbox, with its `Link` header: `address` is a path with its query, or a link a
 * page named (the key is sent only under the sandbox's own address).
 */
const pageOf = async (env: WorkbenchEnv, address: string): Promise<PageAnswer> => {
  const url = /^https?:/.test(address) ? address : `${env.baseUrl}${address}`;
  const keyed = url.startsWith(`${env.baseUrl}/`);
  const response = await fetch(url, { headers: keyed ? { [API_KEY_HEADER]: env.apiKey } : {} });
  const text = await response.text();
  if (!response.ok)
    throw new Error(`sandbox GET ${address} answered ${response.status}: ${text.slice(0, 300)}`);
  return { body: JSON.parse(text) as unknown, link: response.headers.get('link') };
};

/**
 * Every record of a list of the sandbox under the app's names, asked and followed as the app asks and follows
 * it (`wholeListOf`: the dialect's query names, and its next pages, in an answer's body or `Link` header).
 */
const wholeList = async <T>(
  env: WorkbenchEnv,
  noun: RecordNoun,
  path: string,
  query: Record<string, string | number>,
): Promise<T[]> =>
  (await wholeListOf((address) => pageOf(env, address), path, query)).map(
    (record) => inAppNames(noun, record) as T,
  );

const submissionsOf = async (env: WorkbenchEnv, event: EventJson): Promise<Submission[]> => {
  const since = new Date(Date.now() - 7 * 24 * 3600 * 1000).toISOString();
  const data = await wholeList<Submission>(env, 'submission', paths.submissions(), {
    eventId: event.id,
    since,
  });
  return data.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
};

const ordersOf = async (env: WorkbenchEnv): Promise<Order[]> => {
  const companyId = env.authData.companyId;
  if (!companyId) throw new UsageError('.env has no authData_companyId line: restart `npm run sandbox`.');
  const data = await wholeList<Order>(env, 'order', paths.orders(), { companyId, limit: 100 });
  return data.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
};

/** The registration named by `ref` (its ID), or the newest one of the event that `pick` accepts. */
const registration = async (
  env: WorkbenchEnv,
  args: ParsedArgs,
  pick: (s: Submission) => boolean,
  none: string,
): Promise<Submission> => {
  const ref = args.positional[1];
  if (ref) return callSandbox<Submission>(env, 'GET', `/_sandbox/submissions/${encodeURIComponent(ref)}`);
  const event = await findEvent(env, flag(args, 'event'));
  const found = (await submissionsOf(env, event)).find(pick);
  if (!found) throw new UsageError(`${none} on ${event.title}. Run \`npm run simulate -- register\` first.`);
  return found;
};

const flag = (args: ParsedArgs, name: string): string | undefined => {
  const value = args.flags[name];
  if (value === true) throw new UsageError(`--${name} needs a value.`);
  return value;
};

type Action = (env: WorkbenchEnv, args: ParsedArgs, print: (line: string) => void) => Promise<void>;

const payWith =
  (outcome: 'paid' | 'failed'): Action =>
  async (env, args, print) => {
    const orders = await ordersOf(env);
    const s = await registration(
      env,
      args,
      (r) => r.status === 'approved' && !orders.some((o) => o.submissionId === r.submissionId),
      'No approved registration without an order',
    );
    const amount = flag(args, 'amount');
    const cents = amount === undefined ? undefined : Math.round(Number(amount) * 100);
    if (cents !== undefined && !(Number.isInteger(cents) && cents >= 0)) {
      throw new UsageError(`--amount must be an amount such as 129.00, not "${amount}".`);
    }
    const order = await callSandbox<Order>(env, 'POST', '/_sandbox/orders', {
      submissionId: s.submissionId,
      outcome,
      ...(cents === undefined ? {} : { items: [{ name: 'Ticket', quantity: 1, unitAmount: cents }] }),
    });
    print(
      `${outcome === 'paid' ? 'Payment succeeded' : 'Payment failed'} for ${person(s)}: order ${order.id}, ` +
        `${money(order.totalAmount, order.currency)}${order.paymentId ? `, payment ${order.paymentId}` : ''}`,
    );
    print(`  sends ${outcome === 'paid' ? 'PAYMENT_SUCCESS' : 'PAYMENT_FAILED'}`);
  };

/**
 * The subscription named by `ref`; without it, the newest subscription that has a secret of its own; with
 * "account" (or when no subscription has one), the account-level secret (null).
 */
const rotationTarget = async (env: WorkbenchEnv, ref: string | undefined): Promise<string | null> => {
  if (ref === 'account') return null;
  if (ref) return ref;
  const { data } = await callSandbox<{ data: { id: string; secret: string | null; createdAt: string }[] }>(
    env,
    'GET',
    '/_sandbox/hooks',
  );
  const own = data.filter((h) => h.secret).sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  return own[0]?.id ?? null;
};

const rotation =
  (path: 'rotate' | 'expire-previous'): Action =>
  async (env, args, print) => {
    const hookId = await rotationTarget(env, args.positional[1]);
    const result = await callSandbox<{
      hookId: string | null;
      secret: string;
      previousSecret: string | null;
    }>(env, 'POST', `/_sandbox/secrets/${path}`, hookId ? { hookId } : {});
    const whose = result.hookId ? `subscription ${result.hookId}` : 'the account';
    if (path === 'rotate') {
      print(`Rotated the signing secret of ${whose}: new ${result.secret}`);
      print('  deliveries are now signed with the new and the previous secret (two sha256= values)');
    } else {
      print(`Retired the previous signing secret of ${whose}: only ${result.secret} signs now`);
    }
    if (!result.hookId)
      print('  the connection verifies with authData_webhookSecret: put the new secret in .env');
  };

/** `unpublish <event>`, …: puts the event in `status`, which sends `kind` unless it was in it already. */
const statusAction =
  ({ status, verb, kind }: (typeof STATUS_VERBS)[number]): Action =>
  async (env, args, print) => {
    const ref = args.positional[1] ?? flag(args, 'event');
    if (!ref) throw new UsageError(`Name the event to ${verb}: npm run simulate -- ${verb} <slug>`);
    const event = await findEvent(env, ref);
    const done = await callSandbox<EventJson>(env, 'POST', `/_sandbox/events/${event.id}/${verb}`);
    const past = `${verb}${verb.endsWith('e') ? 'd' : 'ed'}`;
    print(`${past.charAt(0).toUpperCase()}${past.slice(1)} ${done.title} (${done.slug})`);
    print(event.status === status ? `  was ${status} already: sends nothing` : `  sends ${kind}`);
  };

export const ACTIONS: Record<string, Action> = {
  async register(env, args, print) {
    const event = await findEvent(env, flag(args, 'event'));
    const n = Math.floor(Date.now() / 1000);
    const [first, last, company] = PEOPLE[n % PEOPLE.length] as [string, string, string];
    const firstName = flag(args, 'first') ?? first;
    const lastName = flag(args, 'last') ?? last;
    const status = flag(args, 'status') ?? 'pending';
    if (!['pending', 'approved'].includes(status)) {
      throw new UsageError(`--status must be pending or approved, not "${status}".`);
    }
    const email =
      flag(args, 'email') ??
      `${firstName}.${lastName}+${n.toString(36)}@example.com`.toLowerCase().replace(/[^a-z0-9.+@-]/g, '');
    const s = await callSandbox<Submission>(env, 'POST', '/_sandbox/submissions', {
      eventId: event.id,
      email,
      firstName,
      lastName,
      status,
      answers: [
        { key: 'company', label: 'Company', value: company },
        { key: 'dietary', label: 'Dietary needs', value: ['vegetarian'] },
      ],
    });
    print(`Registered ${person(s)} for ${event.title}: ${s.submissionId} (${s.status})`);
    if (s.qrCode) print(`  QR code ${s.qrCode}`);
    print(`  sends FORM_SUBMISSION${s.status === 'approved' ? ' and FORM_SUBMISSION_APPROVED' : ''}`);
  },

  async approve(env, args, print) {
    const s = await registration(env, args, (r) => r.status === 'pending', 'No pending registration');
    const done = await callSandbox<Submission>(
      env,
      'POST',
      `/_sandbox/submissions/${s.submissionId}/approve`,
    );
    print(`Approved ${person(done)} (${done.submissionId}): QR code ${done.qrCode ?? '—'}`);
    print(s.status === 'approved' ? '  already approved: sends nothing' : '  sends FORM_SUBMISSION_APPROVED');
  },

  async reject(env, args, print) {
    const s = await registration(env, args, (r) => r.status === 'pending', 'No pending registration');
    const done = await callSandbox<Submission>(env, 'POST', `/_sandbox/submissions/${s.submissionId}/reject`);
    print(`Rejected ${person(done)} (${done.submissionId})`);
    print('  sends nothing (the service has no webhook for a rejection)');
  },

  pay: payWith('paid'),
  fail: payWith('failed'),

  async refund(env, args, print) {
    const ref = args.positional[1];
    const orders = await ordersOf(env);
    const order = ref ? orders.find((o) => o.id === ref) : orders.find((o) => o.status === 'paid');
    if (!order) {
      throw new UsageError(
        ref
          ? `No order ${ref} among the organizer's 100 newest.`
          : 'No paid order: run `npm run simulate -- pay` first.',
      );
    }
    const done = await callSandbox<Order>(env, 'POST', `/_sandbox/orders/${order.id}/refund`);
    print(
      `Refunded order ${done.id} (${money(done.totalAmount, done.currency)}) of registration ${done.submissionId}`,
    );
    print('  sends PAYMENT_REFUNDED');
  },

  async scan(env, args, print) {
    const ref = args.positional[1];
    let body: Item;
    if (ref?.startsWith('EVT1:') || (ref && ref.includes(':'))) body = { code: ref };
    else {
      const s = await registration(
        env,
        args,
        (r) => r.status === 'approved' && !r.checkedInAt,
        'No approved registration that is not checked in yet',
      );
      body = s.qrCode ? { code: s.qrCode } : { eventId: s.eventId, submissionId: s.submissionId };
    }
    const result = await callSandbox<Item & { attendee?: Item }>(env, 'POST', '/_sandbox/scan', body);
    const who = result.attendee
      ? `${String(result.attendee.firstName)} ${String(result.attendee.lastName)}`
      : '';
    if (result.result === 'already_checked_in') {
      print(`${who} was already checked in at ${String(result.checkInTime)}: sends nothing`);
    } else {
      print(`Checked in ${who} (${String(result.submissionId)}) at ${String(result.checkInTime)}`);
      print('  sends ATTENDANT_CHECKED_IN');
    }
  },

  async publish(env, args, print) {
    const ref = args.positional[1] ?? flag(args, 'event');
    if (ref) {
      const event = await findEvent(env, ref);
      const done = await callSandbox<EventJson>(env, 'POST', `/_sandbox/events/${event.id}/publish`);
      print(`Published ${done.title} (${done.slug}, ${done.id})`);
      print(event.status === 'published' ? '  already published: sends nothing' : '  sends EVENT_PUBLISHED');
      return;
    }
    const stamp = new Date().toISOString().slice(0, 16).replace('T', ' ');
    const created = await callSandbox<EventJson>(env, 'POST', '/_sandbox/events', {
      title: flag(args, 'title') ?? `Sandbox Meetup ${stamp}`,
      venueName: 'Sandbox Hall',
    });
    const done = await callSandbox<EventJson>(env, 'POST', `/_sandbox/events/${created.id}/publish`);
    print(`Created and published ${done.title} (${done.slug}, ${done.id})`);
    print('  sends EVENT_CREATED, then EVENT_PUBLISHED');
  },

  async book(env, args, print) {
    const event = await findEvent(env, flag(args, 'event'));
    const planId = flag(args, 'plan') ?? 'plan_main';
    const status = flag(args, 'status') ?? 'booked';
    if (!['booked', 'held', 'available'].includes(status)) {
      throw new UsageError(`--status must be booked, held or available, not "${status}".`);
    }
    const base = `/_sandbox/events/${event.id}/floor-plans/${encodeURIComponent(planId)}`;
    const plan = await callSandbox<{ booths: Booth[] }>(env, 'GET', base);
    const ref = args.positional[1];
    const booth = ref
      ? plan.booths.find((b) => b.id === ref || b.label.toLowerCase() === ref.toLowerCase())
      : plan.booths.find((b) => b.status === 'available');
    if (!booth) {
      throw new UsageError(
        ref
          ? `Plan ${planId} of ${event.title} has no booth ${ref}.`
          : `Plan ${planId} has no available booth left.`,
      );
    }
    await callSandbox(env, 'POST', `${base}/booths/${encodeURIComponent(booth.id)}`, { status });
    const snapshot = await callSandbox<{ version: number }>(env, 'POST', `${base}/publish`);
    print(
      `Booth ${booth.label} of ${planId} (${event.title}) is now ${status}; plan published as version ${snapshot.version}`,
    );
    print(`  the map shows it at ${env.baseUrl}/embed/${event.id}/map/${planId}?list=1`);
  },

  rotate: rotation('rotate'),
  expire: rotation('expire-previous'),

  async hooks(env, _args, print) {
    const { data } = await callSandbox<{ data: Item[] }>(env, 'GET', '/_sandbox/hooks');
    if (data.length === 0) print('No subscriptions. `npm run listen -- new_registration` makes one.');
    for (const h of data) {
      print(
        `${String(h.id)}  ${String(h.event)}${h.eventId ? ` (event ${String(h.eventId)})` : ''} → ${String(h.targetUrl)}` +
          `  secret: ${h.secret ? 'own' : 'account'}${h.previousSecret ? ', rotating' : ''}`,
      );
    }
  },

  async deliveries(env, args, print) {
    const { data, pending } = await callSandbox<{ data: Item[]; pending: number }>(
      env,
      'GET',
      '/_sandbox/deliveries',
    );
    const latest = data.slice(-20);
    if (latest.length === 0) print('No delivery yet.');
    for (const d of latest) {
      print(
        `${String(d.startedAt).slice(11, 23)}  ${String(d.deliveryId)} ${String(d.type)} → ${String(d.targetUrl)} ` +
          `attempt ${String(d.attempt)}: ${String(d.state)}${d.statusCode ? ` (${String(d.statusCode)})` : ''}` +
          `${d.error ? ` ${String(d.error)}` : ''}`,
      );
      if (args.flags.bodies && d.attempt === 1) {
        const sent = await callSandbox<{ body: string; headers: Record<string, string> }>(
          env,
          'GET',
          `/_sandbox/deliveries/${String(d.deliveryId)}`,
        ).catch(() => null);
        if (sent) {
          print(`    ${SIGNATURE_HEADER}: ${sent.headers[SIGNATURE_HEADER]}`);
          print(`    ${sent.body}`);
        }
      }
    }
    print(`${data.length} attempts in all, ${pending} deliveries still pending`);
  },
  ...Object.fromEntries(STATUS_VERBS.map((entry) => [entry.verb, statusAction(entry)])),
  async delete(env, args, print) {
    const ref = args.positional[1] ?? flag(args, 'event');
    if (!ref) throw new UsageError('Name the event to delete: npm run simulate -- delete <slug>');
    const event = await findEvent(env, ref);
    await callSandbox<EventJson>(env, 'DELETE', `/_sandbox/events/${event.id}`);
    print(`Deleted ${event.title} (${event.slug}, ${event.id})`);
    print('  sends EVENT_DELETED; the service now answers 404 for it, and its tickets no longer check in');
  },
};

/** The `npm run simulate` commands that make the service send a kind, and what they send. */
export interface Simulation {
  commands: string[];
  sends: string;
}

/**
 * How to make the service send each webhook kind with the actions above (`npm run listen` suggests it, and
 * the workbench test runs it for every instant trigger of the app). `event`: the event the Zap listens to,
 * if one; `changes`: the changes an Event Changed Zap picked.
 */
export const HOW_TO_SEND: Record<
  string,
  (event?: Pick<EventJson, 'slug'>, changes?: string[]) => Simulation
> = {
  FORM_SUBMISSION: (event) => ({ commands: [`register${on(event)}`], sends: 'FORM_SUBMISSION' }),
  FORM_SUBMISSION_APPROVED: (event) => ({
    commands: [`register${on(event)}`, `approve${on(event)}`],
    sends: 'FORM_SUBMISSION_APPROVED',
  }),
  PAYMENT_SUCCESS: (event) => ({ commands: [approved(event), `pay${on(event)}`], sends: 'PAYMENT_SUCCESS' }),
  PAYMENT_FAILED: (event) => ({ commands: [approved(event), `fail${on(event)}`], sends: 'PAYMENT_FAILED' }),
  PAYMENT_REFUNDED: (event) => ({
    commands: [approved(event), `pay${on(event)}`, 'refund'],
    sends: 'PAYMENT_REFUNDED',
  }),
  ATTENDANT_CHECKED_IN: (event) => ({
    commands: [approved(event), `scan${on(event)}`],
    sends: 'ATTENDANT_CHECKED_IN',
  }),
  EVENT_PUBLISHED: (event) =>
    event
      ? { commands: [`unpublish ${event.slug}`, `publish ${event.slug}`], sends: 'EVENT_PUBLISHED' }
      : { commands: ['publish'], sends: 'EVENT_CREATED and EVENT_PUBLISHED' },
  'EVENT_*': (event, changes = []) => {
    if (event) {
      return {
        commands: [`unpublish ${event.slug}`, `publish ${event.slug}`],
        sends: 'EVENT_UNPUBLISHED, then EVENT_PUBLISHED',
      };
    }
    if (changes.length > 0 && changes.every((change) => change === 'unpublished'))
      return { commands: ['publish', 'unpublish <the slug publish printed>'], sends: 'EVENT_UNPUBLISHED' };
    if (changes.length > 0 && changes.every((change) => change === 'deleted'))
      return { commands: ['publish', 'delete <the slug publish printed>'], sends: 'EVENT_DELETED' };
    return { commands: ['publish'], sends: 'EVENT_CREATED and EVENT_PUBLISHED' };
  },
  // Each other status: with an event, put it in the status and publish it again (later simulations find
  // it published); without one, publish a new event and put that in the status.
  ...Object.fromEntries(
    STATUS_VERBS.map(({ verb, kind }) => [
      kind,
      (event?: Pick<EventJson, 'slug'>): Simulation =>
        event
          ? {
              commands: [`${verb} ${event.slug}`, `publish ${event.slug}`],
              sends: `${kind}, then EVENT_PUBLISHED`,
            }
          : { commands: ['publish', `${verb} <the slug publish printed>`], sends: kind },
    ]),
  ),
};

export const simulate = async (
  argv: string[],
  print: (line: string) => void,
  envFile?: string,
): Promise<void> => {
  const args = parseArgs(argv, ['bodies']);
  const name = args.positional[0];
  if (!name || name === 'help' || args.flags.help) {
    print(HELP);
    return;
  }
  const action = ACTIONS[name];
  if (!action) throw new UsageError(`Unknown action "${name}". Actions: ${Object.keys(ACTIONS).join(', ')}.`);
  const env = loadEnv(envFile);
  await ensureSandbox(env);
  await action(env, args, print);
};

if (require.main === module) {
  simulate(process.argv.slice(2), (line) => process.stdout.write(`${line}\n`)).catch((error: unknown) => {
    console.error(problemText(error));
    process.exit(1);
  });
}
