/** What an answer of the Connect API is, by its address and status: a list, one record or an error. */
import type { BodyShape } from '../../src/connect/testing';

const PATTERNS: Array<[RegExp, BodyShape]> = [
  [/^\/api\/v1\/integrations\/zapier\/events$/, { kind: 'list', noun: 'event' }],
  [/^\/api\/v1\/integrations\/zapier\/submissions$/, { kind: 'list', noun: 'submission' }],
  [/^\/api\/v1\/integrations\/zapier\/orders$/, { kind: 'list', noun: 'order' }],
  [/^\/api\/v1\/public\/events$/, { kind: 'list', noun: 'event' }],
  [/^\/connect\/v1\/events\/[^/]+\/floor-plans$/, { kind: 'list', noun: 'floorPlan' }],
  [/^\/connect\/v1\/events\/[^/]+\/floor-plans\/[^/]+$/, { kind: 'object', noun: 'floorPlan' }],
  [/^\/widgets\/event\/[^/]+\/agenda$/, { kind: 'object', noun: 'agenda' }],
  [/^\/widgets\/event\/[^/]+$/, { kind: 'object', noun: 'eventWidget' }],
  [/^\/api\/v1\/integrations\/zapier\/hooks(\/[^/]+)?$/, { kind: 'object', noun: 'hook' }],
  [/^\/api\/v1\/checkin$/, { kind: 'object', noun: 'checkInResult' }],
];

/** The shape of the answer to `path` (with or without its query) with `status`. */
export const shapeOfPath = (path: string, status: number): BodyShape => {
  if (status < 200 || status > 299) return { kind: 'error' };
  const bare = path.split('?')[0] ?? path;
  return PATTERNS.find(([pattern]) => pattern.test(bare))?.[1] ?? { kind: 'error' };
};
