import { SEED_TENANTS, startSandbox, type Deviation } from '/work/wt/kit/sandbox';
import { main } from '/work/wt/kit/scripts/conformance';
(async () => {
  const deviations = (process.argv[2] ?? '').split(',').filter(Boolean) as Deviation[];
  const extra = process.argv.slice(3);
  const sandbox = await startSandbox({ deviations });
  const t = SEED_TENANTS[0];
  try {
    const code = await main(['--base-url', sandbox.url, '--api-key', t.apiKey, '--company', t.companyId, ...extra], { out: process.stdout, err: process.stderr });
    console.log('exit', code);
  } finally { await sandbox.close(); }
})();
