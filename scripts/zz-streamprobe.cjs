const path = require('node:path');
const { spawn } = require('node:child_process');
const [outDir, scenFile, at, mode] = process.argv.slice(2);
const scenario = require('fs').readFileSync(scenFile, 'utf8');
const root = '/work/main';
const { rushZ, bundle } = require(path.resolve(outDir, 'scripts/lib/pollPlay.js'));
const { FakeCache } = require(path.resolve(outDir, 'scripts/lib/fakeCache.js'));
const api = require(path.resolve(outDir, 'src/connect/api.js'));
const http = require('node:http');
console.log = () => undefined;
const startService = () => new Promise((resolve) => {
  const child = spawn(process.execPath, [path.join(root, 'scripts/bench-poll-lone.cjs'), outDir, scenario, at, '', 'serve']);
  let out = '';
  child.stdout.on('data', (c) => { out += c; const m = /^SERVING (\S+)$/m.exec(out); if (m) resolve({ child, url: m[1] }); });
});
(async () => {
  const service = await startService();
  const answering = (target, raw) => new Promise((resolve) => {
    const { pathname, search } = new URL(target);
    http.get(`${service.url}${pathname}${search}`, { agent: false }, (res) => {
      const headers = { get: (n) => res.headers[n.toLowerCase()] ?? null };
      resolve({ status: res.statusCode, headers, body: res, text: async () => '' });
    });
  });
  const z = rushZ(answering, new FakeCache(() => Number(at)));
  const since = new Date(Number(at) - 24 * 3600e3).toISOString();
  let kept = []; const weak = new WeakMap();
  let n = 0;
  global.gc();
  const before = process.memoryUsage().rss;
  await api.readSubmissions(z, bundle({}), { eventId: '7d0c6f1e-2f6a-4a7e-9a51-3f0e1b2c4d5e', since }, (rec) => {
    n++;
    if (mode === 'hold') { kept.push(rec); if (kept.length > 600) kept.shift(); }
    if (mode === 'weak') weak.set(rec, 1);
  });
  service.child.kill();
  console.error(n, 'records; rss peak', (process.resourceUsage().maxRSS / 1024).toFixed(0), 'MiB, before', (before / 2 ** 20).toFixed(0));
})().catch((e) => { console.error(e); process.exit(1); });
