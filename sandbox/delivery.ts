// Webhook delivery: an in-memory, at-least-once queue. A state change fans out to every matching
// subscription at once (no timer batching); failures are retried with exponential backoff and the very same
// body and signature; a 410 ends the subscription. Every attempt is written to the tenant's delivery log.

import { createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { timePrefix } from './prng';
import type { SandboxState, Tenant } from './state';
import type { HookRecord, WebhookKind } from './types';

export interface DeliveryOptions {
  /** Delay before the first retry; doubles on every further retry. Default 50 ms. */
  baseDelayMs?: number;
  /** Upper bound of one backoff delay. Default 5,000 ms. */
  maxDelayMs?: number;
  /** Attempts in all, the first included. Default 8. */
  maxAttempts?: number;
  /** A receiver that has not answered within this is a failure. Default 10,000 ms. */
  timeoutMs?: number;
  /** Log entries kept per tenant (oldest dropped first, in chunks of an eighth). Default 10,000. */
  logLimit?: number;
}

export interface DeliveryLogEntry {
  deliveryId: string;
  subscriptionId: string;
  type: WebhookKind;
  targetUrl: string;
  attempt: number;
  /** in_flight until answered; then delivered (2xx), failed (will retry), gone (410) or exhausted. */
  state: 'in_flight' | 'delivered' | 'failed' | 'gone' | 'exhausted' | 'cancelled';
  statusCode: number | null;
  error: string | null;
  /** When the state change happened. */
  queuedAt: string;
  startedAt: string;
  finishedAt: string | null;
  /** Milliseconds (sub-millisecond precision) from the state change to the start of this attempt. */
  startDelayMs: number;
  durationMs: number | null;
  nextRetryAt: string | null;
}

export interface SentDelivery {
  deliveryId: string;
  tenantId: string;
  /** The raw body, exactly as sent on every attempt. */
  body: string;
  /** The X-Connect-Signature header. */
  signature: string;
}

interface Delivery {
  id: string;
  tenant: Tenant;
  hook: HookRecord;
  type: WebhookKind;
  /** The event data as serialised at the state change (shared by every delivery of that change). */
  dataJson: string;
  /** Body and signature: made right before the first attempt, then identical on every retry. */
  body: string | null;
  signature: string | null;
  attempt: number;
  queuedAt: string;
  queuedHr: number;
  timer: NodeJS.Timeout | null;
  request: http.ClientRequest | null;
}

interface Target {
  https: boolean;
  hostname: string;
  port: number;
  path: string;
}

export function sign(body: string, secrets: readonly string[]): string {
  return secrets.map((s) => `sha256=${createHmac('sha256', s).update(body).digest('hex')}`).join(',');
}

const nowHr = (): number => performance.timeOrigin + performance.now();

export class DeliveryQueue {
  private readonly baseDelayMs: number;
  private readonly maxDelayMs: number;
  private readonly maxAttempts: number;
  private readonly timeoutMs: number;
  private readonly logLimit: number;
  private readonly pending = new Map<string, Delivery>();
  private readonly logs = new Map<string, DeliveryLogEntry[]>();
  /** Body and signature of the most recent deliveries (as many as one log keeps), for display on demand. */
  private readonly sent = new Map<string, SentDelivery>();
  // Free sockets are kept as long as they may be needed again, so a fan-out to many subscriptions on one
  // origin reuses its connections instead of opening them all anew on every state change.
  private readonly httpAgent = new http.Agent({ keepAlive: true, maxSockets: 1024, maxFreeSockets: 1024 });
  private readonly httpsAgent = new https.Agent({ keepAlive: true, maxSockets: 256, maxFreeSockets: 256 });
  private readonly targets = new WeakMap<HookRecord, Target | null>();
  private batch: Delivery[] = [];
  private immediate: NodeJS.Immediate | null = null;
  private closed = false;
  private sequence = 0;
  state: SandboxState | null = null;
  /** Called after every attempt (for logging). */
  onAttemptDone: ((entry: DeliveryLogEntry) => void) | null = null;
  /** Called once a receiver's 410 has ended a subscription. */
  onGone: ((tenant: Tenant, hook: HookRecord) => void) | null = null;
  private readonly settledWaiters = new Set<() => void>();

  constructor(options: DeliveryOptions = {}) {
    this.baseDelayMs = options.baseDelayMs ?? 50;
    this.maxDelayMs = options.maxDelayMs ?? 5_000;
    this.maxAttempts = Math.max(1, options.maxAttempts ?? 8);
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.logLimit = options.logLimit ?? 10_000;
  }

  /**
   * Queue one delivery per matching subscription of the tenant; sending starts on the next event-loop turn.
   * The data is serialised here, once; each body is built and signed just before its first attempt, so the
   * first receivers are not kept waiting while the rest of a large fan-out is prepared.
   */
  emit(tenant: Tenant, type: WebhookKind, eventId: string, data: unknown): void {
    if (this.closed || tenant.hooks.size === 0) return;
    let dataJson: string | undefined;
    const queuedHr = nowHr();
    const nowMs = this.state ? this.state.now() : Date.now();
    const createdAt = new Date(nowMs).toISOString();
    const idPrefix = `dlv_${timePrefix(nowMs)}`;
    for (const hook of tenant.hooks.values()) {
      if (!matches(hook, type, eventId)) continue;
      dataJson ??= JSON.stringify(data);
      // Unique within this sandbox without any lookup: a time prefix and a sequence number.
      const id = `${idPrefix}${(++this.sequence).toString(32).toUpperCase().padStart(6, '0')}`;
      const d: Delivery = {
        id,
        tenant,
        hook,
        type,
        dataJson,
        body: null,
        signature: null,
        attempt: 0,
        queuedAt: createdAt,
        queuedHr,
        timer: null,
        request: null,
      };
      this.pending.set(id, d);
      this.batch.push(d);
    }
    if (this.batch.length > 0 && this.immediate === null) {
      this.immediate = setImmediate(() => {
        this.immediate = null;
        const batch = this.batch;
        this.batch = [];
        for (const d of batch) this.attempt(d);
      });
    }
  }

  log(tenantId: string): DeliveryLogEntry[] {
    return this.logs.get(tenantId) ?? [];
  }

  /** The body and signature header a delivery was sent with (kept for the most recent deliveries). */
  sentBody(deliveryId: string): SentDelivery | undefined {
    return this.sent.get(deliveryId);
  }

  private remember(d: Delivery): void {
    this.sent.set(d.id, {
      deliveryId: d.id,
      tenantId: d.tenant.id,
      body: d.body ?? '',
      signature: d.signature ?? '',
    });
    if (this.sent.size > this.logLimit) {
      const oldest = this.sent.keys().next().value;
      if (oldest !== undefined) this.sent.delete(oldest);
    }
  }

  /** Drop queued retries of a subscription that was deleted or ended by a 410. */
  cancelHook(hookId: string): void {
    for (const d of this.pending.values()) {
      if (d.hook.id !== hookId) continue;
      if (d.timer) clearTimeout(d.timer);
      if (d.request) continue; // in flight: finishes, but will not be retried
      this.pending.delete(d.id);
      this.batch = this.batch.filter((b) => b !== d);
    }
    this.notifySettled();
  }

  /** Number of deliveries not yet finished (queued, in flight or waiting for a retry). */
  get pendingCount(): number {
    return this.pending.size;
  }

  pendingFor(tenantId: string): number {
    let n = 0;
    for (const d of this.pending.values()) if (d.tenant.id === tenantId) n++;
    return n;
  }

  /** Resolves when no delivery is pending (or after timeoutMs). For tests and benchmarks. */
  whenIdle(timeoutMs = 10_000): Promise<boolean> {
    if (this.pending.size === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = (): void => {
        if (this.pending.size > 0) return;
        clearTimeout(t);
        this.settledWaiters.delete(done);
        resolve(true);
      };
      const t = setTimeout(() => {
        this.settledWaiters.delete(done);
        resolve(false);
      }, timeoutMs);
      this.settledWaiters.add(done);
    });
  }

  private notifySettled(): void {
    if (this.pending.size > 0) return;
    for (const w of [...this.settledWaiters]) w();
  }

  private attempt(d: Delivery): void {
    if (this.closed || !this.pending.has(d.id)) return;
    d.timer = null;
    d.attempt++;
    const startedHr = nowHr();
    const entry: DeliveryLogEntry = {
      deliveryId: d.id,
      subscriptionId: d.hook.id,
      type: d.type,
      targetUrl: d.hook.targetUrl,
      attempt: d.attempt,
      state: 'in_flight',
      statusCode: null,
      error: null,
      queuedAt: d.queuedAt,
      startedAt: new Date(startedHr).toISOString(),
      finishedAt: null,
      startDelayMs: Math.round((startedHr - d.queuedHr) * 1000) / 1000,
      durationMs: null,
      nextRetryAt: null,
    };
    this.appendLog(d.tenant.id, entry);

    let settled = false;
    const finish = (statusCode: number | null, error: string | null): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timeout);
      d.request = null;
      const endHr = nowHr();
      entry.statusCode = statusCode;
      entry.error = error;
      entry.finishedAt = new Date(endHr).toISOString();
      entry.durationMs = Math.round((endHr - startedHr) * 1000) / 1000;
      this.settle(d, entry, statusCode);
      this.onAttemptDone?.(entry);
    };

    if (d.body === null || d.signature === null) {
      d.body = `{"id":"${d.id}","type":"${d.type}","createdAt":"${d.queuedAt}","data":${d.dataJson}}`;
      d.signature = sign(
        d.body,
        this.state ? this.state.signingSecrets(d.tenant, d.hook) : [d.hook.secret ?? ''],
      );
      this.remember(d);
    }
    const body = d.body;
    const target = this.target(d.hook);
    if (!target) {
      finish(null, 'invalid target URL');
      return;
    }
    const req = (target.https ? https : http).request({
      method: 'POST',
      protocol: target.https ? 'https:' : 'http:',
      hostname: target.hostname,
      port: target.port,
      path: target.path,
      agent: target.https ? this.httpsAgent : this.httpAgent,
      headers: {
        'Content-Type': 'application/json',
        'Content-Length': Buffer.byteLength(body),
        'X-Connect-Signature': d.signature,
        'User-Agent': 'connect-sandbox-webhooks/1',
      },
    });
    d.request = req;
    const timeout = setTimeout(() => {
      req.destroy(new Error(`no answer within ${this.timeoutMs} ms`));
    }, this.timeoutMs);
    req.on('response', (res) => {
      res.on('error', () => finish(res.statusCode ?? null, 'response aborted'));
      res.on('end', () => finish(res.statusCode ?? null, null));
      res.resume();
    });
    req.on('error', (err) => finish(null, err.message));
    req.end(body);
  }

  /** The parsed target URL of a subscription (parsed once). */
  private target(hook: HookRecord): Target | null {
    let t = this.targets.get(hook);
    if (t === undefined) {
      try {
        const url = new URL(hook.targetUrl);
        const secure = url.protocol === 'https:';
        t = {
          https: secure,
          hostname: url.hostname.replace(/^\[|\]$/g, ''),
          port: url.port === '' ? (secure ? 443 : 80) : Number(url.port),
          path: `${url.pathname}${url.search}`,
        };
      } catch {
        t = null;
      }
      this.targets.set(hook, t);
    }
    return t;
  }

  private settle(d: Delivery, entry: DeliveryLogEntry, statusCode: number | null): void {
    if (statusCode !== null && statusCode >= 200 && statusCode < 300) {
      entry.state = 'delivered';
      this.pending.delete(d.id);
    } else if (statusCode === 410) {
      entry.state = 'gone';
      this.pending.delete(d.id);
      if (d.tenant.hooks.get(d.hook.id) === d.hook) {
        d.tenant.hooks.delete(d.hook.id);
        this.onGone?.(d.tenant, d.hook);
      }
      this.cancelHook(d.hook.id);
    } else if (this.closed || !this.pending.has(d.id) || d.tenant.hooks.get(d.hook.id) !== d.hook) {
      entry.state = 'cancelled';
      this.pending.delete(d.id);
    } else if (d.attempt >= this.maxAttempts) {
      entry.state = 'exhausted';
      this.pending.delete(d.id);
    } else {
      entry.state = 'failed';
      const delay = Math.min(this.maxDelayMs, this.baseDelayMs * 2 ** (d.attempt - 1));
      entry.nextRetryAt = new Date(Date.now() + delay).toISOString();
      d.timer = setTimeout(() => this.attempt(d), delay);
    }
    this.notifySettled();
  }

  private appendLog(tenantId: string, entry: DeliveryLogEntry): void {
    let log = this.logs.get(tenantId);
    if (!log) {
      log = [];
      this.logs.set(tenantId, log);
    }
    log.push(entry);
    // Trimmed in chunks, so that a full log does not shift all its entries on every attempt.
    if (log.length > this.logLimit + Math.max(100, this.logLimit >> 3))
      log.splice(0, log.length - this.logLimit);
  }

  /** Stops every timer and aborts requests in flight; nothing is sent afterwards. */
  close(): void {
    this.closed = true;
    if (this.immediate) clearImmediate(this.immediate);
    this.immediate = null;
    this.batch = [];
    for (const d of this.pending.values()) {
      if (d.timer) clearTimeout(d.timer);
      d.request?.destroy(new Error('sandbox closed'));
    }
    this.pending.clear();
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
    this.notifySettled();
  }
}

export function matches(hook: HookRecord, type: WebhookKind, eventId: string): boolean {
  if (hook.eventId !== null && hook.eventId !== eventId) return false;
  return hook.event === type || (hook.event === 'EVENT_*' && type.startsWith('EVENT_'));
}
