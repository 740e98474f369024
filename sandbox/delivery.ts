// Webhook delivery: an in-memory, at-least-once queue. A state change fans out to every matching
// subscription at once (no timer batching); failures are retried on the contract's schedule with the very
// same body and signature; a 410 ends the subscription. The queue is bounded (delivery-policy.ts): a
// subscription has at most maxInFlightPerHook attempts in flight and maxPendingPerHook deliveries pending,
// the sandbox maxPending; beyond a bound the oldest waiting delivery is given up. Every attempt and every
// delivery given up is written to the tenant's delivery log.

import http from 'node:http';
import https from 'node:https';
import { DeviationSet } from './deviations';
import { deliveryPolicy, nextRetry, type DeliveryOptions, type DeliveryPolicy } from './delivery-policy';
import { timePrefix } from './prng';
import type { SandboxState, Tenant } from './state';
import type { HookRecord, WebhookKind } from './types';

export type { DeliveryOptions } from './delivery-policy';

export interface DeliveryLogEntry {
  deliveryId: string;
  subscriptionId: string;
  type: WebhookKind;
  targetUrl: string;
  /** The attempt this entry describes; for a delivery dropped while waiting, the attempts made so far. */
  attempt: number;
  /**
   * in_flight until answered; then delivered (2xx), failed (will retry), gone (410), exhausted (failed and
   * given up: retry window or maxAttempts), cancelled (subscription deleted), or dropped (given up while
   * waiting, to keep the queue within its bounds).
   */
  state: 'in_flight' | 'delivered' | 'failed' | 'gone' | 'exhausted' | 'cancelled' | 'dropped';
  statusCode: number | null;
  error: string | null;
  /** For exhausted and dropped: what was given up and why, in words. */
  givenUp: string | null;
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
  /** The signature header's value (`X-Connect-Signature`, or the header of the sandbox's dialect). */
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
  /** When the first attempt started (the retry window counts from here). */
  firstHr: number;
  timer: NodeJS.Timeout | null;
  request: http.ClientRequest | null;
  /** Waiting in its subscription's line for a free in-flight slot. */
  waiting: boolean;
}

/** Per subscription: its pending deliveries (oldest first), attempts in flight and the line for a slot. */
interface HookLine {
  pending: Set<Delivery>;
  inFlight: number;
  waiting: Delivery[];
}

interface Target {
  https: boolean;
  hostname: string;
  port: number;
  path: string;
}

const DEFAULT_SIGNER = new DeviationSet();

/**
 * The signature header of `body` signed with each of `secrets`, as the default sandbox signs (contract §5,
 * or the dialect's scheme; a timestamped one is dated at Unix time 0).
 */
export function sign(body: string, secrets: readonly string[]): string {
  return DEFAULT_SIGNER.signature(body, secrets, 0);
}

const nowHr = (): number => performance.timeOrigin + performance.now();

export class DeliveryQueue {
  readonly policy: DeliveryPolicy;
  private readonly pending = new Map<string, Delivery>();
  private readonly lines = new Map<string, HookLine>();
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
  /** How deliveries are written and signed (the contract's, or a deviation's). */
  deviations = new DeviationSet();
  /** Called after every attempt and every delivery given up (for logging). */
  onAttemptDone: ((entry: DeliveryLogEntry) => void) | null = null;
  /** Called once a receiver's 410 has ended a subscription. */
  onGone: ((tenant: Tenant, hook: HookRecord) => void) | null = null;
  private readonly settledWaiters = new Set<() => void>();

