/**
 * The day the real service answers, played against a sandbox with every switch of its dialect on: the kit
 * (`npm run conformance -- --write-dialect FILE`) writes the dialect it finds; the app, taught that text in
 * src/connect/dialect.ts, passes the whole journey against the sandbox, and the kit run again finds nothing
 * that differs.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SEED_TENANTS, startSandbox } from '../../sandbox';
import { main } from '../../scripts/conformance';
import { sameDialect } from '../../scripts/conformance/dialect';
import type * as Dialects from '../../src/connect/dialect';
import { captureDelivery } from '../support/capture';
import { EVERY_SWITCH, everyDialect, playsAnotherDialect } from '../support/serviceDialect';

type DialectModule = typeof Dialects;

/** The text `--write-dialect` wrote, evaluated as src/connect/dialect.ts would evaluate it once pasted. */
const pasted = (text: string, module: DialectModule): Dialects.Dialect => {
  const start = text.indexOf('{', text.indexOf('export const DIALECT: Dialect ='));
  const expression = text.slice(start).trim().replace(/;$/, '');
  const names = ['CONTRACT_DIALECT', 'SNAKE_CASE', 'CAMEL_CASE', 'UPPER_CASE', 'AS_IS', 'spelledBy'] as const;
  const evaluate = new Function(...names, `return (${expression});`) as (
    ...values: unknown[]
  ) => Dialects.Dialect;
  return evaluate(...names.map((name) => module[name]));
};

// Plays an app not yet taught, or taught another dialect: not played in another dialect (`CONNECT_TEST_DIALECT=every`,
// or any switch).
const play = playsAnotherDialect() ? it.skip : it;

play(
  'writes the dialect of a sandbox with every switch on; taught it, the app passes the journey and the kit finds nothing that differs',
  async () => {
    const sandbox = await startSandbox({ deviations: EVERY_SWITCH });
    const { apiKey, companyId } = SEED_TENANTS[0];
    try {
      const capture = await captureDelivery(sandbox);
      const file = path.join(mkdtempSync(path.join(tmpdir(), 'dialect-')), 'dialect.ts');
      // `--probe-turn-on` lets the kit see where a subscription's secret comes from (one refused POST).
      const args = [
        '--base-url',
        sandbox.url,
        '--api-key',
        apiKey,
        '--company',
        companyId,
        '--probe-turn-on',
      ];
      const withDelivery = [...args, '--delivery', capture.delivery, '--secret', capture.secret];
      const out: string[] = [];
      const streams = { out: { write: (text: string) => out.push(text) }, err: { write: () => true } };
      expect(await main([...withDelivery, '--write-dialect', file], streams)).toBe(1);
      for (const id of [
        'names',
        'envelope',
        'paging',
        'query',
        'spellings',
        'errors',
        'signature',
        'secret',
      ]) {
        expect(out.join('')).toContain(`dialect.${id}`);
      }

      const actual = jest.requireActual<DialectModule>('../../src/connect/dialect');
      const taught = pasted(readFileSync(file, 'utf8'), actual);
      expect(sameDialect(taught, everyDialect(actual))).toBe(true);

      jest.resetModules();
      jest.doMock('../../src/connect/dialect', () => ({ ...actual, DIALECT: taught }));
      const { runJourney } = await import('../../scripts/journey');
      const result = await runJourney({
        out: { line: () => undefined, color: false },
        deviations: EVERY_SWITCH,
      });
      expect(result.rows.filter((row) => !row.ok).map((row) => `${row.step}: ${row.detail}`)).toEqual([]);

      const { runConformance } = await import('../../scripts/conformance/index');
      const checks = await runConformance({
        baseUrl: sandbox.url,
        apiKey,
        companyId,
        probeTurnOn: true,
        ...capture,
      });
      expect(checks.filter((c) => c.status === 'differs' || c.status === 'unchecked')).toEqual([]);
      for (const id of ['paging', 'query', 'spellings', 'errors', 'signature', 'secret']) {
        expect(checks.find((c) => c.id === `dialect.${id}`)?.detail).toMatch(/The app was taught/);
      }
    } finally {
      await sandbox.close();
    }
  },
);
