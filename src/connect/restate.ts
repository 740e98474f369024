/**
 * A body a service wrote in one dialect (`dialect.ts`), written in another: read with src/connect's own
 * reader (the tables and naming rule of the dialect it was written in), then written with the other's. The
 * conformance kit reads a service whose dialect it found this way, so that the checks of its records
 * (order, `limit`, `since`) still run once the differences are named.
 */
import { DIALECT, type Dialect, listAnswer, memberAt, membersBeside, nextMember, pathOf } from './dialect';
import { type Renamer, renamer } from './wire';
import { type RecordNoun, wireTables } from './wireNames';

/** What a body is: a list of records, one record, or an error. */
export type BodyShape = { kind: 'list' | 'object'; noun: RecordNoun } | { kind: 'error' };

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Restates bodies written in `from` in `to` (the app's dialect unless given). */
export const restater = (from: Dialect, to: Dialect = DIALECT) => {
  const fromTables = wireTables(from);
  const toTables = wireTables(to);
  const records = new Map<RecordNoun, Renamer>();
  const recordOf = (noun: RecordNoun): Renamer => {
    let restate = records.get(noun);
    if (!restate) {
      const read = renamer(fromTables[noun], 'read', from.names);
      const write = renamer(toTables[noun], 'write', to.names);
      restate = (value) => write(read(value));
      records.set(noun, restate);
    }
    return restate;
  };
  /** An error body: its error object (`errors.at`) and code (`errors.codeMember`) where `to` has them. */
  const error = (body: Record<string, unknown>): unknown => {
    const inner = memberAt(body, from.errors.at);
    if (!isObject(inner)) return body;
    const { [from.errors.codeMember]: wire, ...rest } = inner;
    if (typeof wire !== 'string') return body;
    const restated = { ...rest, [to.errors.codeMember]: to.errors.wire(from.errors.code(wire)) };
    return pathOf(to.errors.at).reduceRight<unknown>((value, key) => ({ [key]: value }), restated);
  };
  /** A member of `from`'s lists (the "more records" flag, the next page) under `to`'s path, or left out. */
  const move = (members: Record<string, unknown>, mine: string | undefined, theirs: string | undefined) => {
    if (mine === undefined || !(mine in members)) return;
    if (theirs !== undefined) members[theirs] = members[mine];
    if (theirs !== mine) delete members[mine];
  };
  const list = (body: unknown, noun: RecordNoun): unknown => {
    const items = memberAt(body, from.list.member);
    if (!Array.isArray(items)) return body;
    const members = membersBeside(body, from.list.member);
    const restate = recordOf(noun);
    move(members, from.list.more ?? undefined, to.list.more ?? undefined);
    move(members, nextMember(from.list.next) ?? undefined, nextMember(to.list.next) ?? undefined);
    return listAnswer(
      to.list.member,
      items.map((item) => restate(item)),
      members,
    );
  };
  return (body: unknown, shape: BodyShape): unknown => {
    if (shape.kind === 'list') return list(body, shape.noun);
    if (!isObject(body)) return body;
    if (shape.kind === 'error') return error(body);
    return recordOf(shape.noun)(body);
  };
};
