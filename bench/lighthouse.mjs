// Lighthouse (desktop preset) on the sign-in page, the plant list and a plant overview, each loaded cold
// (empty HTTP cache; the signed-in pages keep the administrator's session in local storage).
//   npm run build -w @sunward/web && CHROME_PATH=/usr/bin/chromium node --import tsx bench/lighthouse.mjs
// Uses the lighthouse npm package and Debian's chromium; nothing is downloaded. RUNS=3 (default) takes the median.
// LHR_DIR=dir writes each run's full report (JSON) there: its long-tasks, bootup-time and mainthread audits say where the time goes.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { createWeighedPlant, signedInState, weighedPages } from '../e2e/support/weight.ts';
import { startWeighedServer } from './weighed-server.ts';

const require = createRequire(join(process.cwd(), 'e2e/package.json'));
const { chromium } = require('playwright-core');
const runs = Number(process.env.RUNS ?? 3);

const server = await startWeighedServer();
const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
  chromeFlags: [
    '--headless=new',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--no-first-run',
  ],
});
try {
  const pages = weighedPages(await createWeighedPlant(server));
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
  const context = browser.contexts()[0];
  const page = context.pages()[0] ?? (await context.newPage());
  const cdp = await context.newCDPSession(page);
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

  async function audit(target) {
    const results = [];
    for (let i = 0; i < runs; i++) {
      await cdp.send('Network.clearBrowserCache');
      const result = await lighthouse(
        `${server.url}${target.path}`,
        { port: chrome.port, output: 'json', logLevel: 'error', disableStorageReset: true, onlyCategories: ['performance'] },
        desktopConfig,
      );
      const a = result.lhr.audits;
      if (process.env.LHR_DIR) {
        const { writeFileSync } = await import('node:fs');
        writeFileSync(join(process.env.LHR_DIR, `${target.name.replace(/\W+/g, '-')}-${i}.json`), JSON.stringify(result.lhr));
      }
      results.push({
        score: Math.round(result.lhr.categories.performance.score * 100),
        fcp: a['first-contentful-paint'].numericValue,
        lcp: a['largest-contentful-paint'].numericValue,
        tbt: a['total-blocking-time'].numericValue,
        cls: a['cumulative-layout-shift'].numericValue,
        si: a['speed-index'].numericValue,
        shown: new URL(result.lhr.finalDisplayedUrl).pathname,
      });
    }
    const m = (key) => median(results.map((r) => r[key]));
    console.log(
      `${target.name.padEnd(24)} performance ${String(m('score')).padStart(3)}  FCP ${Math.round(m('fcp'))} ms  LCP ${Math.round(m('lcp'))} ms  TBT ${Math.round(m('tbt'))} ms  CLS ${m('cls').toFixed(3)}  SI ${Math.round(m('si'))} ms   (scores ${results.map((r) => r.score).join(', ')}; shown ${results[0].shown})`,
    );
  }

  console.log('Lighthouse desktop, median of', runs, 'cold runs');
  // Signed out first; then the administrator's session goes into the browser's local storage (signed in
  // through the form in a separate browser) and the signed-in pages are audited with it.
  await audit(pages.signIn);
  const launched = await chromium.launch({ executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
  const state = await signedInState(launched, server.url);
  await launched.close();
  await page.goto(`${server.url}/login`);
  await page.evaluate((origins) => {
    for (const { name, value } of origins.flatMap((o) => o.localStorage)) localStorage.setItem(name, value);
  }, state.origins);
  for (const target of pages.signedIn) await audit(target);
  await browser.close().catch(() => {});
} finally {
  await chrome.kill();
  await server.close();
}
