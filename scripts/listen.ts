/**
 * `npm run listen -- <instant trigger key> [event]`: turns an instant trigger of the app on against the
 * running sandbox (its `performSubscribe`, with a local receiver as the target URL), runs the trigger's
 * `perform` on every signed delivery exactly as Zapier hands it over (`rawRequest`), prints each Zap item,
 * or why a delivery was dropped, as it arrives, and turns the trigger off again on Ctrl+C. Like
 * `stripe listen`, for this integration. Fields a Zap item carries as dehydration pointers (the attendee of a
 * payment or order) are printed resolved, as Zapier resolves them when a later step uses them: by the app's
 * hydrator, with the pointer's bundle.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type PerformFunction, createAppTester } from 'zapier-platform-core';
import App from '../index';
import { type ReceivedDelivery, hookBundle } from './lib/hookRequest';
import { functionOf, instantTriggerKeys, operationOf } from './lib/app';
import { instantKindOf } from '../src/webhooks';
import { deliveryOf } from '../src/connect/testing';
import { HOW_TO_SEND, type Simulation } from './simulate';
import {
  UsageError,
  clock,
  ensureSandbox,
  findEvent,
  loadEnv,
  parseArgs,
  problemText,
  type EventJson,
  type WorkbenchEnv,
} from './lib/workbench';

type Item = Record<string, unknown>;
type SubscribeData = { id: string } & Item;

const HELP = `usage: npm run listen -- <instant trigger key> [event] [--input '{"changes":"published"}'] [--port N]

Turns the instant trigger on against the sandbox of .env (npm run sandbox), prints every Zap item (or why
a delivery was dropped) as it arrives, and turns it off again on Ctrl+C. [event]: an event ID, slug or
title words (default: every event). It then says which \`npm run simulate\` command fires the trigger.`;

export { instantTriggerKeys };

export interface Listener {
  targetUrl: string;
  subscriptionId: string;
  /** Resolves once every delivery received so far has been run and printed. */
  settled(): Promise<void>;
  stop(): Promise<void>;
}

export interface ListenOptions {
  env: WorkbenchEnv;
  key: string;
  event?: EventJson;
  inputData?: Item;
  port?: number;
  print: (line: string) => void;
}

const describe = (item: Item): string => JSON.stringify(item, null, 2).replace(/\n/g, '\n    ');

/**
 * The `npm run simulate` commands that make the service send what the instant trigger `key` reacts to (by the
 * webhook kind the app declares for it), in order (the first ones
 * prepare what the last one needs), scoped to `event` when the trigger watches one, and what the last sends.
 */
export const simulationFor = (
  key: string,
  event?: Pick<EventJson, 'slug'>,
  inputData: Item = {},
): Simulation => {
  const changes = (Array.isArray(inputData.changes) ? inputData.changes : [inputData.changes])
    .flatMap((v) => (typeof v === 'string' ? v.split(',') : []))
    .map((v) => v.trim().toLowerCase())
    .filter(Boolean);
  // By the kind the trigger subscribes to (from the app), in simulate's table of what sends what.
  const kind = instantKindOf(key);
  const how = kind ? HOW_TO_SEND[kind] : undefined;
  return how ? how(event, changes) : { commands: ['help'], sends: '' };
};

/** The "cause something" hint printed once the trigger listens. */
export const simulationHint = (
  key: string,
  event?: Pick<EventJson, 'slug'>,
  inputData: Item = {},
): string => {
  const { commands, sends } = simulationFor(key, event, inputData);
  return `${commands.map((c) => `npm run simulate -- ${c}`).join(', then ')}${sends ? ` (sends ${sends})` : ''}`;
};

const POINTER = /^hydrate\|\|\|([\s\S]*)\|\|\|hydrate$/;

type AppTester = ReturnType<typeof createAppTester>;
type Meta = Record<string, boolean>;
type Resolved = { value: unknown; resolved: number };

/**
 * The app's log lines (why a delivery was dropped), collected per run instead of printed raw; `restore`
 * puts the console back.
 */
const captureAppLogs = (): { lines: string[]; restore: () => void } => {
  const lines: string[] = [];
  const consoleLog = console.log;
  const logToStdout = process.env.LOG_TO_STDOUT;
  process.env.LOG_TO_STDOUT = 'true';
  console.log = (...args: unknown[]) => lines.push(args.map(String).join(' '));
  const restore = () => {
    console.log = consoleLog;
    if (logToStdout === undefined) delete process.env.LOG_TO_STDOUT;
    else process.env.LOG_TO_STDOUT = logToStdout;
  };
  return { lines, restore };
};

/**
 * What Zapier puts in place of a dehydration pointer when a step uses it: the app's hydrator named by the
 * pointer (`hydrators.attendee`), run with the pointer's bundle as its input. Resolves every pointer in a value.
 */
