/**
 * The nock unit tests in another dialect (docs/developers.md, "The suite in another dialect"). A unit test writes
 * the wire as the contract spells it: the query names and request bodies it expects, and the lists, records, error
 * bodies and statuses it answers, by hand or through sandbox/wire.ts (whose writers already follow the run's
 * switches). `speakSwitches(switches)` makes every nock interceptor of a test file speak a sandbox with those
 * switches instead, with the sandbox's own transforms (`DeviationSet` of sandbox/deviations.ts), in one place:
 *
 * - an answer's list (`{ "data": [ … ], …members }` on a list's path), record (a single JSON answer) and error body
 *   (`{ "error": { "code", … } }`) are written as that sandbox writes them, and an error's status is the one it
 *   answers that code with (a 404 `NOT_FOUND` is a 403 with `other-statuses`);
 * - the query an interceptor expects, and the request body, are compared with the request as that sandbox reads it
 *   (`event_id` is `eventId` with `snake-query`; a subscription's `secret` the app makes with `client-secret` is
 *   left out, the contract's request has none); a reply function is given the request so read, and its answer is
 *   written as above.
 *
 * What is already the dialect's is left as it is (every transform here is idempotent: a list without `data`, a
 * snake_case name, an error body without `error.code`), so a test may use sandbox/wire.ts or write the contract by
 * hand. Bodies served as streams are not read here: a test that streams writes its frame with `wireListFrame` or
 * `wireListText`. JSON text is translated only where it changes, so text a test wrote byte by byte (escapes, a cut
 * answer) reaches the app as written.
 */
import { isDeepStrictEqual } from 'node:util';
import { type Deviation, DeviationSet } from '../../sandbox/deviations';
import { ApiError, type ErrorCode } from '../../sandbox/errors';
import { paths } from '../../src/connect/paths';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** What a test's answer is on its path: a list (and its records' own identifier), or a single answer. */
interface Route {
  list: boolean;
  /** The public catalog (paged by number in the contract). */
  catalog: boolean;
  ownId: string;
  subscribe: boolean;
}

const pathPattern = (path: string, ...params: string[]): RegExp => {
  let source = path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  for (const param of params) source = source.replace(param, '[^/?]+');
  return new RegExp(`^${source}$`);
};

/** The list endpoints, by the app's own paths (src/connect/paths.ts). */
const LIST_PATHS: ReadonlyArray<[RegExp, string]> = [
  [pathPattern(paths.events()), 'id'],
  [pathPattern(paths.orders()), 'id'],
  [pathPattern(paths.publicEvents()), 'id'],
  [pathPattern(paths.floorPlans('EVENT'), 'EVENT'), 'id'],
  [pathPattern(paths.submissions()), 'submissionId'],
];
const HOOKS_PATH = pathPattern(paths.hooks());
const CATALOG_PATH = pathPattern(paths.publicEvents());

const routeOf = (method: string, path: unknown): Route => {
  const pathname = typeof path === 'string' ? path.split('?')[0] : '';
  const list = method === 'GET' ? LIST_PATHS.find(([pattern]) => pattern.test(pathname ?? '')) : undefined;
  return {
    list: list !== undefined,
    catalog: method === 'GET' && CATALOG_PATH.test(pathname ?? ''),
    ownId: list?.[1] ?? 'id',
    subscribe: method === 'POST' && HOOKS_PATH.test(pathname ?? ''),
  };
};

/** The contract's status of an error code (§2), read lazily: src/connect loads after the dialect is taught. */
const contractStatusOf = (code: string): number | undefined =>
  jest
    .requireActual<typeof import('../../src/connect/errors')>('../../src/connect/errors')
    .contractStatusOf(code);

/** The code an error body carries, as the contract spells it, whether the body is the contract's or a dialect's. */
const codeOf = (body: unknown): string | undefined => {
  for (const object of [isObject(body) ? body.error : undefined, body]) {
    if (!isObject(object)) continue;
    if (typeof object.code === 'string') return object.code;
    if (typeof object.type === 'string') return object.type.toUpperCase();
  }
  return undefined;
};

