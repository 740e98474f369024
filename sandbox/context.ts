// What the routes share: the state, the delivery queue, faults, idempotency, timers.

import type { DeliveryQueue } from './delivery';
import { DeviationSet } from './deviations';
import type { FaultRegistry } from './faults';
import type { IdempotencyStore } from './idempotency';
import { Prng } from './prng';
import { RequestCounter } from './requests';
import type { SandboxState, Tenant } from './state';

declare module 'fastify' {
  interface FastifyRequest {
    /** The tenant of a valid X-API-KEY (routes with config.auth). */
    tenant: Tenant | null;
    /** The raw JSON body text, as received. */
    rawBody: string | null;
    /** Set by a "slow" fault: how long to hold this request. */
    faultDelayMs: number;
  }
  interface FastifyContextConfig {
    /** Requires X-API-KEY. */
    auth?: boolean;
    /** A Connect route: fault injection applies. */
    connect?: boolean;
    /** Keyless Connect route (catalog, widgets): its faults are global. */
    keyless?: boolean;
    /** The handler applies a "slow" fault itself (check-in: inside the idempotency reservation). */
    delayInHandler?: boolean;
  }
}

/** Timers that must not outlive the sandbox: sleeping requests are woken up on close. */
export class Sleeper {
  private readonly sleeping = new Map<NodeJS.Timeout, () => void>();

  sleep(ms: number): Promise<void> {
    if (ms <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const t = setTimeout(() => {
        this.sleeping.delete(t);
        resolve();
      }, ms);
      this.sleeping.set(t, resolve);
    });
  }

  wakeAll(): void {
    for (const [t, resolve] of this.sleeping) {
      clearTimeout(t);
      resolve();
    }
    this.sleeping.clear();
  }
}

export class SandboxContext {
  /** Only for list order when shuffle is on. */
  readonly shuffleRng = new Prng(0x51ff1e);
  /** Keyed Connect requests per tenant, route and path (`GET /_sandbox/requests`). */
  readonly requests = new RequestCounter();

  constructor(
    readonly state: SandboxState,
    readonly delivery: DeliveryQueue,
    readonly faults: FaultRegistry,
    readonly idempotency: IdempotencyStore,
    readonly sleeper: Sleeper,
    /** How long a rotated-out secret still signs beside the new one, unless a rotation says otherwise. */
    readonly rotationOverlapMs: number,
    /** Deviation switches (`deviations.ts`): answers that depart from the contract on purpose. */
    readonly deviations: DeviationSet = new DeviationSet(),
  ) {}

  /** List order is not guaranteed by the contract: with shuffle on, the sandbox makes that visible. */
  order<T>(items: T[]): T[] {
    return this.state.shuffle ? this.shuffleRng.shuffle(items) : items;
  }

  /** The same for a list of positions (large lists are ordered by index, not copied). */
  orderIndexes(indexes: Uint32Array): Uint32Array {
    if (!this.state.shuffle) return indexes;
    for (let i = indexes.length - 1; i > 0; i--) {
      const j = this.shuffleRng.int(i + 1);
      const t = indexes[i] as number;
      indexes[i] = indexes[j] as number;
      indexes[j] = t;
    }
    return indexes;
  }
}
