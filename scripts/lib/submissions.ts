/**
 * The submissions endpoint read whole, for tests and benchmarks that compare what an operation keeps with
 * the whole answer: every usable record, newest first, one per id. The app itself never holds a whole list
 * (each operation keeps what it needs as the answer streams in).
 */
import type { Bundle, ZObject } from 'zapier-platform-core';
import {
  type Submission,
  type SubmissionKey,
  type SubmissionQuery,
  type SubmissionRead,
  type Visit,
  collect,
  newestFirst,
  readSubmissionKeys,
  readSubmissions,
} from '../../src/connect';

export interface SubmissionPage<S = Submission> {
  submissions: S[];
  /** Bytes received, for transfer accounting. */
  bytes: number;
  /** The service's clock when it answered (its `Date` header, to the second), when it sent one. */
  serverTime: number | null;
}

type B = Pick<Bundle, 'authData'>;

const gathered =
  <R extends { submissionId: string; createdAt: string }>(
    read: (z: ZObject, bundle: B, params: SubmissionQuery, visit: Visit<R>) => Promise<SubmissionRead>,
  ) =>
  async (z: ZObject, bundle: B, params: SubmissionQuery): Promise<SubmissionPage<R>> => {
    const { items, visit } = collect<R>();
    const result = await read(z, bundle, params, visit);
    return {
      submissions: newestFirst(items, (s) => s.submissionId),
      bytes: result.bytes,
      serverTime: result.serverTime,
    };
  };

/** Every usable submission of the answer, newest first. */
export const listSubmissions = gathered<Submission>(readSubmissions);

/** The same list with only `SubmissionKey`'s fields kept, newest first. */
export const listSubmissionKeys = gathered<SubmissionKey>(readSubmissionKeys);
