// Programmatic entry point of the Connect sandbox: buildSandbox (inject, no socket) and startSandbox
// (listens on 127.0.0.1). The sandbox follows docs/connect-contract.md on its own and never imports the app under test.

import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildSandbox, sandboxContext, type SandboxOptions } from './app';
import { SCALE_EVENT_SLUG, SEED_TENANTS } from './seed';

export { buildSandbox, sandboxContext, type SandboxOptions } from './app';
export { SEED_TENANTS, SCALE_EVENT_SLUG, type SeedTenant } from './seed';
export { AGENCY_EVENTS_DEFAULT, AGENCY_TENANT, agencySlug } from './seed-agency';
export { sign, type DeliveryLogEntry, type DeliveryOptions } from './delivery';
export { DEVIATIONS, DEVIATION_NAMES, DIALECT_SWITCHES, parseDeviations, type Deviation } from './deviations';
export { FAULT_KINDS, REDIRECT_STATUSES, REDIRECT_LOCATIONS, type FaultKind } from './faults';
export { sandboxCall } from './client';

export interface StartOptions extends SandboxOptions {
  /** 0 (default) picks any free port. The sandbox binds 127.0.0.1 only. */
  port?: number;
}

export interface RunningSandbox {
  /** http://127.0.0.1:<port>, no trailing slash. */
  url: string;
  tenants: typeof SEED_TENANTS;
  /** Id of the load event that `scale` adds (slug `load-test-expo`, first seed tenant); null without one. */
  scaleEventId: string | null;
  /** Stops the delivery queue and every timer, then the server. */
  close(): Promise<void>;
  app: FastifyInstance;
  /** Writes wire JSON (lists, errors, deliveries, signatures) as this sandbox does, its switches included. */
  wire: WireWriter;
}

import { type WireWriter, wireWriter } from './wire';

export async function startSandbox(options: StartOptions = {}): Promise<RunningSandbox> {
  const app = buildSandbox(options);
  try {
    await app.listen({ host: '127.0.0.1', port: options.port ?? 0 });
  } catch (err) {
    await app.close();
    throw err;
  }
  const { port } = app.server.address() as AddressInfo;
  let closing: Promise<void> | null = null;
  return {
    url: `http://127.0.0.1:${port}`,
    tenants: SEED_TENANTS,
    scaleEventId: sandboxContext(app).state.eventsBySlug.get(SCALE_EVENT_SLUG)?.id ?? null,
    wire: wireWriter(options.deviations ?? []),
    close: () => {
      closing ??= app.close().then(() => undefined);
      return closing;
    },
    app,
  };
}

/** Waits until no webhook delivery is pending (queued, in flight or waiting for a retry). */
export function deliveriesIdle(app: FastifyInstance, timeoutMs = 10_000): Promise<boolean> {
  return sandboxContext(app).delivery.whenIdle(timeoutMs);
}
