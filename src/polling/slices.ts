/**
 * The kept records of a stream, when they are more than an answer can carry again, are returned in slices
 * (ids hashed), one slice first each `holdMs` (see window.ts); the kept entry lives long enough for every
 * slice (kept.ts).
 */
/** Into how many slices (a power of 2) kept records of `total` bytes are cut to fit in `room` each. */
export const slicesOf = (total: number, room: number): number => {
  let n = 1;
  while (n < 1024 && total > n * Math.max(room, 1) * 0.9) n *= 2;
  return n;
};
