// Deviation switches: the sandbox answers the way a service that reads the interface document differently
// from docs/connect-contract.md might, so that `npm run conformance` can be shown to tell each one apart.
// They are off by default and sandbox-wide; set them with the `deviations` option or `--deviate a,b`.
//
// This file is the sandbox's dialect: every way a service may say what the contract means otherwise (field
// and query parameter names, where a list holds its records and how it continues, the spellings of statuses
// and kinds, the error body, the signature's header and scheme) is written here and nowhere else, so a
// service that speaks another dialect is a switch here and a change of src/connect/dialect.ts in the app.

import { createHmac } from 'node:crypto';
import type { ApiError } from './errors';

/** Records a page with `cursor-paging`. */
export const CURSOR_PAGE = 10;

export const DEVIATIONS = {
  'bare-arrays': 'lists (events, submissions, orders, floor plans, the catalog) answer a bare JSON array',
  'items-envelope': 'lists answer `{ "items": [...], "next": null }` instead of `{ "data": [...] }`',
  'nested-envelope': 'lists answer `{ "result": { "items": [...] } }` instead of `{ "data": [...] }`',
  'cursor-paging':
    'registrations and orders answer pages of at most 10 records (`CURSOR_PAGE`) with `"next"` beside them: the cursor of the next page (sent back as `cursor`), null on the last',
  'link-paging':
    'registrations and orders answer pages of at most 10 records (`CURSOR_PAGE`) and name the next one in a `Link` header (`<…&cursor=c_10>; rel="next"`), none on the last',
  'catalog-cursor':
    'the public catalog ignores `page` and answers `limit` events from `cursor`, with `"next"` beside them (the next cursor, null on the last) and no `page`, `limit` nor `total`',
  'snake-query':
    'query parameters are snake_case (`event_id`, `company_id`); their camelCase names are ignored',
  'other-spellings':
    'statuses are in capitals (`PAID`, `APPROVED`) and webhook kinds dotted (`registration.created`), in answers, deliveries and subscriptions',
  'client-secret':
    "the subscribe request carries the subscription's signing secret (`secret`, made by the client; 400 naming it when missing, before the kind is read), which the subscription answers back and deliveries are signed with",
  'signature-header': 'deliveries carry their signature in `X-Signature` instead of `X-Connect-Signature`',
  'has-more':
    'lists answer `{ "items": [...], "has_more": false }`, `has_more` being true when `limit` left records out',
  'snake-case':
    "every field name is snake_case (`created_at`, `event_id`) in answers, request bodies and deliveries, and a registration's identifier is `id`",
  'since-ignored': 'the submissions endpoint ignores `since` and answers every visible submission',
  'since-exclusive': '`since` is exclusive: a submission created exactly at `since` is left out',
  'since-seconds': '`since` is read to the second: its milliseconds are ignored (truncated)',
  'plain-errors': "every error answer is plain text (`404 Not Found`), not the contract's JSON body",
  'error-type': 'every error body is `{ "error": { "type": "not_found", "message" } }`, without `code`',
  'flat-errors':
    'every error body is the error object itself, `{ "code": "NOT_FOUND", "message" }`, without the `error` member around it',
  'other-statuses':
    'a not-found answers 403 instead of 404 (`OTHER_STATUSES`), a malformed request 422 instead of 400; the body carries the same code',
  'timestamped-signature':
    'deliveries are signed `X-Connect-Signature: t=<Unix time>,v1=<hex HMAC-SHA256 of "<t>.<body>">`',
  'no-date': 'answers carry no `Date` header',
  'skewed-clock': 'the `Date` header runs 30 minutes ahead of the sandbox clock',
  'limit-rejected': 'a `limit` above 100 is 400 VALIDATION_ERROR instead of being clamped',
  'large-limits': 'the events list honours a `limit` up to 1000 instead of clamping it to 100',
  shuffle: 'every list (and each catalog page) comes back in a shuffled order',
  'hook-key-unread': '`POST …/hooks` ignores an `Idempotency-Key`: every request makes a new subscription',
} as const;

export type Deviation = keyof typeof DEVIATIONS;

