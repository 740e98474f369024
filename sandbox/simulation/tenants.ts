// Organizers: read and change the current one (entitlements, per-hook secrets), create a fresh one.

import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context';
import { validation } from '../errors';
import { SIMULATION, tenantOf } from '../request';
import type { Tenant } from '../state';
import type { Entitlement } from '../types';
import { optionalBoolean, optionalString, requireObject, type Body } from '../validate';

function tenantJson(ctx: SandboxContext, tenant: Tenant): Record<string, unknown> {
  const s = tenant.settings;
  let events = 0;
  for (const e of tenant.events.values()) if (!e.deleted) events++;
  const account = ctx.state.secretState(tenant, null);
  return {
    id: s.id,
    name: s.name,
    companyId: s.companyId,
    entitlements: { ...s.entitlements },
    hookSecrets: s.hookSecrets,
    currency: s.currency,
    webhookSecret: s.webhookSecret,
    previousWebhookSecret: account.previousSecret,
    previousWebhookSecretExpiresAt: account.previousSecretExpiresAt,
    counts: {
      events,
      submissions: tenant.submissions.size,
      orders: tenant.orders.size,
      hooks: tenant.hooks.size,
      deliveries: ctx.delivery.log(s.id).length,
    },
  };
}

function readEntitlements(body: Body, base: Record<Entitlement, boolean>): Record<Entitlement, boolean> {
  const raw = body.entitlements;
  if (raw === undefined || raw === null) return base;
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    throw validation('entitlements', 'entitlements must be an object');
  }
  const o = raw as Body;
  const out = { ...base };
  for (const k of Object.keys(o)) {
    if (k !== 'venue' && k !== 'agenda' && k !== 'qrScan') {
      throw validation(`entitlements.${k}`, 'entitlements are venue, agenda and qrScan');
    }
    const v = optionalBoolean(o, k);
    if (v !== undefined) out[k] = v;
  }
  return out;
}

function readCurrency(body: Body, fallback: string): string {
  const currency = optionalString(body, 'currency', 3) ?? fallback;
  if (!/^[A-Z]{3}$/.test(currency)) {
    throw validation('currency', 'currency must be an ISO 4217 code such as EUR');
  }
  return currency;
}

export function registerTenantSimulation(app: FastifyInstance, ctx: SandboxContext): void {
  const { state } = ctx;

  app.get('/_sandbox/tenant', { config: SIMULATION }, async (req) => tenantJson(ctx, tenantOf(req)));

  app.patch('/_sandbox/tenant', { config: SIMULATION }, async (req) => {
    const tenant = tenantOf(req);
    const body = requireObject(req.body);
    tenant.settings.entitlements = readEntitlements(body, tenant.settings.entitlements);
    const hookSecrets = optionalBoolean(body, 'hookSecrets');
    if (hookSecrets !== undefined) tenant.settings.hookSecrets = hookSecrets;
    const name = optionalString(body, 'name', 200);
    if (name !== undefined && name.trim() !== '') tenant.settings.name = name;
    return tenantJson(ctx, tenant);
  });

  // Keyless: a fresh, empty organizer. The response is the only place its API key is shown.
  app.post('/_sandbox/tenants', async (req, reply) => {
    const body = req.body === undefined ? {} : requireObject(req.body);
    const name = optionalString(body, 'name', 200) ?? 'Sandbox Organizer';
    const currency = readCurrency(body, 'EUR');
    const entitlements = readEntitlements(body, { venue: true, agenda: true, qrScan: true });
    const hookSecrets = optionalBoolean(body, 'hookSecrets') ?? true;
    const suffix = state.ids.hex(12);
    const tenant = state.addTenant({
      id: `ten_${suffix}`,
      name,
      apiKey: `sk_sandbox_${suffix}${state.ids.hex(8)}`,
      companyId: `cmp_${suffix}`,
      webhookSecret: state.newSecret(),
      entitlements,
      hookSecrets,
      currency,
    });
    return reply.code(201).send({ ...tenantJson(ctx, tenant), apiKey: tenant.settings.apiKey });
  });
}
