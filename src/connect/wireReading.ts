/**
 * Wire bodies read in the app's terms, for tests and scripts (through `testing.ts`, never the app): a list
 * answer's records in whatever member the dialect's lists hold them, a record under the app's names, an error
 * body's code in the contract's spelling, a delivery's envelope and record. They read as src/connect reads,
 * so a test or a script states what it expects in the app's terms and holds under any dialect (`dialect.ts`).
 */
import type { z } from 'zod';
import { DIALECT, memberAt, membersBeside, queryName } from './dialect';
import { followPages } from './continuation';
import { readDelivery } from './delivery';
import { AnyList, ErrorBody, type HookKind, KIND_RECORDS } from './schemas';
import { readerOf, renamer } from './wire';
import { type RecordNoun, WIRE_TABLES } from './wireNames';

export type { RecordNoun };

/** A wire record of any shape under the app's names (`noun`'s table, the dialect's rule for the rest). */
export type AppRecord = Record<string, unknown>;

/** The records of a list answer (parsed JSON) as the wire holds them; throws when it is not a list. */
export const wireRecordsOf = (body: unknown): unknown[] => AnyList.parse(body).data;

/**
 * The members of a list answer (parsed JSON) besides its records: the catalog's paging, the dialect's "more
 * records" flag; `{}` when it is not an object.
 */
export const listMembersOf = (body: unknown): Record<string, unknown> =>
  membersBeside(body, DIALECT.list.member);

/** Whether a list answer says it was cut (the dialect's `more` member), `false` when it cannot say. */
export const listWasCut = (body: unknown): boolean =>
  DIALECT.list.more !== null && memberAt(body, DIALECT.list.more) === true;

/** A wire object (parsed JSON) under the app's names: `noun`'s table, the dialect's rule for other fields. */
export const inAppNames = (noun: RecordNoun, value: unknown): AppRecord =>
  renamer(WIRE_TABLES[noun], 'read')(value) as AppRecord;

/** The records of a list answer under the app's names, unchecked (odd records stay as they are). */
export const recordsOf = <T = AppRecord>(noun: RecordNoun, body: unknown): T[] =>
  wireRecordsOf(body).map((record) => inAppNames(noun, record) as T);

/** One record (parsed JSON) as the app reads it: renamed by `schema`'s table, then checked by it. */
export const readRecord = <S extends z.ZodType>(schema: S, body: unknown): z.infer<S> =>
  schema.parse(readerOf(schema)(body));

/** The records of a list answer as the app reads them, each checked by `schema` (throws on an odd one). */
export const readRecords = <S extends z.ZodType>(schema: S, body: unknown): Array<z.infer<S>> =>
  wireRecordsOf(body).map((record) => readRecord(schema, record));

/** An error answer's `error` (parsed JSON) with its code in the contract's spelling (`NOT_FOUND`). */
export const errorOf = (body: unknown): ErrorBody['error'] => ErrorBody.parse(body).error;

/** The noun of the record a delivery of kind `type` carries (`FORM_SUBMISSION` → `submission`). */
export const nounOfKind = (type: string): RecordNoun =>
  Object.hasOwn(KIND_RECORDS, type) ? KIND_RECORDS[type as HookKind] : 'event';

/** A delivery read as the app reads it: its envelope, and its record under the names of its kind's noun. */
export interface ReadDelivery {
  id: string;
  type: string;
  createdAt: string | null;
  hookId: string | null;
  data: AppRecord;
}

/** A delivery's raw body read as the app reads it; throws when it is not a delivery. */
export const deliveryOf = (raw: string, noun?: RecordNoun): ReadDelivery => {
  const { content } = readDelivery({ content: raw });
  if (!content.ok) throw new Error(`not a delivery: ${raw.slice(0, 200)}`);
  const { id, type, createdAt, hookId, data } = content.delivery;
  const record = inAppNames(noun ?? nounOfKind(type), data);
  return { id, type, createdAt: createdAt ?? null, hookId: hookId ?? null, data: record };
};

/** One page of a list as a test or a script fetched it: its parsed body, and its `Link` header (or null). */
export interface PageAnswer {
  body: unknown;
  link: string | null;
}

/** Where `wholeListOf` resolves a list's own addresses (paths), so that they come back as paths. */
const PATHS_AT = 'http://list.invalid';

/**
 * Every record of a list (as the wire holds them), page after page, asked and followed as the app asks and
 * follows it: the query under the dialect's names, each next page its cursor or link (the dialect's `next`,
 * followed by the app's own `followPages`). `get` fetches an address (a path with its query, or a link a page
 * named, absolute or a path) and answers that page. A page named twice ends the list.
 */
export const wholeListOf = async (
  get: (address: string) => Promise<PageAnswer>,
  path: string,
  query: Readonly<Record<string, string | number>>,
): Promise<unknown[]> => {
  const params = new URLSearchParams(
    Object.entries(query).map(([name, value]): [string, string] => [queryName(DIALECT, name), String(value)]),
  );
  const records: unknown[] = [];
  const first = new URL(`${path}?${params.toString()}`, PATHS_AT).toString();
  await followPages(DIALECT.list.next, first, async (address) => {
    const page = await get(address.startsWith(`${PATHS_AT}/`) ? address.slice(PATHS_AT.length) : address);
    records.push(...wireRecordsOf(page.body));
    return { signs: { member: (at) => memberAt(page.body, at), link: page.link } };
  });
  return records;
};