/** A JSON body given as text or bytes, parsed; undefined when it is none. */
const parsedText = (body: unknown): unknown => {
  if (typeof body !== 'string' && !Buffer.isBuffer(body)) return undefined;
  const text = body.toString();
  if (!/^\s*[[{]/.test(text)) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/** The translation of one sandbox's switches, for nock's interceptors. */
export const wireSpeaker = (switches: readonly Deviation[]) => {
  const set = new DeviationSet(switches);

  /** A JSON answer of `status` on `route` (parsed), as the sandbox writes it. */
  const answerJson = (route: Route, status: number, body: unknown): unknown => {
    if (status >= 400) {
      if (!isObject(body) || !isObject(body.error) || typeof body.error.code !== 'string') return body;
      const { code, message, ...extra } = body.error;
      const written = set.errorBody(new ApiError(status, code as ErrorCode, String(message ?? ''), extra));
      if (message === undefined) delete (isObject(written.error) ? written.error : written).message;
      return written;
    }
    if (status >= 300) return body;
    if (route.list) {
      if (!isObject(body) || !Array.isArray(body.data)) return body;
      const { data, ...members } = body;
      const records = data.map((r: unknown) => (isObject(r) ? set.record(r, route.ownId) : r));
      return set.listBody(
        records as object[],
        route.catalog ? catalogMembers(members, data.length) : members,
      );
    }
    return isObject(body) ? set.record(body) : body;
  };

  /** The status an error answer of `status` is answered with (the sandbox's for its code). */
  const statusOf = (status: number, body: unknown): number => {
    if (status < 400) return status;
    const code = codeOf(isObject(body) || Array.isArray(body) ? body : parsedText(body));
    if (code === undefined || contractStatusOf(code) !== status) return status;
    return set.errorStatus(new ApiError(status, code as ErrorCode, ''));
  };

  /** An answer a test wrote (an object, JSON text or bytes, or anything else), as the sandbox writes it. */
  const answer = (route: Route, status: number, body: unknown): [number, unknown] => {
    if (isStreamLike(body)) return [status, body];
    const said = statusOf(status, body);
    if (!Buffer.isBuffer(body) && (isObject(body) || Array.isArray(body))) {
      return [said, answerJson(route, status, body)];
    }
    const parsed = parsedText(body);
    if (parsed === undefined) return [said, body];
    const written = answerJson(route, status, parsed);
    if (isDeepStrictEqual(written, parsed)) return [said, body];
    const text = JSON.stringify(written);
    return [said, Buffer.isBuffer(body) ? Buffer.from(text) : text];
  };

  const catalogCursor = set.has('catalog-cursor');

  /**
   * The members beside a catalog page's `count` events: with `catalog-cursor`, the contract's `page`, `limit` and
   * `total` are the cursor of the next page (`next`, `c_<events before it>`; null on the last), as the sandbox's.
   */
  const catalogMembers = (members: Json, count: number): Json => {
    if (!catalogCursor) return members;
    const { page, limit, total, ...rest } = members;
    if (typeof page !== 'number' || typeof limit !== 'number') return { ...rest, next: null };
    const to = page * limit;
    const more = typeof total === 'number' ? to < total : count >= limit;
    return { ...rest, next: more ? `c_${to}` : null };
  };

  /**
   * A request's query as the sandbox reads it: in the contract's names; on the catalog with `catalog-cursor`, the
   * cursor as the page number it stands for (`cursor=c_200&limit=100` is `page=3&limit=100`).
   */
  const query = (q: Json, route?: Route): Json => {
    const read = set.query(q);
    if (!catalogCursor || !route?.catalog) return read;
    const { cursor, ...rest } = read;
    const limit = Number(rest.limit) || 20;
    const from = typeof cursor === 'string' ? Number(/^c_(\d+)$/.exec(cursor)?.[1] ?? 0) : 0;
    return { ...rest, page: String(Math.floor(from / limit) + 1) };
  };
  const readsQuery = set.has('snake-query') || catalogCursor;

  /** A request's JSON body as the sandbox reads it (the contract's names and kinds, no secret the app made). */
  const requestBody = (route: Route, body: unknown): unknown => {
    const read = set.requestBody(body);
    if (!route.subscribe || !set.has('client-secret') || !isObject(read)) return read;
    const { secret: _made, ...rest } = read;
    return rest;
  };
  const readsBodies = ['snake-case', 'other-spellings', 'client-secret'].some((s) => set.has(s as Deviation));

  /** A request's path and query (`/x?event_id=1`), with the query as the sandbox reads it. */
  const requestPath = (path: string): string => {
    const at = path.indexOf('?');
    if (!readsQuery || at < 0) return path;
    const params = Object.fromEntries(new URLSearchParams(path.slice(at + 1)));
    const route = routeOf('GET', path.slice(0, at));
    const read = new URLSearchParams(query(params, route) as Record<string, string>).toString();
    return read === '' ? path.slice(0, at) : `${path.slice(0, at)}?${read}`;
  };

  return { answer, query, readsQuery, requestBody, readsBodies, requestPath, routeOf };
};

type Speaker = ReturnType<typeof wireSpeaker>;

// nock's own classes (the instances a test file's `import nock from 'nock'` uses: one module registry per file).
interface InterceptorLike {
  method: string;
  path: unknown;
  queries: unknown;
  reply(...args: unknown[]): unknown;
  query(queries: unknown): InterceptorLike;
}
type ReplyFunction = (this: InterceptorLike, uri: string, body: unknown, callback?: unknown) => unknown;

const nockModule = <T extends object>(path: string): T => jest.requireActual<T>(`nock/lib/${path}`);

/** `query`: what an interceptor expects is compared with the request's query as the sandbox reads it. */
const speakQueries = (speaker: Speaker, proto: InterceptorLike) => {
  const original = proto.query;
  const { dataEqual } = nockModule<{ dataEqual(a: unknown, b: unknown): boolean }>('common');
  proto.query = function (this: InterceptorLike, queries: unknown) {
    if (!speaker.readsQuery || queries === true) return original.call(this, queries);
    const route = speaker.routeOf(this.method, this.path);
    if (typeof queries === 'function') {
      return original.call(this, (q: Json) => (queries as (q: Json) => boolean)(speaker.query(q, route)));
    }
    original.call(this, queries);
    const expected = this.queries;
    this.queries = (q: Json) => dataEqual(expected, speaker.query(q, route));
    return this;
  };
};

/** A reply function given the request as the sandbox reads it, its answer written as the sandbox writes it. */
const spokenFunction = (
  speaker: Speaker,
  fn: ReplyFunction,
  written: (route: Route, result: unknown) => unknown,
): ReplyFunction => {
  const call = function (this: InterceptorLike, uri: string, body: unknown, callback?: unknown): unknown {
    const route = speaker.routeOf(this.method, this.path);
    const args = [speaker.requestPath(uri), speaker.readsBodies ? speaker.requestBody(route, body) : body];
    if (fn.length !== 3) {
      const result = fn.apply(this, args as [string, unknown]);
      return result instanceof Promise
        ? result.then((r: unknown) => written(route, r))
        : written(route, result);
    }
    const done = callback as (error: unknown, result?: unknown) => void;
    return fn.call(this, args[0] as string, args[1], (error: unknown, result?: unknown) =>
      done(error, error ? result : written(route, result)),
    );
  };
  // nock tells a callback-style function by its length.
  return fn.length === 3
    ? function (this: InterceptorLike, uri: string, body: unknown, callback: unknown) {
        return call.call(this, uri, body, callback);
      }
    : function (this: InterceptorLike, uri: string, body: unknown) {
        return call.call(this, uri, body);
      };
};

/** `reply`: the answer a test wrote, written as the sandbox writes it (its status too, for an error). */
const speakReplies = (speaker: Speaker, proto: InterceptorLike) => {
  const original = proto.reply;
  proto.reply = function (this: InterceptorLike, ...args: unknown[]) {
    const [status, body, headers] = args;
    const route = speaker.routeOf(this.method, this.path);
    if (typeof status === 'function') {
      return original.call(
        this,
        spokenFunction(speaker, status as ReplyFunction, (r, result) => {
          if (!Array.isArray(result)) return result;
          const [s, b, ...rest] = result as [number, unknown, ...unknown[]];
          return [...speaker.answer(r, s, b), ...rest];
        }),
      );
    }
    const code = typeof status === 'number' ? status : 200;
    if (typeof body === 'function') {
      // The status of an error is known only once the body is: the whole reply is one function.
      const fn = spokenFunction(speaker, body as ReplyFunction, (r, result) =>
        isStreamLike(result) ? [code, result, headers] : [...speaker.answer(r, code, result), headers],
      );
      return original.call(this, fn);
    }
    const [said, written] = speaker.answer(route, code, body);
    return original.call(this, said, written, ...(args.length > 2 ? [headers] : []));
  };
};

const isStreamLike = (value: unknown): boolean =>
  isObject(value) && typeof (value as { pipe?: unknown }).pipe === 'function';

/** `intercept`: a request body an interceptor expects is compared with the body as the sandbox reads it. */
const speakRequestBodies = (speaker: Speaker) => {
  const { Scope } = nockModule<{ Scope: { prototype: { intercept(...args: unknown[]): unknown } } }>('scope');
  const matchBody = nockModule<(options: unknown, spec: unknown, body: unknown) => boolean>('match_body');
  const original = Scope.prototype.intercept;
  Scope.prototype.intercept = function (
    this: unknown,
    uri: unknown,
    method: unknown,
    spec: unknown,
    ...rest
  ) {
    if (!speaker.readsBodies || spec === undefined || spec instanceof RegExp || typeof spec === 'string') {
      return original.call(this, uri, method, spec, ...rest);
    }
    const route = speaker.routeOf(String(method).toUpperCase(), uri);
    const matcher = function (this: unknown, body: unknown) {
      if (typeof body === 'string') return matchBody(this, spec, body);
      const read = speaker.requestBody(route, body);
      if (typeof spec === 'function') return (spec as (body: unknown) => boolean).call(this, read);
      // A body written through sandbox/wire.ts (`wireRequestBody`) is the dialect's already: read it too.
      return matchBody(this, speaker.requestBody(route, spec), JSON.stringify(read));
    };
    return original.call(this, uri, method, matcher, ...rest);
  };
};

/**
 * Makes the nock of this test file speak a sandbox with `switches` on, wherever a test writes the contract's wire:
 * its interceptors' queries, request bodies and replies (see the top of this file).
 */
export const speakSwitches = (switches: readonly Deviation[]): void => {
  const speaker = wireSpeaker(switches);
  const Interceptor = nockModule<{ prototype: InterceptorLike }>('interceptor');
  speakQueries(speaker, Interceptor.prototype);
  speakReplies(speaker, Interceptor.prototype);
  speakRequestBodies(speaker);
};

/**
 * The query of a request to `url` as the sandbox of this run reads it: in the contract's names (`eventId`, even
 * when the run's switches send `event_id`). For a test that answers requests itself, without nock.
 */
export const queryAsRead = (url: string): URLSearchParams =>
  new URLSearchParams(
    new DeviationSet().query(Object.fromEntries(new URL(url).searchParams)) as Record<string, string>,
  );

/**
 * Whether the lists of this run hold members beside their records (`page`, `limit` and `total` of the catalog, or
 * any other): not when a list is a bare array, nor in `items-envelope`'s `{ items, next }`. The catalog is paged
 * by number from those members; a dialect without them cannot say how far the catalog goes.
 */
export const listsHoldMembers = (): boolean =>
  JSON.stringify(new DeviationSet().listBody([], { total: 1 })).includes('"total":1');

/**
 * Whether the public catalog of this run is paged by number (`page`), as the contract's: not with `catalog-cursor`,
 * where it continues by a cursor from its first page (a test of its paging by number is not played there).
 */
export const catalogByNumber = (): boolean => !new DeviationSet().has('catalog-cursor');

/** Whether the public catalog of this run says its `page`, `limit` and `total` beside its events. */
export const catalogSaysTotal = (): boolean => listsHoldMembers() && catalogByNumber();

/**
 * A list answer's text with more members of its envelope (JSON text, `"total":2`) before it closes; the text as
 * it is when the list is the answer itself (a bare array holds no members).
 */
export const withEnvelopeMembers = (list: string, members: string): string =>
  list.endsWith('}') ? `${list.slice(0, -1)},${members}}` : list;