const pointerResolver = (appTester: AppTester, authData: Record<string, string>, meta: Meta) => {
  const hydrators = (App.hydrators ?? {}) as Record<string, unknown>;
  const resolveOne = async (pointer: string): Promise<unknown> => {
    let payload: { method?: unknown; bundle?: unknown } = {};
    try {
      payload = JSON.parse(pointer) as typeof payload;
    } catch {
      return '(a dehydration pointer that is not JSON)';
    }
    const method = typeof payload.method === 'string' ? payload.method : '';
    const hydrator = method.startsWith('hydrators.')
      ? hydrators[method.slice('hydrators.'.length)]
      : undefined;
    if (typeof hydrator !== 'function') return `(no hydrator "${method}" in the app)`;
    try {
      const inputData = (payload.bundle ?? {}) as Item;
      return await appTester(hydrator as PerformFunction, { authData, inputData, meta });
    } catch (error) {
      return `(could not be resolved: ${problemText(error)})`;
    }
  };
  const resolve = async (value: unknown): Promise<Resolved> => {
    if (Array.isArray(value)) {
      const parts = await Promise.all(value.map(resolve));
      return { value: parts.map((p) => p.value), resolved: parts.reduce((n, p) => n + p.resolved, 0) };
    }
    if (value !== null && typeof value === 'object') {
      const entries = await Promise.all(
        Object.entries(value).map(async ([k, v]) => [k, await resolve(v)] as const),
      );
      return {
        value: Object.fromEntries(entries.map(([k, p]) => [k, p.value])),
        resolved: entries.reduce((n, [, p]) => n + p.resolved, 0),
      };
    }
    const pointer = typeof value === 'string' ? POINTER.exec(value)?.[1] : undefined;
    return pointer === undefined ? { value, resolved: 0 } : { value: await resolveOne(pointer), resolved: 1 };
  };
  return resolve;
};

/** Prints what one run of the trigger made of a delivery: its items (pointers resolved) or why none. */
const printRun = async (
  print: (line: string) => void,
  head: string,
  items: Item[],
  timing: string,
  appLogs: string[],
  resolve: (value: unknown) => Promise<Resolved>,
): Promise<void> => {
  if (items.length === 0) {
    const why = appLogs.find((line) => line.includes('dropped')) ?? appLogs.at(-1) ?? 'no item';
    print(`${head}  dropped (${timing}): ${why.replace(/^.*?delivery dropped because /, '')}`);
    return;
  }
  print(`${head}  → ${items.length} Zap item${items.length === 1 ? '' : 's'} (${timing})`);
  for (const item of items) {
    const shown = await resolve(item);
    print(`    ${describe(shown.value as Item)}`);
    if (shown.resolved > 0) {
      print(
        `    (${shown.resolved} field${shown.resolved === 1 ? '' : 's'} resolved as Zapier resolves them when a later step uses them)`,
      );
    }
  }
};