export const DEVIATION_NAMES = Object.keys(DEVIATIONS) as Deviation[];

/** How far the `Date` header runs ahead with `skewed-clock`. */
export const SKEWED_CLOCK_MS = 30 * 60 * 1000;

/** Reads a list of deviation names (`bare-arrays,no-date`); throws naming the unknown one. */
export function parseDeviations(raw: string): Deviation[] {
  const names = raw
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  for (const name of names) {
    if (!(DEVIATION_NAMES as string[]).includes(name)) {
      throw new Error(`unknown deviation "${name}" (known: ${DEVIATION_NAMES.join(', ')})`);
    }
  }
  return names as Deviation[];
}

/** `createdAt` → `created_at`. */
const snakeName = (name: string): string => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
/** `created_at` → `createdAt`. */
const camelName = (name: string): string => name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** A JSON value with every object key renamed by `rename`, at every level. */
const renamed = (value: unknown, rename: (name: string) => string): unknown => {
  if (Array.isArray(value)) return value.map((item) => renamed(item, rename));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, v]) => [rename(key), renamed(v, rename)]));
};
const snakeCased = (value: unknown): unknown => renamed(value, snakeName);

/** Delivery kinds whose data is a registration (its own identifier is `submissionId` in the contract). */
export const REGISTRATION_KINDS: ReadonlySet<string> = new Set([
  'FORM_SUBMISSION',
  'FORM_SUBMISSION_APPROVED',
  'ATTENDANT_CHECKED_IN',
]);

/** The contract's webhook kinds as `other-spellings` writes them. */
const DOTTED_KINDS: Readonly<Record<string, string>> = {
  FORM_SUBMISSION: 'registration.created',
  FORM_SUBMISSION_APPROVED: 'registration.approved',
  ATTENDANT_CHECKED_IN: 'attendee.checked_in',
  PAYMENT_SUCCESS: 'payment.succeeded',
  PAYMENT_FAILED: 'payment.failed',
  PAYMENT_REFUNDED: 'payment.refunded',
  'EVENT_*': 'event.*',
  EVENT_CREATED: 'event.created',
  EVENT_UPDATED: 'event.updated',
  EVENT_PUBLISHED: 'event.published',
  EVENT_UNPUBLISHED: 'event.unpublished',
  EVENT_DELETED: 'event.deleted',
};
const CONTRACT_KINDS = new Map(Object.entries(DOTTED_KINDS).map(([contract, dotted]) => [dotted, contract]));

/** A JSON value with the enumerations in it spelled by `other-spellings`: statuses in capitals, kinds dotted. */
const respelled = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(respelled);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, v]) => [
      key,
      key === 'status' && typeof v === 'string'
        ? v.toUpperCase()
        : (key === 'event' || key === 'type') && typeof v === 'string' && Object.hasOwn(DOTTED_KINDS, v)
          ? DOTTED_KINDS[v]
          : respelled(v),
    ]),
  );
};

/** The header a delivery's signature travels in (contract §5), and under `signature-header`. */
const SIGNATURE_HEADERS = { contract: 'X-Connect-Signature', other: 'X-Signature' } as const;

/** The HMAC-SHA256 of `payload` with `secret`, in hex. */
const hmac = (secret: string, payload: string): string =>
  createHmac('sha256', secret).update(payload).digest('hex');

/** A delivery as the sandbox sends it (its body is written by `DeviationSet.deliveryBody`). */
export interface DeliveryParts {
  id: string;
  type: string;
  /** Left out of the body when `null`. */
  createdAt: string | null;
  /** Left out of the body when undefined. */
  hookId?: string | null;
  /** The record, as JSON text in the contract's names. */
  dataJson: string;
  /** The record's own identifier in the contract (`submissionId` for a registration). */
  ownId?: string;
}

/** How a list answer is written: what opens and closes it, and how each record is written. */
export interface ListShape {
  open: string;
  close: string;
  record(json: object): unknown;
}

/** The status `other-statuses` answers a code with, where it differs from the contract's. */
export const OTHER_STATUSES: Readonly<Record<string, number>> = { NOT_FOUND: 403, VALIDATION_ERROR: 422 };

