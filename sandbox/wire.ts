// Wire JSON for tests and scripts, written the way the sandbox itself writes it: the list envelope, the
// error body, a single answer and a request body, the delivery envelope and its signature header
// (docs/connect-contract.md §1, §2, §4, §5). Tests and scripts build their answers and deliveries here instead
// of writing the wire's shapes by hand, and read the wire through src/connect's reader: a service that speaks
// another dialect is a change of `deviations.ts` (this writer follows it) and of src/connect/dialect.ts.
//
// `wireWriter(deviations)` writes as a sandbox started with those switches answers; the functions exported
// below write as the default sandbox does.

import { ApiError, type ErrorCode } from './errors';
import { type Deviation, DeviationSet, REGISTRATION_KINDS } from './deviations';

/** The header a delivery's signature travels in (contract §5), as the default sandbox sends it. */
export const SIGNATURE_HEADER = new DeviationSet().signatureHeader();

export interface WireDelivery {
  id: string;
  type: string;
  /** ISO 8601; left out of the body when `null`. */
  createdAt: string | null;
  hookId?: string | null;
  /** The record, in the contract's names. */
  data: unknown;
}

/** Members of a list answer besides its records: the catalog's `page`, `limit` and `total`, or any other. */
type Members = Record<string, unknown>;

/** A JSON body: an object, or a list (a bare array). */
export type JsonBody = Record<string, unknown> | unknown[];

export interface WireWriter {
  /** A list answer of `records` (in the contract's names), with members beside them (the catalog's paging). */
  list<T>(records: readonly T[], members?: Members, cut?: boolean): JsonBody;
  /**
   * A list answer's text, its records written one by one (`ownId`: the records' own identifier in the
   * contract, `submissionId` for registrations), as the sandbox writes a list piece by piece.
   */
  listText<T>(records: readonly T[], ownId?: string, cut?: boolean): string;
  /** What a list answer's text opens and closes with, around its records joined by commas. */
  listFrame(cut?: boolean): { open: string; close: string };
  /** An error answer's body for `code` (`NOT_FOUND`). */
  error(
    code: ErrorCode | (string & {}),
    message?: string,
    extra?: Record<string, unknown>,
  ): Record<string, unknown>;
  /** The status the service answers an error of `code` with (404 for `NOT_FOUND`, or the switches' own). */
  errorStatus(code: ErrorCode | (string & {}), contractStatus: number): number;
  /** A single record or answer as the service writes it; `ownId` names a registration's own identifier. */
  object(json: object, ownId?: string): JsonBody;
  /** A request body as the service reads it. */
  requestBody(json: object): JsonBody;
  /** A delivery's raw body. */
  deliveryBody(delivery: WireDelivery): string;
  /** The value of the signature header for `body`, signed with each of `secrets` at `atMs`. */
  signatureOf(body: string, secrets: string | readonly string[], atMs?: number): string;
  /** The headers of a delivery of `body`, as the sandbox sends them. */
  deliveryHeaders(body: string, secrets: string | readonly string[], atMs?: number): Record<string, string>;
  /** The header a delivery's signature travels in (`X-Connect-Signature`, or the switches' own). */
  signatureHeader: string;
}

/** The writer of a sandbox started with `deviations` (besides the default ones). */
export const wireWriter = (deviations: readonly Deviation[] = []): WireWriter => {
  const set = new DeviationSet(deviations);
  const list = (records: readonly unknown[], members?: Members, cut = false) =>
    set.listBody(records as object[], members ?? {}, cut) as JsonBody;
  const signatureOf = (body: string, secrets: string | readonly string[], atMs = Date.now()) =>
    set.signature(body, typeof secrets === 'string' ? [secrets] : secrets, atMs);
  return {
    list,
    listText: (records, ownId = 'id', cut = false) => {
      const shape = set.listShape(ownId, cut);
      return `${shape.open}${records.map((r) => JSON.stringify(shape.record(r as object))).join(',')}${shape.close}`;
    },
    listFrame: (cut = false) => {
      const { open, close } = set.listShape('id', cut);
      return { open, close };
    },
    error: (code, message = 'error', extra = {}) =>
      set.errorBody(new ApiError(0, code as ErrorCode, message, extra)),
    errorStatus: (code, contractStatus) =>
      set.errorStatus(new ApiError(contractStatus, code as ErrorCode, '')),
    object: (json, ownId) => set.record(json, ownId) as JsonBody,
    requestBody: (json) => set.answer(json) as JsonBody,
    deliveryBody: (delivery) =>
      set.deliveryBody({
        id: delivery.id,
        type: delivery.type,
        createdAt: delivery.createdAt,
        hookId: delivery.hookId,
        dataJson: JSON.stringify(delivery.data),
        ownId: REGISTRATION_KINDS.has(delivery.type) ? 'submissionId' : 'id',
      }),
    signatureOf,
    signatureHeader: set.signatureHeader(),
    deliveryHeaders: (body, secrets, atMs) => ({
      'content-type': 'application/json',
      [set.signatureHeader().toLowerCase()]: signatureOf(body, secrets, atMs),
    }),
  };
};

const DEFAULT = wireWriter();

/**
 * A list answer: `{ "data": [...] }`, with `members` beside the records (the catalog's paging); `cut`: the service held
 * more records than it answered (said only by a dialect whose lists say so).
 */
export const wireList = <T>(
  records: readonly T[],
  members?: Members,
  cut?: boolean,
): { data: T[] } & Members => DEFAULT.list(records, members, cut) as { data: T[] } & Members;

/**
 * A list answer's text, as the sandbox writes it piece by piece: `{"data":[…]}`, each record written as the
 * service writes it (`ownId`: the records' own identifier in the contract, `submissionId` for registrations).
 */
export const wireListText = <T>(records: readonly T[], ownId?: string, cut?: boolean): string =>
  DEFAULT.listText(records, ownId, cut);

/**
 * What a list answer's text opens and closes with (`{"data":[` and `]}`), around its records' JSON joined by
 * commas: for a body written or streamed piece by piece. Members of the envelope go before `close`'s last `}`.
 */
export const wireListFrame = (cut?: boolean): { open: string; close: string } => DEFAULT.listFrame(cut);

/** An error answer's body, as the sandbox answers it: `{ "error": { "code", "message", … } }`. */
export const wireError = (
  code: ErrorCode | (string & {}),
  message = 'error',
  extra: Record<string, unknown> = {},
): { error: Record<string, unknown> } =>
  DEFAULT.error(code, message, extra) as { error: Record<string, unknown> };

/** A single record or answer (a floor plan, a check-in result), as the sandbox answers it. */
export const wireObject = (json: object, ownId?: string): Record<string, unknown> =>
  DEFAULT.object(json, ownId) as Record<string, unknown>;

/** A delivery's raw body, in the order the sandbox writes its members. */
export const wireDeliveryBody = (delivery: WireDelivery): string => DEFAULT.deliveryBody(delivery);

/** The value of the signature header for `body`, signed with each of `secrets` (several during a rotation). */
export const signatureOf = (body: string, secrets: string | readonly string[], atMs?: number): string =>
  DEFAULT.signatureOf(body, secrets, atMs);

/** The headers of a delivery of `body`, as the sandbox sends them. */
export const deliveryHeaders = (
  body: string,
  secrets: string | readonly string[],
  atMs?: number,
): Record<string, string> => DEFAULT.deliveryHeaders(body, secrets, atMs);

/** A request body in the names the service reads (what a test expects the app to send). */
export const wireRequestBody = (json: object): Record<string, unknown> =>
  DEFAULT.requestBody(json) as Record<string, unknown>;
