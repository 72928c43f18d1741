// Where a page's first load spends its main-thread time: a CPU profile of the page loaded cold, its samples
// attributed through the build's source maps to source files and functions.
//   cd apps/web && npx vite build --sourcemap --outDir /tmp/sm-web --emptyOutDir && cd ../.. &&
//   WEB_DIST=/tmp/sm-web npx tsx bench/profile-page.ts [list|overview]
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { SourceMapConsumer } from 'source-map-js';
import { createWeighedPlant, signedInState, weighedPages } from '../e2e/support/weight.js';
import { startWeighedServer, WEB_DIST } from './weighed-server.js';

const require = createRequire(join(process.cwd(), 'e2e/package.json'));
const { chromium } = require('playwright-core') as typeof import('playwright-core');

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const which = process.argv[2] ?? 'list';
const server = await startWeighedServer();
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
try {
  const pages = weighedPages(await createWeighedPlant(server));
  const target = which === 'overview' ? pages.signedIn[1] : pages.signedIn[0];
  if (!target) throw new Error('no such page');
  const state = await signedInState(browser, server.url);
  const context = await browser.newContext({ storageState: state });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  const started = Date.now();
  const requests: string[] = [];
  if (process.env.WATERFALL === '1') {
    page.on('request', (r) => requests.push(`${String(Date.now() - started).padStart(5)} → ${r.url().replace(server.url, '')}`));
    page.on('requestfinished', (r) => requests.push(`${String(Date.now() - started).padStart(5)} ✓ ${r.url().replace(server.url, '')}`));
  }
  await page.goto(`${server.url}${target.path}`);
  await page.locator(target.ready).first().waitFor();
  console.log(`${target.name}: shown after ${Date.now() - started} ms`);
  // Then until the main thread has been idle for 1 s (long tasks observed in the page).
  await page.evaluate(`new Promise((resolve) => {
    let last = performance.now();
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) last = Math.max(last, e.startTime + e.duration);
    }).observe({ type: 'longtask', buffered: true });
    const check = () => (performance.now() - last > 1000 ? resolve() : setTimeout(check, 100));
    check();
  })`);
  console.log(`${target.name}: quiet after ${Date.now() - started} ms`);
  if (requests.length) console.log(requests.join('\n'));
  const { profile } = (await cdp.send('Profiler.stop')) as { profile: Profile };
  const selfMs = new Map<number, number>();
  profile.samples.forEach((sample, i) => {
    selfMs.set(sample, (selfMs.get(sample) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  const consumers = new Map<string, SourceMapConsumer | null>();
  const consumer = (url: string) => {
    if (!consumers.has(url)) {
      const m = /\/assets\/([^/?#]+\.js)$/.exec(url);
      let c: SourceMapConsumer | null = null;
      if (m) {
        try {
          c = new SourceMapConsumer(JSON.parse(readFileSync(join(WEB_DIST, 'assets', `${m[1]}.map`), 'utf8')));
        } catch {
          c = null;
        }
      }
      consumers.set(url, c);
    }
    return consumers.get(url) ?? null;
  };
  /** Where a profile node's code is: its source file and its function there (through the chunk's source map). */
  const place = (node: ProfileNode): { file: string; name: string } => {
    const f = node.callFrame;
    const name = f.functionName || '(anonymous)';
    const c = f.url ? consumer(f.url) : null;
    const pos = c?.originalPositionFor({ line: f.lineNumber + 1, column: f.columnNumber });
    if (pos?.source) {
      const file = pos.source.replace(/^.*node_modules\//, 'nm/').replace(/^(\.\.\/)+/, '');
      return { file, name: `${pos.name ?? name} ${file}:${pos.line}` };
    }
    return { file: f.url ? f.url.replace(server.url, '') : f.functionName || '(native)', name };
  };
  const byFile = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let total = 0;
  for (const node of profile.nodes) {
    const ms = selfMs.get(node.id) ?? 0;
    if (ms === 0) continue;
    total += ms;
    const { file, name } = place(node);
    byFile.set(file, (byFile.get(file) ?? 0) + ms);
    byFunction.set(name, (byFunction.get(name) ?? 0) + ms);
  }
  // Long tasks: runs of samples with no idle between them, over 50 ms, with the page's own functions on their stacks.
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const nodeById = new Map(profile.nodes.map((n) => [n.id, n]));
  const label = (node: ProfileNode) => place(node).name;
  let t = 0;
  interface Run {
    start: number;
    ms: number;
    frames: Map<string, number>;
    roots: Map<string, number>;
    self: Map<string, number>;
  }
  let run: Run | null = null as Run | null;
  const runs: Run[] = [];
  for (const [i, sample] of profile.samples.entries()) {
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    t += ms;
    const node = nodeById.get(sample);
    const idle = !node || node.callFrame.functionName === '(idle)';
    if (idle) {
      if (run && run.ms > 50) runs.push(run);
      run = null;
      continue;
    }
    run ??= { start: t, ms: 0, frames: new Map(), roots: new Map(), self: new Map() };
    const { file } = place(node);
    run.self.set(file, (run.self.get(file) ?? 0) + ms);
    run.ms += ms;
    const seen = new Set<string>();
    let id: number | undefined = node.id;
    let outermost = '';
    while (id !== undefined) {
      const n = nodeById.get(id);
      if (!n) break;
      const l = label(n);
      if (l !== '(root)' && l !== '(anonymous)') outermost = l;
      if (l.includes('apps/web/src') && !seen.has(l)) {
        seen.add(l);
        run.frames.set(l, (run.frames.get(l) ?? 0) + ms);
      }
      id = parent.get(id);
    }
    run.roots.set(outermost, (run.roots.get(outermost) ?? 0) + ms);
  }
  if (run && run.ms > 50) runs.push(run);
  for (const r of runs) {
    const best = (m: Map<string, number>, n: number) =>
      [...m.entries()]
        .sort((a, b) => b[1] - a[1])
        .slice(0, n)
        .map(([k, v]) => `${k} (${v.toFixed(0)})`)
        .join('; ');
    console.log(
      `long task at ${r.start.toFixed(0)} ms: ${r.ms.toFixed(0)} ms\n    entry: ${best(r.roots, 2)}\n    app: ${best(r.frames, 6)}\n    self: ${best(r.self, 6)}`,
    );
  }
  const top = (m: Map<string, number>, n: number) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, v]) => `  ${v.toFixed(0).padStart(6)} ms  ${k}`)
      .join('\n');
  console.log(`sampled ${total.toFixed(0)} ms\nby source file:\n${top(byFile, 40)}\nby function:\n${top(byFunction, 40)}`);
  await context.close();
} finally {
  await browser.close();
  await server.close();
}