/** How an error answer is written: the contract's JSON body, plain text, or `{ error: { type, message } }`. */
export type ErrorStyle = 'contract' | 'plain' | 'typed';

/** An error body in the `error-type` style: the code in lower case under `type` (`NOT_FOUND` → `not_found`). */
export const typedErrorBody = (api: ApiError): { error: Record<string, unknown> } => {
  const { code, ...rest } = api.toBody().error;
  return { error: { type: String(code).toLowerCase(), ...rest } };
};

/**
 * The switches every sandbox has on: the dialect the contract speaks, none while it is the contract's own.
 * A contract that comes to say snake_case names is `['snake-case']` here, and `wire.ts` writes it too.
 */
export const DIALECT_SWITCHES: readonly Deviation[] = [];

/**
 * Switches that answer the same choice of the dialect otherwise (the list envelope, the error body): a sandbox
 * started with one of them speaks it instead of the dialect's own switch for that choice.
 */
const SAME_CHOICE: ReadonlyArray<readonly Deviation[]> = [
  ['bare-arrays', 'items-envelope', 'has-more', 'nested-envelope'],
  ['plain-errors', 'error-type'],
  ['cursor-paging', 'link-paging'],
];

/**
 * The environment variable that turns switches on for every sandbox of a process, besides `DIALECT_SWITCHES`
 * (`snake-case,link-paging`): a whole test run played against a service of another dialect
 * (docs/developers.md, "The suite in another dialect"). An unknown name there is an error.
 */
export const DIALECT_SWITCHES_ENV = 'SANDBOX_DIALECT_SWITCHES';

/** `DIALECT_SWITCHES`, with those of `DIALECT_SWITCHES_ENV`. */
const dialectSwitches = (): Deviation[] => [
  ...new Set([...DIALECT_SWITCHES, ...parseDeviations(process.env[DIALECT_SWITCHES_ENV] ?? '')]),
];

/** The dialect's switches, less those whose choice one of `deviations` makes otherwise. */
const dialectBesides = (deviations: readonly Deviation[]): Deviation[] =>
  dialectSwitches().filter(
    (own) =>
      !SAME_CHOICE.some(
        (choice) => choice.includes(own) && deviations.some((d) => d !== own && choice.includes(d)),
      ),
  );

/** The switches of one sandbox (the dialect's, and those it was started with). */
export class DeviationSet {
  private readonly on: Set<Deviation>;
  /** The most records a page holds with `cursor-paging` or `link-paging`. */
  private readonly pageRecords: number;

  constructor(deviations: readonly Deviation[] = [], pageRecords = CURSOR_PAGE) {
    this.on = new Set([...dialectBesides(deviations), ...deviations]);
    this.pageRecords = Math.max(1, Math.floor(pageRecords));
  }

  has(deviation: Deviation): boolean {
    return this.on.has(deviation);
  }

  list(): Deviation[] {
    return DEVIATION_NAMES.filter((name) => this.on.has(name));
  }

  /**
   * One record as answered: as the contract writes it, or in snake_case with `snake-case` (where the
   * record's own identifier, named `ownId` in the contract, becomes `id`).
   */
  record(json: object, ownId = 'id'): unknown {
    const spelled = this.spelled(json) as object;
    if (!this.has('snake-case')) return spelled;
    if (ownId === 'id' || !Object.hasOwn(spelled, ownId)) return snakeCased(spelled);
    const { [ownId]: id, ...rest } = spelled as Record<string, unknown>;
    return snakeCased({ id, ...rest });
  }

  /** A JSON value with its statuses and kinds spelled as this sandbox spells them. */
  private spelled(json: unknown): unknown {
    return this.has('other-spellings') ? respelled(json) : json;
  }

  /**
   * A list answer: the contract's envelope (with `extra` members such as paging), a bare array or `items`.
   * `cut`: `limit` left records out (said by `has_more`).
   */
  listBody(data: object[], extra: Record<string, unknown> = {}, cut = false, next?: string | null): unknown {
    const items = data.map((json) => this.record(json));
    const paging = next === undefined || !this.has('cursor-paging') ? {} : { next };
    if (this.has('bare-arrays')) return items;
    if (this.has('has-more')) return { items, ...extra, ...paging, has_more: cut };
    // The one member beside the records names the next page: of a list, or of the catalog (`catalog-cursor`).
    if (this.has('items-envelope'))
      return { items, next: next ?? (typeof extra.next === 'string' ? extra.next : null) };
    if (this.has('nested-envelope')) return { result: { items, ...extra, ...paging } };
    return { data: items, ...extra, ...paging };
  }

