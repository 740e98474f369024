/**
 * A place in a stream: a server `createdAt` (ms) and an id for ties (`''` is before every id), and the
 * schema it is read back with from the cache.
 */
import * as z from 'zod';
import { lazy } from '../lazy';

export interface Position {
  ms: number;
  id: string;
}

export const PositionSchema = lazy(() => z.object({ ms: z.number().finite(), id: z.string() }));

/** Orders two positions by time, then id. */
export const comparePositions = (a: Position, b: Position): number =>
  a.ms - b.ms || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

export const earlier = (a: Position, b: Position): Position => (comparePositions(a, b) <= 0 ? a : b);
export const later = (a: Position, b: Position): Position => (comparePositions(a, b) >= 0 ? a : b);

/** The position just before every record created at `ms`. */
export const at = (ms: number): Position => ({ ms, id: '' });
