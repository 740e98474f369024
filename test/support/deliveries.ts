/**
 * Webhook deliveries for tests: bodies as the service writes them (contract §5), signed, and handed to a
 * hook trigger's `perform` in Zapier's `rawRequest` form (the last two are shared with the scripts, which
 * receive real deliveries: scripts/lib/hookRequest.ts).
 */
import { randomUUID } from 'node:crypto';
import { wireDeliveryBody } from '../../sandbox/wire';

export { hookBundle, signedDelivery, startHookReceiver } from '../../scripts/lib/hookRequest';
export type { HookReceiver, ReceivedDelivery } from '../../scripts/lib/hookRequest';

/** A delivery body (contract §5) for `data`, dated now, with a fresh id unless one is given. */
export const deliveryBody = (type: string, data: unknown, id = `dlv_${randomUUID()}`): string =>
  wireDeliveryBody({ id, type, createdAt: new Date().toISOString(), data });
