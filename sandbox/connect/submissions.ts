// Submissions of one event with createdAt >= since (visible ones only), newest first unless shuffled.
// The answer is streamed in slices of records, so an event of 200,000 registrations never exists as one
// 150 MB string in the sandbox.

import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context';
import { DeviationSet, type ListShape } from '../deviations';
import { KEYED, addressOf, query, tenantOf } from '../request';
import type { SandboxState } from '../state';
import type { SubmissionRecord } from '../types';
import { readOptionalLimit, requireQueryString, requireQueryTimestamp } from '../validate';
import { ROUTES } from './routes';

/** Records serialised per chunk of the streamed answer. */
const SLICE = 500;

const CONTRACT_SHAPE = new DeviationSet().listShape('submissionId');

/**
 * `{"data":[…]}` for these records in this order (or the list `shape` of a deviation switch), as a sequence
 * of strings of about SLICE records.
 */
export function* submissionsBody(
  state: SandboxState,
  list: readonly SubmissionRecord[],
  order: Uint32Array,
  shape: ListShape = CONTRACT_SHAPE,
): Generator<string> {
  yield shape.open;
  for (let start = 0; start < order.length; start += SLICE) {
    const end = Math.min(order.length, start + SLICE);
    const parts = new Array<string>(end - start);
    for (let i = start; i < end; i++) {
      const json = state.submissionJson(list[order[i] as number] as SubmissionRecord);
      parts[i - start] = JSON.stringify(shape === CONTRACT_SHAPE ? json : shape.record(json));
    }
    yield (start === 0 ? '' : ',') + parts.join(',');
  }
  yield shape.close;
}

export function registerSubmissionRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  const { state } = ctx;

  app.get(ROUTES.submissions.pattern, { config: KEYED }, async (req, reply) => {
    const tenant = tenantOf(req);
    const q = query(req);
    const eventId = requireQueryString(q, 'eventId');
    const since = requireQueryTimestamp(q, 'since');
    const limit = readOptionalLimit(q, 100, ctx.deviations.has('limit-rejected'));
    state.event(tenant, eventId);
    let list = state.submissionsSince(tenant, eventId, ctx.deviations.effectiveSince(since));
    const cut = limit !== undefined && list.length > limit;
    if (cut) list = list.slice(list.length - limit);
    // Newest first: the list is oldest first, so the order reads it backwards.
    const order = new Uint32Array(list.length);
    for (let i = 0; i < list.length; i++) order[i] = list.length - 1 - i;
    // A page is cut from the list in its order, then shuffled (`shuffle`): pages never overlap.
    const page = ctx.deviations.page(order, q.cursor);
    ctx.orderIndexes(page.records);
    reply
      .type('application/json; charset=utf-8')
      .headers(ctx.deviations.pageHeaders(addressOf(req), page.next));
    const shape = ctx.deviations.listShape('submissionId', cut, page.next);
    return reply.send(Readable.from(submissionsBody(state, list, page.records, shape)));
  });
}
