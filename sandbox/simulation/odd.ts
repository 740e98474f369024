// `POST …/:id/odd` and `DELETE …/:id/odd` for one resource: make one record odd, or plain again.

import type { FastifyInstance } from 'fastify';
import { readOddPatch, type OddPatch, type OddResource } from '../odd';
import { params, SIMULATION, tenantOf } from '../request';
import type { Tenant } from '../state';
import { requireObject } from '../validate';

export function registerOddRoutes<R extends { odd?: OddPatch }>(
  app: FastifyInstance,
  options: {
    /** The record's simulation path with `:id`, e.g. /_sandbox/submissions/:id */
    path: string;
    resource: OddResource;
    /** The tenant's record, or a 404. */
    find: (tenant: Tenant, id: string) => R;
    /** The record as Connect shows it now. */
    show: (record: R) => unknown;
  },
): void {
  app.post(`${options.path}/odd`, { config: SIMULATION }, async (req) => {
    const record = options.find(tenantOf(req), params(req).id ?? '');
    record.odd = readOddPatch(requireObject(req.body), options.resource);
    return options.show(record);
  });

  app.delete(`${options.path}/odd`, { config: SIMULATION }, async (req) => {
    const record = options.find(tenantOf(req), params(req).id ?? '');
    delete record.odd;
    return options.show(record);
  });
}
