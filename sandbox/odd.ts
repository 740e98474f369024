// Odd records (docs/connect-contract.md §1): a known optional field may hold a value outside its documented
// form, and a record may even lack its identifier or createdAt. The simulation API marks one record odd;
// every Connect representation of it (lists, webhook data, widgets) then shows the change.

import { validation } from './errors';
import type { Body } from './validate';

/** What makes one record odd: fields replaced by any JSON value, and fields left out. */
export interface OddPatch {
  set: Record<string, unknown>;
  remove: string[];
}

/** The fields of each resource's wire shape that an odd patch may touch. */
const ODD_FIELDS = {
  submission: [
    'submissionId',
    'eventId',
    'status',
    'email',
    'firstName',
    'lastName',
    'answers',
    'ticketType',
    'qrCode',
    'createdAt',
    'approvedAt',
    'checkedInAt',
  ],
  order: [
    'id',
    'companyId',
    'eventId',
    'submissionId',
    'status',
    'currency',
    'totalAmount',
    'items',
    'paymentId',
    'createdAt',
    'updatedAt',
  ],
  event: [
    'id',
    'slug',
    'title',
    'status',
    'startsAt',
    'endsAt',
    'timezone',
    'venueName',
    'url',
    'createdAt',
    'updatedAt',
  ],
} as const;

export type OddResource = keyof typeof ODD_FIELDS;

/** Reads `{ set?: { field: value }, remove?: [field] }`; at least one change, known fields only. */
export function readOddPatch(body: Body, resource: OddResource): OddPatch {
  const known: readonly string[] = ODD_FIELDS[resource];
  const check = (where: string, field: string): void => {
    if (!known.includes(field)) {
      throw validation(where, `${field} is not a field of a ${resource}; use one of ${known.join(', ')}`);
    }
  };
  const set: Record<string, unknown> = {};
  if (body.set !== undefined && body.set !== null) {
    if (typeof body.set !== 'object' || Array.isArray(body.set)) {
      throw validation('set', 'set must be an object of field: value');
    }
    for (const [field, value] of Object.entries(body.set as Body)) {
      check(`set.${field}`, field);
      set[field] = value;
    }
  }
  const remove: string[] = [];
  if (body.remove !== undefined && body.remove !== null) {
    if (!Array.isArray(body.remove) || !body.remove.every((f) => typeof f === 'string')) {
      throw validation('remove', 'remove must be a list of field names');
    }
    for (const field of body.remove as string[]) {
      check('remove', field);
      if (field in set) throw validation('remove', `${field} cannot be both set and removed`);
      remove.push(field);
    }
  }
  if (Object.keys(set).length === 0 && remove.length === 0) {
    throw validation('set', 'Give set (fields with their odd values) or remove (fields to leave out)');
  }
  return { set, remove };
}

/** The wire shape with the odd patch applied (a new object; the record itself is untouched). */
export function applyOdd<T extends object>(json: T, odd: OddPatch | undefined): T {
  if (odd === undefined) return json;
  const out: Record<string, unknown> = { ...json, ...odd.set };
  for (const field of odd.remove) delete out[field];
  return out as T;
}
