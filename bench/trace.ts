import type { Page } from 'playwright-core';

/**
 * With TRACE=1, prints every request the page makes with its start and finish time relative to `mark()`,
 * to see the waterfall of a page load.
 */
export function traceRequests(page: Page, baseURL: string): { mark(): void } {
  let start = 0;
  if (process.env.TRACE === '1') {
    page.on('request', (r) => console.log(`  ${(performance.now() - start).toFixed(0)} ms → ${r.url().replace(baseURL, '')}`));
    page.on('requestfinished', (r) => console.log(`  ${(performance.now() - start).toFixed(0)} ms ✓ ${r.url().replace(baseURL, '')}`));
  }
  return {
    mark() {
      start = performance.now();
    },
  };
}
