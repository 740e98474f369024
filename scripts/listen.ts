/**
 * `npm run listen -- <instant trigger key> [event]`: turns an instant trigger of the app on against the
 * running sandbox (its `performSubscribe`, with a local receiver as the target URL), runs the trigger's
 * `perform` on every signed delivery exactly as Zapier hands it over (`rawRequest`), prints each Zap item,
 * or why a delivery was dropped, as it arrives, and turns the trigger off again on Ctrl+C. Like
 * `stripe listen`, for this integration.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAppTester } from 'zapier-platform-core';
import App from '../index';
import { type ReceivedDelivery, hookBundle } from './lib/hookRequest';
import { functionOf, operationOf } from './lib/app';
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
title words (default: every event). Then cause something: npm run simulate -- register`;

/** The app's instant (REST hook) triggers, by key. */
export const instantTriggerKeys = (): string[] =>
  Object.entries(App.triggers ?? {})
    .filter(([, t]) => (t.operation as { type?: string }).type === 'hook')
    .map(([key]) => key)
    .sort();

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

  // The app's log lines (why a delivery was dropped) are collected per run instead of printed raw.
  const appLogs: string[] = [];
  const consoleLog = console.log;
  const logToStdout = process.env.LOG_TO_STDOUT;
  process.env.LOG_TO_STDOUT = 'true';
  console.log = (...args: unknown[]) => appLogs.push(args.map(String).join(' '));
  const restoreConsole = () => {
    console.log = consoleLog;
    if (logToStdout === undefined) delete process.env.LOG_TO_STDOUT;
    else process.env.LOG_TO_STDOUT = logToStdout;
  };

  let queue: Promise<void> = Promise.resolve();
  const handle = (delivery: ReceivedDelivery, subscribeData: SubscribeData): Promise<void> => {
    queue = queue.then(async () => {
      let parsed: Item = {};
      try {
        parsed = JSON.parse(delivery.body) as Item;
      } catch {
        // perform says what is wrong with it
      }
      const head = `${clock()}  ${String(parsed.type ?? 'delivery')} ${String(parsed.id ?? '')}`;
      appLogs.length = 0;
      const started = performance.now();
      try {
        const result = await appTester(
          functionOf('triggers', key),
          hookBundle(delivery, {
            authData,
            inputData,
            subscribeData,
            meta,
          }),
        );
        const items = (Array.isArray(result) ? result : [result]) as Item[];
        const ms = (performance.now() - started).toFixed(0);
        const lag = typeof parsed.createdAt === 'string' ? Date.now() - Date.parse(parsed.createdAt) : NaN;
        const timing = `${Number.isFinite(lag) ? `${lag} ms after the change, ` : ''}perform ${ms} ms`;
        if (items.length === 0) {
          const why = appLogs.find((line) => line.includes('dropped')) ?? appLogs.at(-1) ?? 'no item';
          print(`${head}  dropped (${timing}): ${why.replace(/^.*?delivery dropped because /, '')}`);
        } else {
          print(`${head}  → ${items.length} Zap item${items.length === 1 ? '' : 's'} (${timing})`);
          for (const item of items) print(`    ${describe(item)}`);
        }
      } catch (error) {
        print(`${head}  the Zap run fails: ${error instanceof Error ? error.message : String(error)}`);
      }
    });
    return queue;
  };

  let subscribeData: SubscribeData | null = null;
  const pending: ReceivedDelivery[] = [];
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
      const delivery: ReceivedDelivery = {
        method: req.method ?? 'POST',
        querystring: url.search.replace(/^\?/, ''),
        headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      if (subscribeData) void handle(delivery, subscribeData);
      else pending.push(delivery);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', resolve);
  });
  const targetUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/${encodeURIComponent(key)}`;
  const closeServer = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });

  try {
    subscribeData = (await appTester(functionOf('triggers', key, 'performSubscribe'), {
      authData,
      inputData,
      targetUrl,
      meta,
    })) as SubscribeData;
  } catch (error) {
    restoreConsole();
    await closeServer();
    throw error;
  }
  const subscribed = subscribeData;
  // What the Zap editor's "Test trigger" shows; it also loads what every later run reuses (the events list).
  try {
    const sample = await appTester(functionOf('triggers', key, 'performList'), { authData, inputData, meta });
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
        await appTester(functionOf('triggers', key, 'performUnsubscribe'), {
          authData,
          inputData,
          subscribeData: subscribed,
          meta,
        });
        print(`Unsubscribed ${String(subscribed.id)}.`);
      } catch (error) {
        print(
          `Could not unsubscribe ${String(subscribed.id)}: ${error instanceof Error ? error.message : String(error)}`,
        );
      } finally {
        restoreConsole();
        await closeServer();
      }
    },
  };
};

const main = async (): Promise<void> => {
  const print = (line: string) => void process.stdout.write(`${line}\n`);
  const args = parseArgs(process.argv.slice(2));
  const [key, ...eventWords] = args.positional;
  const keys = instantTriggerKeys();
  if (!key || args.flags.help) {
    print(`${HELP}\n\nInstant triggers: ${keys.join(', ')}`);
    if (!key && !args.flags.help) process.exitCode = 2;
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
    'Waiting for deliveries; in another terminal: npm run simulate -- register. Ctrl+C stops and unsubscribes.',
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
