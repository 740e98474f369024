// Orders as the payment provider settles them: paid, failed or pending, refunds, and one made odd.

import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context';
import { notFound, validation } from '../errors';
import { params, SIMULATION, tenantOf } from '../request';
import type { LineItem } from '../types';
import {
  optionalEnum,
  optionalInteger,
  optionalString,
  requireObject,
  requireString,
  type Body,
} from '../validate';
import { registerOddRoutes } from './odd';

function readItem(it: unknown, i: number): LineItem {
  if (typeof it !== 'object' || it === null || Array.isArray(it)) {
    throw validation(`items[${i}]`, 'each item must be an object');
  }
  const o = it as Body;
  const name = requireString(o, 'name', 200);
  const quantity = optionalInteger(o, 'quantity', 1, 10_000) ?? 1;
  const unitAmount = optionalInteger(o, 'unitAmount', 0, 100_000_000);
  if (unitAmount === undefined) {
    throw validation(`items[${i}].unitAmount`, 'unitAmount (minor units) is required');
  }
  return { name, quantity, unitAmount };
}

function readItems(body: Body): LineItem[] | undefined {
  const raw = body.items;
  if (raw === undefined || raw === null) return undefined;
  if (!Array.isArray(raw) || raw.length === 0 || raw.length > 50) {
    throw validation('items', 'items must be a non-empty list (at most 50)');
  }
  return raw.map(readItem);
}

export function registerOrderSimulation(app: FastifyInstance, ctx: SandboxContext): void {
  const { state } = ctx;

  app.post('/_sandbox/orders', { config: SIMULATION }, async (req, reply) => {
    const tenant = tenantOf(req);
    const body = requireObject(req.body);
    const submissionId = requireString(body, 'submissionId', 200);
    const outcome = optionalEnum(body, 'outcome', ['paid', 'failed', 'pending'] as const);
    if (outcome === undefined) {
      throw validation('outcome', 'outcome is required: paid or failed (or pending)');
    }
    const items = readItems(body);
    const currency = optionalString(body, 'currency', 3) ?? tenant.settings.currency;
    if (!/^[A-Z]{3}$/.test(currency)) {
      throw validation('currency', 'currency must be an ISO 4217 code such as EUR');
    }
    const sub = state.submission(tenant, submissionId);
    const o = state.addOrder(tenant, {
      submissionId,
      items: items ?? [{ name: `${sub.ticketType} ticket`, quantity: 1, unitAmount: 12900 }],
      currency,
      status: outcome,
    });
    return reply.code(201).send(state.orderJson(o));
  });

  app.post('/_sandbox/orders/:id/refund', { config: SIMULATION }, async (req) =>
    state.orderJson(state.refund(tenantOf(req), params(req).id ?? '')),
  );

  registerOddRoutes(app, {
    path: '/_sandbox/orders/:id',
    resource: 'order',
    find: (tenant, id) => {
      const o = tenant.orders.get(id);
      if (!o) throw notFound('Order');
      return o;
    },
    show: (o) => state.orderJson(o),
  });
}
