/**
 * `npm start`'s journey, run in-process against the embedded sandbox: every step must pass, and the steps
 * that prove the promises of the integration (exactly-once, tamper-proof, idempotent check-in, clear errors)
 * must say what they did.
 */
import { runJourney } from '../../scripts/journey';
import { instantTriggerKeys } from '../../scripts/lib/app';
import { SHOWN_PLAN } from '../../scripts/lib/showcase';

it('runs the whole journey, every step passing', async () => {
  const lines: string[] = [];
  const result = await runJourney({ out: { line: (text) => lines.push(text), color: false } });
  const failed = result.rows.filter((row) => !row.ok).map((row) => `${row.step}: ${row.detail}`);
  expect(failed).toEqual([]);
  expect(result.ok).toBe(true);

  const detail = (step: string) => result.rows.find((row) => row.step.startsWith(step))?.detail ?? '';
  expect(detail('Test the connection')).toMatch(
    /^shown as "Event Platform Connect Company cmp_northwind on 127\.0\.0\.1:\d+"$/,
  );
  expect(detail('The same delivery retried')).toMatch(/already processed/);
  expect(detail('A tampered delivery')).toMatch(/signature matches neither/);
  expect(detail('Zapier replays the same step')).toMatch(/nobody checked in twice/);
  expect(detail('A volunteer scans her badge again')).toMatch(/alreadyCheckedIn: true/);
  expect(detail('Check-in on a plan without QR check-in')).toMatch(
    /Your plan does not include the QR Check-in feature/,
  );
  expect(detail('No subscription is left')).toBe('0 subscriptions');
  expect(detail('New Form Submission polls')).toMatch(/^3 new .*same fields as the instant trigger/);
  expect(detail('Alan registers while the service fails')).toMatch(/poll failed: .*HTTP 500/);
  expect(detail('The next poll catches up')).toMatch(/Alan Turing/);
  expect(detail('The organizer rotates the hook’s secret')).toMatch(
    /new secret, the old one retired at once$/,
  );
  expect(detail('Alan is approved: the Zap still runs')).toMatch(
    /^1 run after 1 read of the subscription's current secret · Alan Turing <alan@example\.com> · approved/,
  );
  expect(detail('A forged delivery after the rotation')).toBe(
    'runs nothing (halted: the secret was checked less than a minute ago), and no second read of the secret (1 in all)',
  );
  expect(detail('A delivery signed with the retired secret')).toBe(
    'runs nothing: dated after the rotation, so the old secret no longer vouches for it',
  );
  expect(detail('A booth is booked')).toMatch(/cached v\d+ "available" → bypassed v\d+ "booked"/);
  // The plan found, booked and embedded is the one npm start's screenshots show.
  expect(detail('Find Floor Plan')).toMatch(new RegExp(`^"${SHOWN_PLAN.name}" v\\d+`));
  expect(detail('Floor plan map iframe')).toContain(`/map/${SHOWN_PLAN.planId}?`);
  expect(result.rows.filter((row) => / runs its Zap$/.test(row.step))).toHaveLength(
    instantTriggerKeys().length,
  );
  expect(lines.at(-1)).toMatch(/^✔ Journey complete: \d+ steps passed, 0 failed/);
  expect(lines.join('\n')).not.toContain('sk_sandbox_');
});
