/**
 * A webhook delivery captured the way a user of the conformance kit captures one: a subscription made on
 * the service, one event created so that the service delivers, and the delivery's headers and raw body
 * saved to a file (`--delivery FILE`), with the subscription's secret (`--secret`).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type RunningSandbox, SEED_TENANTS, sandboxCall } from '../../sandbox';
import { startHookReceiver } from '../../scripts/lib/hookRequest';

export const captureDelivery = async (
  sandbox: RunningSandbox,
): Promise<{ delivery: string; secret: string }> => {
  const { apiKey } = SEED_TENANTS[0];
  const receiver = await startHookReceiver();
  try {
    // A secret of the client's own, for a service that takes it from the request (`client-secret`); a
    // service that makes its own answers that one.
    const request = sandbox.wire.requestBody({
      targetUrl: receiver.targetUrl('capture'),
      event: 'EVENT_*',
      secret: 'whsec_captured_delivery_0001',
    });
    const hook = await sandboxCall<{ id: string; secret: string }>(
      sandbox.url,
      apiKey,
      'POST',
      '/api/v1/integrations/zapier/hooks',
      request,
    );
    await sandboxCall(sandbox.url, apiKey, 'POST', '/_sandbox/events', { title: 'Captured delivery' });
    await receiver.waitFor(1, { timeoutMs: 30_000 });
    await sandboxCall(sandbox.url, apiKey, 'DELETE', `/api/v1/integrations/zapier/hooks/${hook.id}`);
    const [received] = receiver.received;
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'delivery-')), 'delivery.json');
    writeFileSync(file, JSON.stringify({ headers: received!.headers, body: received!.body }));
    return { delivery: file, secret: hook.secret };
  } finally {
    await receiver.close();
  }
};
