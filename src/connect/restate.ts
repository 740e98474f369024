/**
 * A body a service wrote in one dialect (`dialect.ts`), written in another: read with src/connect's own
 * reader (the tables and naming rule of the dialect it was written in), then written with the other's. The
 * conformance kit reads a service whose dialect it found this way, so that the checks of its records
 * (order, `limit`, `since`) still run once the differences are named.
 */
import { DIALECT, type Dialect } from './dialect';
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
  const error = (body: Record<string, unknown>): unknown => {
    if (!isObject(body.error)) return body;
    const { [from.errors.codeMember]: wire, ...rest } = body.error;
    if (typeof wire !== 'string') return body;
    return { ...body, error: { ...rest, [to.errors.codeMember]: to.errors.wire(from.errors.code(wire)) } };
  };
  const list = (body: Record<string, unknown>, noun: RecordNoun): unknown => {
    const items = body[from.list.member];
    if (!Array.isArray(items)) return body;
    const { [from.list.member]: _, ...members } = body;
    const restate = recordOf(noun);
    // The "more records" flag, under the other dialect's name; left out when that dialect has none.
    const more = from.list.more;
    if (more !== null && more in members) {
      if (to.list.more !== null) members[to.list.more] = members[more];
      if (to.list.more !== more) delete members[more];
    }
    return { [to.list.member]: items.map((item) => restate(item)), ...members };
  };
  return (body: unknown, shape: BodyShape): unknown => {
    if (!isObject(body)) return body;
    if (shape.kind === 'error') return error(body);
    return shape.kind === 'list' ? list(body, shape.noun) : recordOf(shape.noun)(body);
  };
};