  /**
   * The same for a list written piece by piece (the submissions of an event); `next`: the cursor of the next
   * page with `cursor-paging` (null on the last), undefined without.
   */
  listShape(ownId = 'id', cut = false, next?: string | null): ListShape {
    const record = (json: object) => this.record(json, ownId);
    const paging = next === undefined || !this.has('cursor-paging') ? '' : `,"next":${JSON.stringify(next)}`;
    if (this.has('bare-arrays')) return { open: '[', close: ']', record };
    if (this.has('has-more')) return { open: '{"items":[', close: `]${paging},"has_more":${cut}}`, record };
    if (this.has('items-envelope'))
      return { open: '{"items":[', close: `],"next":${JSON.stringify(next ?? null)}}`, record };
    if (this.has('nested-envelope')) return { open: '{"result":{"items":[', close: `]${paging}}}`, record };
    return { open: '{"data":[', close: `]${paging}}`, record };
  }

  /**
   * With `cursor-paging` or `link-paging`, the page of `list` a request's `cursor` asks (at most `limit` and
   * `pageRecords`, `CURSOR_PAGE` unless the sandbox was started with another, records) and the cursor of the next one (null on the last); without, the whole list and no
   * cursor.
   */
  page<L extends { readonly length: number; slice(from: number, to?: number): L }>(
    list: L,
    cursor: unknown,
    limit = this.pageRecords,
  ): { records: L; next?: string | null } {
    if (!this.has('cursor-paging') && !this.has('link-paging')) return { records: list };
    const match = typeof cursor === 'string' ? /^c_(\d{1,9})$/.exec(cursor) : null;
    const from = match ? Number(match[1]) : 0;
    const to = from + Math.min(this.pageRecords, Math.max(1, limit));
    return { records: list.slice(from, to), next: to < list.length ? `c_${to}` : null };
  }

  /**
   * The headers of a list page answered at `url` (the request's own address) whose next page has the cursor
   * `next`: with `link-paging`, `Link: <url with cursor=next>; rel="next"` (none on the last page).
   */
  pageHeaders(url: URL, next: string | null | undefined): Record<string, string> {
    if (!this.has('link-paging') || typeof next !== 'string') return {};
    const target = new URL(url);
    target.searchParams.set('cursor', next);
    return { link: `<${target.toString()}>; rel="next"` };
  }

  /**
   * The public catalog's page a request asks: by `page` (the contract: `page`, `limit` and `total` beside the
   * records), or with `catalog-cursor` from `cursor`, `next` beside the records (null on the last).
   */
  catalogPage<T>(
    all: readonly T[],
    page: number,
    cursor: unknown,
    limit: number,
  ): { records: T[]; members: Record<string, unknown>; cut: boolean } {
    if (!this.has('catalog-cursor')) {
      const records = all.slice((page - 1) * limit, page * limit);
      return { records, members: { page, limit, total: all.length }, cut: page * limit < all.length };
    }
    const match = typeof cursor === 'string' ? /^c_(\d{1,9})$/.exec(cursor) : null;
    const from = match ? Number(match[1]) : 0;
    const to = from + limit;
    return {
      records: all.slice(from, to),
      members: { next: to < all.length ? `c_${to}` : null },
      cut: false,
    };
  }

