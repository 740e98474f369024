/**
 * The integration's main job, end to end, on the embedded sandbox: the app's own operations run as Zapier
 * runs them (through `createAppTester`), against a local Connect server over real HTTP.
 *
 * connect → dropdowns → polling triggers → instant triggers subscribe → registration, approval, payment and
 * door check-in happen in the service → each signed delivery reaches its trigger's `perform` in Zapier's
 * `rawRequest` form → a replayed and a tampered delivery are dropped → check-in twice → polls → a hook's
 * secret rotated and the old one retired: the next delivery still runs, a forgery does not → searches →
 * embed code → bad input → unsubscribe.
 */
import { type PerformFunction, createAppTester } from 'zapier-platform-core';
import App from '../../index';
import { type Deviation, type RunningSandbox, startSandbox } from '../../sandbox';
import { type HookReceiver, startHookReceiver } from '../lib/hookRequest';
import { NORTHWIND, journeyOf } from './context';
import { type Printer, Runner } from './runner';
import { checkInAtDoor, registerAndPay } from './service';
import { connectAccount, publishEvent, turnZapsOn } from './setup';
import { badInput, embedCode, searchSteps, turnZapsOff } from './steps';
import { pollZaps, rotatedSecret, runInstantZaps } from './zaps';

export interface JourneyResult {
  ok: boolean;
  rows: Runner['rows'];
  seconds: number;
}

export interface JourneyOptions {
  out: Printer;
  /** The sandbox's deviation switches (a service speaking another dialect); none by default. */
  deviations?: readonly Deviation[];
}

/** 1. The service: an embedded Connect sandbox and a local stand-in for Zapier's hook URLs. */
const startService = async (run: Runner, deviations: readonly Deviation[]) => {
  run.heading('1. The service', 'an embedded Connect sandbox on 127.0.0.1, seeded with three organizers');
  const sandbox = await run.step('Start the Connect sandbox', async () => {
    const value = await startSandbox({
      port: 0,
      delivery: { baseDelayMs: 20, maxDelayMs: 200, timeoutMs: 2_000 },
      deviations,
    });
    return { detail: `${value.url} · organizer "${NORTHWIND.name}"`, value };
  });
  const receiver = await run.step('Start a local stand-in for Zapier hooks', async () => {
    const value = await startHookReceiver();
    return { detail: value.targetUrl('<trigger>').replace('%3Ctrigger%3E', '<trigger>'), value };
  });
  return { sandbox, receiver };
};

export const runJourney = async ({ out, deviations = [] }: JourneyOptions): Promise<JourneyResult> => {
  const started = performance.now();
  const run = new Runner(out);
  const appTester = createAppTester(App);
  const call = (fn: PerformFunction, bundle: Record<string, unknown>): Promise<unknown> =>
    appTester(fn, bundle);

  // The app's own log lines (why a delivery was dropped, …) are collected, not printed over the table.
  const appLogs: string[] = [];
  const consoleLog = console.log;
  const logToStdout = process.env.LOG_TO_STDOUT;
  process.env.LOG_TO_STDOUT = 'true';
  console.log = (...args: unknown[]) => appLogs.push(args.map(String).join(' '));

  let sandbox: RunningSandbox | undefined;
  let receiver: HookReceiver | undefined;
  try {
    ({ sandbox, receiver } = await startService(run, deviations));
    if (!sandbox || !receiver) throw new Error('the sandbox or the receiver did not start');
    const j = journeyOf(run, call, appLogs, sandbox, receiver);
    await connectAccount(j);
    const { seededEventId, newEventZap, paidOrderZap } = await turnZapsOn(j);
    const { eventId, submissionZap } = await publishEvent(j);
    const attendees = await registerAndPay(j, eventId);
    await checkInAtDoor(j, eventId, attendees);
    await runInstantZaps(j);
    const { alanId } = await pollZaps(j, eventId, { newEventZap, submissionZap, paidOrderZap });
    await rotatedSecret(j, alanId);
    const plan = await searchSteps(j, { eventId, adaId: attendees.adaId, seededEventId });
    await embedCode(j, seededEventId, plan);
    await badInput(j);
    await turnZapsOff(j);
  } finally {
    console.log = consoleLog;
    if (logToStdout === undefined) delete process.env.LOG_TO_STDOUT;
    else process.env.LOG_TO_STDOUT = logToStdout;
    await Promise.all([sandbox?.close(), receiver?.close()]);
  }

  const seconds = (performance.now() - started) / 1000;
  const failed = run.failed.length;
  out.line('');
  out.line(
    `${failed ? '✘' : '✔'} Journey ${failed ? 'failed' : 'complete'}: ${run.rows.length - failed} steps passed, ${failed} failed in ${seconds.toFixed(1)} s`,
  );
  return { ok: failed === 0, rows: run.rows, seconds };
};
