/**
 * Webhook deliveries for tests: bodies as the service writes them (contract §5), signed, and handed to a
 * hook trigger's `perform` in Zapier's `rawRequest` form (the last two are shared with the scripts, which
 * receive real deliveries: scripts/lib/hookRequest.ts).
 */
import { randomUUID } from 'node:crypto';
import { wireDeliveryBody } from '../../sandbox/wire';
import type { Bundle, ZObject } from 'zapier-platform-core';
import { sealApp } from '../../src/connect/seal';
import { registrationItem } from '../../src/items';
import { type Clock, systemClock } from '../../src/memory';
import {
  DEFAULT_SECRET_TIMINGS,
  type SecretTimings,
  instantTrigger,
  recentRegistrations,
} from '../../src/webhooks';

export { hookBundle, signedDelivery, startHookReceiver } from '../../scripts/lib/hookRequest';
export type { HookReceiver, ReceivedDelivery } from '../../scripts/lib/hookRequest';

/** A delivery body (contract §5) for `data`, dated now, with a fresh id unless one is given. */
export const deliveryBody = (type: string, data: unknown, id = `dlv_${randomUUID()}`): string =>
  wireDeliveryBody({ id, type, createdAt: new Date().toISOString(), data });

type Perform = (z: ZObject, bundle: Bundle) => Promise<unknown>;

/**
 * New Registration as the app declares it (sealed as the app is), on `clock` and with secret `timings` of a
 * test's own: for tests of the webhook room's time bounds.
 */
export const newRegistrationOn = (
  clock: Clock = systemClock,
  timings: Partial<SecretTimings> = {},
): { operation: Record<string, Perform> } =>
  sealApp({
    triggers: {
      new_registration: instantTrigger(
        {
          key: 'new_registration',
          kind: 'FORM_SUBMISSION',
          noun: 'Registration',
          label: 'New Registration',
          description: 'Triggers on a new registration.',
          item: registrationItem,
          list: recentRegistrations(),
        },
        { clock, timings: { ...DEFAULT_SECRET_TIMINGS, ...timings } },
      ),
    },
  }).triggers.new_registration as unknown as { operation: Record<string, Perform> };