  constructor(options: DeliveryOptions = {}) {
    this.policy = deliveryPolicy(options);
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
        firstHr: 0,
        timer: null,
        request: null,
        waiting: false,
      };
      this.admit(d);
      this.batch.push(d);
    }
    if (this.batch.length > 0 && this.immediate === null) {
      this.immediate = setImmediate(() => {
        this.immediate = null;
        const batch = this.batch;
        this.batch = [];
        for (const d of batch) this.ready(d);
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
    if (this.sent.size > this.policy.logLimit) {
      const oldest = this.sent.keys().next().value;
      if (oldest !== undefined) this.sent.delete(oldest);
    }
  }

  /** Drop queued retries of a subscription that was deleted or ended by a 410. */
  cancelHook(hookId: string): void {
    const line = this.lines.get(hookId);
    if (line) {
      for (const d of [...line.pending]) {
        if (d.request) continue; // in flight: finishes, but will not be retried
        this.forget(d);
      }
      line.waiting = [];
      if (line.pending.size === 0) this.lines.delete(hookId);
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

  private line(hookId: string): HookLine {
    let line = this.lines.get(hookId);
    if (!line) {
      line = { pending: new Set(), inFlight: 0, waiting: [] };
      this.lines.set(hookId, line);
    }
    return line;
  }

  /** Adds a new delivery within the bounds: when one is full, its oldest delivery not in flight goes. */
  private admit(d: Delivery): void {
    const { maxPendingPerHook, maxPending } = this.policy;
    const line = this.line(d.hook.id);
    if (line.pending.size >= maxPendingPerHook) {
      const oldest = firstNotInFlight(line.pending.values());
      if (oldest) {
        this.drop(
          oldest,
          `dropped to keep the queue bounded: ${maxPendingPerHook} deliveries were pending for this ` +
            `subscription (maxPendingPerHook), so the oldest waiting one was given up for a new one`,
        );
      }
    }
    if (this.pending.size >= maxPending) {
      const oldest = firstNotInFlight(this.pending.values());
      if (oldest) {
        this.drop(
          oldest,
          `dropped to keep the queue bounded: ${maxPending} deliveries were pending in the sandbox ` +
            `(maxPending), so the oldest waiting one was given up for a new one`,
        );
      }
    }
    this.pending.set(d.id, d);
    line.pending.add(d);
  }

  /** Gives up a delivery that is not in flight, with a log entry that says why. */
  private drop(d: Delivery, why: string): void {
    if (d.timer) clearTimeout(d.timer);
    d.timer = null;
    if (d.waiting) {
      const line = this.lines.get(d.hook.id);
      const i = line ? line.waiting.indexOf(d) : -1;
      if (line && i >= 0) line.waiting.splice(i, 1);
      d.waiting = false;
    }
    this.forget(d);
    const at = new Date(nowHr()).toISOString();
    const entry: DeliveryLogEntry = {
      ...this.entry(d, at),
      state: 'dropped',
      givenUp: why,
      finishedAt: at,
      durationMs: 0,
    };
    this.appendLog(d.tenant.id, entry);
    this.onAttemptDone?.(entry);
  }

  /** Removes a delivery from every structure (its timer is already cleared or never set). */
  private forget(d: Delivery): void {
    if (d.timer) clearTimeout(d.timer);
    d.timer = null;
    this.pending.delete(d.id);
    const line = this.lines.get(d.hook.id);
    if (!line) return;
    line.pending.delete(d);
    if (line.pending.size === 0 && line.inFlight === 0) this.lines.delete(d.hook.id);
  }

  /** A delivery due for an attempt: sent now if its subscription has a free slot, else waits its turn. */
  private ready(d: Delivery): void {
    if (this.closed || !this.pending.has(d.id)) return;
    d.timer = null;
    const line = this.line(d.hook.id);
    if (line.inFlight < this.policy.maxInFlightPerHook) {
      this.attempt(d, line);
    } else {
      d.waiting = true;
      line.waiting.push(d);
    }
  }

  private next(line: HookLine): void {
    while (line.inFlight < this.policy.maxInFlightPerHook && line.waiting.length > 0) {
      const d = line.waiting.shift() as Delivery;
      d.waiting = false;
      if (this.pending.has(d.id)) this.attempt(d, line);
    }
  }

  private entry(d: Delivery, startedAt: string): DeliveryLogEntry {
    return {
      deliveryId: d.id,
      subscriptionId: d.hook.id,
      type: d.type,
      targetUrl: d.hook.targetUrl,
      attempt: d.attempt,
      state: 'in_flight',
      statusCode: null,
      error: null,
      givenUp: null,
      queuedAt: d.queuedAt,
      startedAt,
      finishedAt: null,
      startDelayMs: 0,
      durationMs: null,
      nextRetryAt: null,
    };
  }

  private attempt(d: Delivery, line: HookLine): void {
    d.attempt++;
    line.inFlight++;
    const startedHr = nowHr();
    if (d.attempt === 1) d.firstHr = startedHr;
    const entry = this.entry(d, new Date(startedHr).toISOString());
    entry.startDelayMs = Math.round((startedHr - d.queuedHr) * 1000) / 1000;
    this.appendLog(d.tenant.id, entry);

    let settled = false;
    const finish = (statusCode: number | null, error: string | null): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timeout);
      d.request = null;
      line.inFlight--;
      const endHr = nowHr();
      entry.statusCode = statusCode;
      entry.error = error;
      entry.finishedAt = new Date(endHr).toISOString();
      entry.durationMs = Math.round((endHr - startedHr) * 1000) / 1000;
      this.settle(d, entry, statusCode, endHr);
      this.onAttemptDone?.(entry);
      if (!this.closed) this.next(line);
      if (line.pending.size === 0 && line.inFlight === 0 && this.lines.get(d.hook.id) === line) {
        this.lines.delete(d.hook.id);
      }
      this.notifySettled();
    };

    if (d.body === null || d.signature === null) {
      d.body = this.deviations.deliveryBody({
        id: d.id,
        type: d.type,
        createdAt: d.queuedAt,
        hookId: d.hook.id,
        dataJson: d.dataJson,
      });
      d.signature = this.deviations.signature(
        d.body,
        this.state ? this.state.signingSecrets(d.tenant, d.hook) : [d.hook.secret ?? ''],
        Date.parse(d.queuedAt),
      );
      this.remember(d);
    }
    const body = d.body;
    const target = this.target(d.hook);
    const timeout = setTimeout(() => {
      d.request?.destroy(new Error(`no answer within ${this.policy.timeoutMs} ms`));
    }, this.policy.timeoutMs);
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
        [this.deviations.signatureHeader()]: d.signature,
        'User-Agent': 'connect-sandbox-webhooks/1',
      },
    });
    d.request = req;
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

  private settle(d: Delivery, entry: DeliveryLogEntry, statusCode: number | null, endHr: number): void {
    if (statusCode !== null && statusCode >= 200 && statusCode < 300) {
      entry.state = 'delivered';
      this.forget(d);
      return;
    }
    if (statusCode === 410) {
      entry.state = 'gone';
      this.forget(d);
      if (d.tenant.hooks.get(d.hook.id) === d.hook) {
        d.tenant.hooks.delete(d.hook.id);
        this.onGone?.(d.tenant, d.hook);
      }
      this.cancelHook(d.hook.id);
      return;
    }
    if (this.closed || !this.pending.has(d.id) || d.tenant.hooks.get(d.hook.id) !== d.hook) {
      entry.state = 'cancelled';
      this.forget(d);
      return;
    }
    const retry = nextRetry(this.policy, d.attempt, endHr - d.firstHr);
    if ('givenUp' in retry) {
      entry.state = 'exhausted';
      entry.givenUp = retry.givenUp;
      this.forget(d);
      return;
    }
    entry.state = 'failed';
    entry.nextRetryAt = new Date(endHr + retry.delayMs).toISOString();
    d.timer = setTimeout(() => this.ready(d), retry.delayMs);
  }

  private appendLog(tenantId: string, entry: DeliveryLogEntry): void {
    let log = this.logs.get(tenantId);
    if (!log) {
      log = [];
      this.logs.set(tenantId, log);
    }
    log.push(entry);
    // Trimmed in chunks, so that a full log does not shift all its entries on every attempt.
    const limit = this.policy.logLimit;
    if (log.length > limit + Math.max(100, limit >> 3)) log.splice(0, log.length - limit);
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
    this.lines.clear();
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
    this.notifySettled();
  }
}

function firstNotInFlight(deliveries: Iterable<Delivery>): Delivery | undefined {
  for (const d of deliveries) if (d.request === null) return d;
  return undefined;
}

export function matches(hook: HookRecord, type: WebhookKind, eventId: string): boolean {
  if (hook.eventId !== null && hook.eventId !== eventId) return false;
  return hook.event === type || (hook.event === 'EVENT_*' && type.startsWith('EVENT_'));
}