/** A receiver on 127.0.0.1 standing in for Zapier's hook URL: it answers at once and hands each delivery on. */
const startReceiver = async (
  key: string,
  port: number,
  onDelivery: (delivery: ReceivedDelivery) => void,
): Promise<{ targetUrl: string; close: () => Promise<void> }> => {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      // Zapier answers at once and runs the Zap afterwards; so does this receiver.
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"status":"success"}');
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) {
        if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
      }
      onDelivery({
        method: req.method ?? 'POST',
        querystring: url.search.replace(/^\?/, ''),
        headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  return {
    targetUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/${encodeURIComponent(key)}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};

/** Subscribes `key` and handles deliveries until `stop()`. */
export const listen = async (options: ListenOptions): Promise<Listener> => {
  const { env, key, print } = options;
  const appTester = createAppTester(App);
  const authData = { ...env.authData };
  const inputData: Item = {
    ...(options.inputData ?? {}),
    ...(options.event ? { eventId: options.event.id } : {}),
  };
  const meta = { isLoadingSample: false, isFillingDynamicDropdown: false, isPopulatingDedupe: false };
  const label = (App.triggers?.[key]?.display as { label?: string } | undefined)?.label ?? key;
  operationOf('triggers', key);
  const appLogs = captureAppLogs();
  const resolve = pointerResolver(appTester, authData, meta);
  const call = (member: Parameters<typeof functionOf>[2], bundle: Item) =>
    appTester(functionOf('triggers', key, member), { authData, inputData, meta, ...bundle });

  let queue: Promise<void> = Promise.resolve();
  const handle = (delivery: ReceivedDelivery, subscribeData: SubscribeData): Promise<void> => {
    queue = queue.then(async () => {
      let parsed: Item = {};
      try {
        parsed = deliveryOf(delivery.body) as unknown as Item;
      } catch {
        // perform says what is wrong with it
      }
      const head = `${clock()}  ${String(parsed.type ?? 'delivery')} ${String(parsed.id ?? '')}`;
      appLogs.lines.length = 0;
      const started = performance.now();
      try {
        const result = await appTester(
          functionOf('triggers', key),
          hookBundle(delivery, { authData, inputData, subscribeData, meta }),
        );
        const ms = (performance.now() - started).toFixed(0);
        const lag = typeof parsed.createdAt === 'string' ? Date.now() - Date.parse(parsed.createdAt) : NaN;
        const timing = `${Number.isFinite(lag) ? `${lag} ms after the change, ` : ''}perform ${ms} ms`;
        const items = (Array.isArray(result) ? result : [result]) as Item[];
        await printRun(print, head, items, timing, appLogs.lines, resolve);
      } catch (error) {
        print(`${head}  the Zap run fails: ${error instanceof Error ? error.message : String(error)}`);
      }
    });
    return queue;
  };

  let subscribeData: SubscribeData | null = null;
  const pending: ReceivedDelivery[] = [];
  const receiver = await startReceiver(key, options.port ?? 0, (delivery) => {
    if (subscribeData) void handle(delivery, subscribeData);
    else pending.push(delivery);
  });
  const { targetUrl } = receiver;
  try {
    subscribeData = (await call('performSubscribe', { targetUrl })) as SubscribeData;
  } catch (error) {
    appLogs.restore();
    await receiver.close();
    throw error;
  }
  const subscribed = subscribeData;
  // What the Zap editor's "Test trigger" shows; it also loads what every later run reuses (the events list).
  try {
    const sample = await call('performList', {});
    const count = Array.isArray(sample) ? sample.length : 0;
    print(`Test data (the editor's "Test trigger"): ${count} recent item${count === 1 ? '' : 's'}`);
  } catch (error) {
    print(`Test data could not be read: ${problemText(error)}`);
  }
  for (const delivery of pending.splice(0)) void handle(delivery, subscribed);
  print(
    `Listening: ${label} (${key})${options.event ? ` for ${options.event.title}` : ', every event'}, ` +
      `subscription ${String(subscribed.id)}, deliveries to ${targetUrl}`,
  );

  let stopped = false;
  return {
    targetUrl,
    subscriptionId: String(subscribed.id),
    settled: () => queue,
    stop: async () => {
      if (stopped) return;
      stopped = true;
      await queue;
      try {
        await call('performUnsubscribe', { subscribeData: subscribed });
        print(`Unsubscribed ${String(subscribed.id)}.`);
      } catch (error) {
        print(
          `Could not unsubscribe ${String(subscribed.id)}: ${error instanceof Error ? error.message : String(error)}`,
        );
      } finally {
        appLogs.restore();
        await receiver.close();
      }
    },
  };
};

const main = async (): Promise<void> => {
  const print = (line: string) => void process.stdout.write(`${line}\n`);
  const args = parseArgs(process.argv.slice(2));
  const [key, ...eventWords] = args.positional;
  const keys = instantTriggerKeys();
  const asksHelp = Boolean(args.flags.help) || key === 'help';
  if (!key || asksHelp) {
    print(`${HELP}\n\nInstant triggers: ${keys.join(', ')}`);
    if (!asksHelp) process.exitCode = 2;
    return;
  }
  if (!keys.includes(key)) {
    throw new UsageError(
      `"${key}" is not an instant trigger of this app. Instant triggers: ${keys.join(', ')}.`,
    );
  }
  let inputData: Item = {};
  const raw = args.flags.input;
  if (typeof raw === 'string') {
    try {
      inputData = JSON.parse(raw) as Item;
    } catch {
      throw new UsageError(`--input must be JSON, for example --input '{"changes":"published"}', not ${raw}`);
    }
  }
  const port = typeof args.flags.port === 'string' ? Number(args.flags.port) : undefined;
  if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port <= 65535)) {
    throw new UsageError(`--port must be 0 to 65535, not ${String(args.flags.port)}.`);
  }
  const env = loadEnv();
  for (const [name, value] of Object.entries(env.vars)) process.env[name] ??= value;
  await ensureSandbox(env);
  const event = eventWords.length > 0 ? await findEvent(env, eventWords.join(' ')) : undefined;
  const listener = await listen({ env, key, event, inputData, port, print });
  print(
    `Waiting for deliveries; in another terminal: ${simulationHint(key, event, inputData)}. Ctrl+C stops and unsubscribes.`,
  );

  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    listener.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
};

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(problemText(error));
    process.exit(1);
  });
}
