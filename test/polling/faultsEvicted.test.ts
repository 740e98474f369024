/**
 * The cache is an optimisation, even through a rush with several Zaps: whatever one key of the stream
 * loses, every Zap still gets every registration; what the cache lost is read again from the service. Here each kind of key is evicted.
 */
import { KINDS, playDamaged } from './faultPlay';

describe('three Zaps through a rush, one key of the stream evicted every few polls', () => {
  it.each(KINDS.map(([name, kind]) => ({ name, kind })))(
    '$name evicted: every Zap gets every registration',
    async ({ kind }) => playDamaged(kind, 'evicted'),
  );
});
