// Measures what the sign-in page loads: every script and stylesheet the browser fetches for /login,
// with its gzip size (level 9) and the bytes actually transferred (the server sends precompressed br).
// Usage: npm run build && node bench/login-bundle.mjs

import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const require = createRequire(join(process.cwd(), 'e2e/package.json'));
const { chromium } = require('playwright-core');
const dist = join(process.cwd(), 'apps/web/dist');

const dataDir = mkdtempSync(join(tmpdir(), 'sunward-bench-'));
const server = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
  env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, ADMIN_PASSWORD: 'Bench-Password-1', LOG_LEVEL: 'warn' },
  stdio: ['ignore', 'pipe', 'inherit'],
});
const url = await new Promise((resolve, reject) => {
  let out = '';
  server.stdout.on('data', (chunk) => {
    out += chunk;
    const match = out.match(/running at (http:\/\/localhost:\d+)/);
    if (match) resolve(match[1]);
  });
  server.once('exit', () => reject(new Error('server exited')));
});

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
});
const page = await browser.newPage();
const assets = [];
page.on('response', async (response) => {
  const path = new URL(response.url()).pathname;
  if (!/\.(js|css)$/.test(path)) return;
  const sizes = await response.request().sizes();
  const gzip = gzipSync(readFileSync(join(dist, path)), { level: 9 }).length;
  assets.push({ path, gzip, transferred: sizes.responseBodySize, encoding: response.headers()['content-encoding'] ?? 'identity' });
});
const started = performance.now();
await page.goto(`${url}/login`);
await page.getByTestId('login-submit').waitFor();
const readyMs = Math.round(performance.now() - started);
await page.waitForLoadState('networkidle');
await browser.close();
server.kill('SIGTERM');

if (process.env.DETAIL)
  for (const a of assets.sort((x, y) => y.gzip - x.gzip)) console.log(`${(a.gzip / 1024).toFixed(1).padStart(7)} KB  ${a.path}`);
const sum = (kind, field) => assets.filter((a) => a.path.endsWith(kind)).reduce((n, a) => n + a[field], 0);
console.log(
  `sign-in page: ${assets.filter((a) => a.path.endsWith('.js')).length} scripts, ${assets.filter((a) => a.path.endsWith('.css')).length} stylesheets`,
);
console.log(
  `JavaScript gzip: ${(sum('.js', 'gzip') / 1024).toFixed(1)} KB   transferred (br): ${(sum('.js', 'transferred') / 1024).toFixed(1)} KB`,
);
console.log(`CSS gzip: ${(sum('.css', 'gzip') / 1024).toFixed(1)} KB`);
console.log(`form ready after ${readyMs} ms (loopback, cold browser)`);
const heavy = assets.filter((a) => /echarts|leaflet/i.test(a.path));
console.log(heavy.length ? `WARNING: sign-in loads ${heavy.map((a) => a.path).join(', ')}` : 'no chart or map code on the sign-in page');