  /** A request's query in the contract's names (`snake-query`: `event_id` is read as `eventId`). */
  query<Q extends Record<string, unknown>>(query: Q): Q {
    if (!this.has('snake-query')) return query;
    const out: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(query)) if (!/[A-Z]/.test(name)) out[camelName(name)] = value;
    return out as Q;
  }

  /** The header a delivery's signature travels in. */
  signatureHeader(): string {
    return this.has('signature-header') ? SIGNATURE_HEADERS.other : SIGNATURE_HEADERS.contract;
  }

  /** The wire's name of a field the contract names `name` (in an answer that is not a list). */
  wireName(name: string): string {
    return Object.keys(this.answer({ [name]: null }) as object)[0] ?? name;
  }

  /** An answer that is not a list (a subscription, a check-in result), as written on the wire. */
  answer(json: object): unknown {
    const spelled = this.spelled(json);
    return this.has('snake-case') ? snakeCased(spelled) : spelled;
  }

  /**
   * A request body as the contract names its fields and spells its kinds (the service reads snake_case with
   * `snake-case`, dotted kinds with `other-spellings`).
   */
  requestBody(body: unknown): unknown {
    const named = this.has('snake-case') ? renamed(body, camelName) : body;
    if (!this.has('other-spellings') || typeof named !== 'object' || named === null) return named;
    const event = (named as Record<string, unknown>).event;
    const kind = typeof event === 'string' ? CONTRACT_KINDS.get(event) : undefined;
    return kind === undefined ? named : { ...named, event: kind };
  }

  /** A delivery's raw body, in the order the sandbox writes its members. */
  deliveryBody(d: DeliveryParts): string {
    const snake = this.has('snake-case');
    const head = [
      `"id":${JSON.stringify(d.id)}`,
      `"type":${JSON.stringify(this.has('other-spellings') ? (DOTTED_KINDS[d.type] ?? d.type) : d.type)}`,
      ...(d.createdAt === null
        ? []
        : [`"${snake ? 'created_at' : 'createdAt'}":${JSON.stringify(d.createdAt)}`]),
      ...(d.hookId === undefined ? [] : [`"${snake ? 'hook_id' : 'hookId'}":${JSON.stringify(d.hookId)}`]),
    ];
    const ownId = d.ownId ?? (REGISTRATION_KINDS.has(d.type) ? 'submissionId' : 'id');
    const data =
      snake || this.has('other-spellings')
        ? JSON.stringify(this.record(JSON.parse(d.dataJson) as object, ownId))
        : d.dataJson;
    return `{${head.join(',')},"data":${data}}`;
  }

  /** The signature header of a delivery's `body` signed with each of `secrets` at `atMs`. */
  signature(body: string, secrets: readonly string[], atMs: number): string {
    if (!this.has('timestamped-signature')) return secrets.map((s) => `sha256=${hmac(s, body)}`).join(',');
    const t = Math.floor(atMs / 1000);
    return [`t=${t}`, ...secrets.map((s) => `v1=${hmac(s, `${t}.${body}`)}`)].join(',');
  }

  /**
   * A JSON error body as this sandbox writes it: the contract's, or `error-type`'s (`{ error: { type } }`);
   * with `flat-errors`, the error object alone.
   */
  errorBody(api: ApiError): Record<string, unknown> {
    const body = this.errorStyle() === 'typed' ? typedErrorBody(api) : api.toBody();
    return this.has('flat-errors') ? body.error : body;
  }

  /** The status of an error answer: the contract's, or the one `other-statuses` answers its code with. */
  errorStatus(api: ApiError): number {
    return this.has('other-statuses') && Object.hasOwn(OTHER_STATUSES, api.code)
      ? (OTHER_STATUSES[api.code] as number)
      : api.statusCode;
  }

  /** How error answers are written. */
  errorStyle(): ErrorStyle {
    if (this.has('plain-errors')) return 'plain';
    return this.has('error-type') ? 'typed' : 'contract';
  }

  /** The `since` a submissions query is answered from (epoch ms; -Infinity when it is ignored). */
  effectiveSince(sinceMs: number): number {
    if (this.has('since-ignored')) return -Infinity;
    if (this.has('since-seconds')) return Math.floor(sinceMs / 1000) * 1000;
    if (this.has('since-exclusive')) return sinceMs + 1;
    return sinceMs;
  }

  /** The `Date` header of an answer at `nowMs`, or null for none. */
  dateHeader(nowMs: number): string | null {
    if (this.has('no-date')) return null;
    return new Date(nowMs + (this.has('skewed-clock') ? SKEWED_CLOCK_MS : 0)).toUTCString();
  }
}
