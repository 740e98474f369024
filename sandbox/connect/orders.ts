// The company's orders, newest first, `limit` of them.

import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context';
import { ApiError } from '../errors';
import { KEYED, addressOf, query, tenantOf } from '../request';
import { readLimit, requireQueryString } from '../validate';
import { ROUTES } from './routes';

export function registerOrderRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  const { state } = ctx;

  app.get(ROUTES.orders.pattern, { config: KEYED }, async (req, reply) => {
    const tenant = tenantOf(req);
    const q = query(req);
    const companyId = requireQueryString(q, 'companyId');
    const limit = readLimit(q, 20, 100, ctx.deviations.has('limit-rejected'));
    if (companyId !== tenant.settings.companyId) throw new ApiError(404, 'NOT_FOUND', 'Company not found');
    const all = [...tenant.orders.values()].sort(
      (a, b) => b.createdMs - a.createdMs || (a.id < b.id ? 1 : -1),
    );
    // A page of them all with `cursor-paging` or `link-paging` (`limit` records at most), else the newest `limit`.
    const page = ctx.deviations.page(all, q.cursor, limit);
    const orders = page.next === undefined ? all.slice(0, limit) : page.records;
    const cut = page.next === undefined && all.length > limit;
    reply.headers(ctx.deviations.pageHeaders(addressOf(req), page.next));
    return ctx.deviations.listBody(ctx.order(orders.map((o) => state.orderJson(o))), {}, cut, page.next);
  });
}
