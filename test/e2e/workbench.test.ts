/**
 * `npm run listen` and `npm run simulate` against a running sandbox, as a developer uses them: the `.env` the
 * sandbox writes, an instant trigger subscribed through the app, changes caused through the simulation API,
 * each delivery run through the trigger's `perform` and printed, and the subscription removed on stop.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startSandbox, type RunningSandbox } from '../../sandbox';
import { envLines } from '../../sandbox/cli';
import {
  instantTriggerKeys,
  listen,
  simulationFor,
  simulationHint,
  type Listener,
} from '../../scripts/listen';
import { simulate } from '../../scripts/simulate';
import { findEvent, loadEnv, parseEnv, problemText, UsageError } from '../../scripts/lib/workbench';
import { NORTHWIND, simulate as service } from '../support/sandbox';

let sandbox: RunningSandbox;
let dir: string;
let envFile: string;

beforeAll(async () => {
  sandbox = await startSandbox();
  dir = mkdtempSync(path.join(os.tmpdir(), 'workbench-'));
  envFile = path.join(dir, '.env');
  writeFileSync(envFile, `${envLines(sandbox.url, 1).join('\n')}\n`);
});

afterAll(async () => {
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs `npm run simulate -- …args` in-process and returns what it printed. */
const run = async (...args: string[]): Promise<string[]> => {
  const lines: string[] = [];
  await simulate(args, (line) => lines.push(line), envFile);
  return lines;
};

/** Resolves once a printed line matches `pattern` (every line is checked, also those printed before). */
const printed = (lines: string[], pattern: RegExp, timeoutMs = 300_000): Promise<string> =>
  new Promise((resolve, reject) => {
    const started = Date.now();
    const tick = () => {
      const found = lines.find((line) => pattern.test(line));
      if (found) resolve(found);
      else if (Date.now() - started > timeoutMs)
        reject(new Error(`nothing matched ${String(pattern)}:\n${lines.join('\n')}`));
      else setTimeout(tick, 20);
    };
    tick();
  });

describe('listen', () => {
  let listener: Listener | undefined;
  const lines: string[] = [];
  afterEach(async () => {
    await listener?.stop();
    listener = undefined;
  });

  it('prints a New Registration item for each registration the service sends, and unsubscribes on stop', async () => {
    const env = loadEnv(envFile);
    const event = await findEvent(env, 'techweek');
    listener = await listen({ env, key: 'new_registration', event, print: (line) => lines.push(line) });
    expect(lines.join('\n')).toMatch(
      /^Listening: New Registration \(new_registration\) for TechWeek Paris 2026/m,
    );
    const hooks = await service<{ data: { id: string; eventId: string }[] }>(
      sandbox,
      NORTHWIND,
      'GET',
      '/_sandbox/hooks',
    );
    expect(hooks.data).toEqual([expect.objectContaining({ id: listener.subscriptionId, eventId: event.id })]);

    const did = await run(
      'register',
      '--event',
      'techweek-paris-2026',
      '--email',
      'ada@example.com',
      '--first',
      'Ada',
      '--last',
      'Lovelace',
    );
    expect(did[0]).toMatch(
      /^Registered Ada Lovelace <ada@example.com> for TechWeek Paris 2026: sub_\w+ \(pending\)$/,
    );
    expect(did).toContain('  sends FORM_SUBMISSION');
    const head = await printed(
      lines,
      /FORM_SUBMISSION dlv_\w+ {2}→ 1 Zap item \(\d+ ms after the change, perform \d+ ms\)$/,
    );
    const item = lines.slice(lines.indexOf(head) + 1).join('\n');
    expect(item).toContain('"email": "ada@example.com"');
    expect(item).toContain('"fullName": "Ada Lovelace"');
    expect(item).toContain('"eventTitle": "TechWeek Paris 2026"');
    expect(item).toContain('"answers__company"');

    // A delivery that is not signed with the subscription's secret is dropped, and the reason is shown.
    await fetch(listener.targetUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Connect-Signature': `sha256=${'0'.repeat(64)}` },
      body: JSON.stringify({
        id: 'dlv_forged',
        type: 'FORM_SUBMISSION',
        createdAt: new Date().toISOString(),
        data: {},
      }),
    });
    await printed(lines, /FORM_SUBMISSION dlv_forged {2}dropped \(.*\): .*signature/);

    await listener.stop();
    listener = undefined;
    expect(lines.at(-1)).toMatch(/^Unsubscribed hook_\w+\.$/);
    const left = await service<{ data: unknown[] }>(sandbox, NORTHWIND, 'GET', '/_sandbox/hooks');
    expect(left.data).toEqual([]);
  });

  it.each(instantTriggerKeys())(
    '%s: the simulation it suggests makes the service send what fires it',
    async (key) => {
      const env = loadEnv(envFile);
      const event = await findEvent(env, 'techweek');
      const seen: string[] = [];
      listener = await listen({ env, key, event, print: (line) => seen.push(line) });
      const { commands } = simulationFor(key, event);
      for (const command of commands) await run(...command.split(' '));
      const head = await printed(seen, / {2}→ \d+ Zap items? \(/);
      await listener.settled();
      const item = seen.slice(seen.indexOf(head) + 1).join('\n');
      // Attendee fields of payments are printed resolved, never as pointers.
      expect(item).not.toContain('hydrate|||');
      if (key.startsWith('payment_')) {
        expect(item).toMatch(/"attendeeFound": true/);
        expect(item).toMatch(/"attendeeEmail": "[^"]+@example\.com"/);
        expect(item).toMatch(/\(\d+ fields resolved as Zapier resolves them when a later step uses them\)/);
      }
    },
  );

  it('suggests, without an event, a simulation that fires the trigger, and never register for a payment', () => {
    expect(simulationHint('new_registration')).toBe('npm run simulate -- register (sends FORM_SUBMISSION)');
    expect(simulationHint('payment_failed')).toBe(
      'npm run simulate -- register --status approved, then npm run simulate -- fail (sends PAYMENT_FAILED)',
    );
    expect(simulationHint('event_published')).toBe(
      'npm run simulate -- publish (sends EVENT_CREATED and EVENT_PUBLISHED)',
    );
    expect(simulationHint('event_changed', undefined, { changes: 'unpublished' })).toMatch(
      /unpublish <the slug publish printed> \(sends EVENT_UNPUBLISHED\)$/,
    );
    for (const key of instantTriggerKeys().filter((k) => k !== 'new_registration')) {
      expect(simulationFor(key).commands.at(-1)).not.toMatch(/^register/);
    }
  });

  it('knows a simulation for every instant trigger of the app, by the kind it subscribes to', () => {
    const keys = instantTriggerKeys();
    expect(keys).toContain('new_registration');
    for (const key of keys) expect(simulationFor(key).commands).not.toEqual(['help']);
    expect(simulationFor('new_event').commands).toEqual(['help']);
  });
});

