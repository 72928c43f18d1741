// Weight of a cold first load (issue 18): the JavaScript (gzip, level 9) the sign-in page, the plant list and a
// plant overview fetch until they show and stop fetching scripts, against the budgets the browser test enforces.
//   npm run build -w @sunward/web && npx tsx bench/page-weight.ts        (WEB_DIST=... to weigh another build)
//   DETAIL=1 lists every script.
import { launchBrowser } from '../e2e/support/browser.js';
import {
  createWeighedPlant,
  SIGN_IN_BUDGET_BYTES,
  SIGNED_IN_BUDGET_BYTES,
  signedInState,
  weighedPages,
  weighPage,
} from '../e2e/support/weight.js';
import { startWeighedServer, WEB_DIST as webDist } from './weighed-server.js';

const [server, browser] = await Promise.all([startWeighedServer(), launchBrowser()]);
try {
  const pages = weighedPages(await createWeighedPlant(server));
  const state = await signedInState(browser, server.url);
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  for (const [target, budget, storage] of [
    [pages.signIn, SIGN_IN_BUDGET_BYTES, undefined] as const,
    ...pages.signedIn.map((p) => [p, SIGNED_IN_BUDGET_BYTES, state] as const),
  ]) {
    const weight = await weighPage(browser, server.url, webDist, target, storage);
    const heavy = weight.scripts.filter((s) => /echarts|leaflet|Chart|Map|TileLayer/.test(s.path)).map((s) => s.path);
    console.log(
      `${target.name.padEnd(24)} ${kb(weight.gzip).padStart(9)} in ${String(weight.scripts.length).padStart(3)} scripts   budget ${kb(budget)}  ${weight.gzip <= budget ? 'ok' : 'OVER'}${heavy.length ? `   chart/map: ${heavy.join(', ')}` : ''}`,
    );
    if (process.env.DETAIL) for (const s of weight.scripts) console.log(`    ${kb(s.gzip).padStart(9)}  ${s.path}`);
  }
} finally {
  await browser.close();
  await server.close();
}