describe('simulate', () => {
  it('walks a registration through approval, payment, refund and the door, saying what each sends', async () => {
    const registered = await run('register', '--event', 'techweek', '--status', 'pending');
    const id = /: (sub_\w+) \(pending\)$/.exec(registered[0] ?? '')?.[1] as string;
    expect(id).toBeDefined();
    const approved = await run('approve', '--event', 'techweek');
    expect(approved[0]).toMatch(new RegExp(`^Approved .* \\(${id}\\): QR code EVT1:\\w+:${id}:\\w{4}$`));
    expect(approved[1]).toBe('  sends FORM_SUBMISSION_APPROVED');
    expect((await run('pay', '--event', 'techweek', '--amount', '49.50'))[0]).toMatch(
      new RegExp(`^Payment succeeded for .*: order ord_\\w+, 49.50 EUR, payment pay_\\w+$`),
    );
    const refunded = await run('refund');
    expect(refunded[0]).toMatch(
      new RegExp(`^Refunded order ord_\\w+ \\(49.50 EUR\\) of registration ${id}$`),
    );
    const scanned = await run('scan', id);
    expect(scanned).toEqual([
      expect.stringMatching(new RegExp(`^Checked in .* \\(${id}\\) at `)),
      '  sends ATTENDANT_CHECKED_IN',
    ]);
    const submission = await service<{ status: string; checkedInAt: string | null }>(
      sandbox,
      NORTHWIND,
      'GET',
      `/_sandbox/submissions/${id}`,
    );
    expect(submission.status).toBe('approved');
    expect(submission.checkedInAt).not.toBeNull();
    expect((await run('scan', id))[0]).toMatch(/was already checked in at .*: sends nothing$/);
  });

  it('publishes a new event and books a booth that the map then shows', async () => {
    const published = await run('publish', '--title', 'Workbench Night');
    expect(published[0]).toMatch(
      /^Created and published Workbench Night \(workbench-night, [0-9a-f-]{36}\)$/,
    );
    const booked = await run('book', 'A01', '--event', 'techweek');
    expect(booked[0]).toMatch(
      /^Booth A01 of plan_main \(TechWeek Paris 2026\) is now booked; plan published as version \d+$/,
    );
    const mapUrl = /shows it at (\S+)$/.exec(booked[1] ?? '')?.[1] as string;
    const page = await (await fetch(mapUrl)).text();
    expect(page).toContain('data-booth="A01" data-status="booked"');
  });

  it('rotates the newest subscription secret, then retires the previous one', async () => {
    const hook = await service<{ id: string; secret: string }>(
      sandbox,
      NORTHWIND,
      'POST',
      '/api/v1/integrations/zapier/hooks',
      // A secret of the client's own for a service that takes it from the request (`client-secret`).
      sandbox.wire.requestBody({
        targetUrl: 'http://127.0.0.1:9/unused',
        event: 'EVENT_*',
        secret: 'whsec_workbench_rotation_0001',
      }),
    );
    const rotated = await run('rotate');
    expect(rotated[0]).toMatch(
      new RegExp(`^Rotated the signing secret of subscription ${hook.id}: new whsec_\\w+$`),
    );
    const hooks = await service<{ data: { id: string; secret: string; previousSecret: string | null }[] }>(
      sandbox,
      NORTHWIND,
      'GET',
      '/_sandbox/hooks',
    );
    expect(hooks.data.find((h) => h.id === hook.id)?.previousSecret).toBe(hook.secret);
    expect((await run('expire'))[0]).toMatch(
      new RegExp(`^Retired the previous signing secret of subscription ${hook.id}`),
    );
    await service(sandbox, NORTHWIND, 'DELETE', `/api/v1/integrations/zapier/hooks/${hook.id}`);
  });

  it('deletes an event by its slug: the service answers 404 for it afterwards', async () => {
    const published = await run('publish', '--title', 'Short-lived Meetup');
    const slug = /\(([^,]+), ([^)]+)\)$/.exec(published[0] ?? '')?.[1] as string;
    const id = /\(([^,]+), ([^)]+)\)$/.exec(published[0] ?? '')?.[2] as string;
    const lines = await run('delete', slug);
    expect(lines).toEqual([
      `Deleted Short-lived Meetup (${slug}, ${id})`,
      '  sends EVENT_DELETED; the service now answers 404 for it, and its tickets no longer check in',
    ]);
    await expect(run('delete', slug)).rejects.toThrow(/^No event of this organizer matches/);
    await expect(run('delete')).rejects.toThrow(
      'Name the event to delete: npm run simulate -- delete <slug>',
    );
  });

  it('shows the latest deliveries with their bodies and signatures', async () => {
    const lines = await run('deliveries', '--bodies');
    expect(lines.at(-1)).toMatch(/^\d+ attempts in all, \d+ deliveries still pending$/);
  });

  it('says what is wrong in words: unknown action, unknown event, a refusal, no .env, no sandbox', async () => {
    await expect(run('teleport')).rejects.toThrow(/^Unknown action "teleport"\. Actions: register, approve/);
    await expect(run('register', '--event', 'no such thing')).rejects.toThrow(
      /^No event of this organizer matches "no such thing"\. Name one by its ID, its slug or words of its title:\n.*^ {2}techweek-paris-2026 {2}\(published\)$/ms,
    );
    await expect(run('register', '--status', 'maybe')).rejects.toThrow(
      '--status must be pending or approved, not "maybe".',
    );
    const refusal = await run('approve', 'sub_nope').catch((error: unknown) => problemText(error));
    expect(refusal).toBe(
      'The sandbox answered 404 to GET /_sandbox/submissions/sub_nope: Submission not found',
    );
    expect((await run('help'))[0]).toMatch(/^usage: npm run simulate -- <action>/);

    const missing = path.join(dir, 'missing.env');
    await expect(simulate(['register'], () => undefined, missing)).rejects.toThrow(
      /^No .*missing\.env found\. Start the sandbox first with `npm run sandbox`/,
    );
    const stale = path.join(dir, 'stale.env');
    writeFileSync(stale, `${envLines('http://127.0.0.1:9', 1).join('\n')}\n`);
    await expect(simulate(['register'], () => undefined, stale)).rejects.toThrow(
      'Nothing answers at http://127.0.0.1:9 (from .env). Start the sandbox with `npm run sandbox` in another terminal.',
    );
    expect(new UsageError('x').name).toBe('UsageError');
  });
});

it('reads .env lines as zapier-platform invoke does', () => {
  expect(parseEnv('# comment\nauthData_apiKey=k\nexport A="b c"\nB=\'d\'\n\nbroken\n')).toEqual({
    authData_apiKey: 'k',
    A: 'b c',
    B: 'd',
  });
});
