import { ADMIN, type TestServer } from '@sunward/server/test/harness';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousAccessibilityProblems } from './support/axe.js';
import { launchBrowser, openMenuEntry, openPage, signInThroughForm } from './support/browser.js';
import { startProduct } from './support/product.js';

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startProduct(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('background jobs page', () => {
  it('shows the platform administrator each job with its scope, interval and last result, and its recent runs', async () => {
    const { page, errors, context } = await openPage(browser, server.url);
    await signInThroughForm(page, ADMIN.account, ADMIN.password);
    await openMenuEntry(page, 'Management', 'Background jobs');
    await page.waitForURL('**/system/jobs');
    const table = page.getByTestId('jobs-table');
    await table.getByText('Sessions and sign-in counters clean-up').waitFor();
    await table.getByText('Batch task waves').waitFor();
    // The batch scheduler runs every second: its last run is there by the page's next refresh at the latest.
    await page.getByTestId('job-result-batch_tasks').getByText('Succeeded').waitFor();
    const hourly = table.locator('tr', { has: page.getByText('housekeeping', { exact: true }) });
    await hourly.getByText('Once across servers').waitFor();
    await hourly.getByText('1 hr').waitFor();
    const row = table.locator('tr', { has: page.getByText('batch_tasks', { exact: true }) });
    await table
      .locator('tr', { has: page.getByText('event_texts', { exact: true }) })
      .getByText('Each server process')
      .waitFor();
    // Its recent runs open under the row.
    await row.getByRole('button', { name: /expand/i }).click();
    await page.getByTestId('job-runs-batch_tasks').getByText('Succeeded').first().waitFor();
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('is not in a plant owner\u2019s menu, and its address shows no access', async () => {
    const owner = await server.createUser('owner', 'owner@jobs.test');
    const { page, errors, context } = await openPage(browser, server.url);
    await signInThroughForm(page, owner.account, owner.password);
    await page.getByRole('navigation', { name: 'main' }).getByRole('menuitem', { name: 'Plants' }).waitFor();
    expect(await page.getByRole('menuitem', { name: 'Background jobs' }).count()).toBe(0);
    await page.goto('/system/jobs');
    await page.getByTestId('no-access-page').waitFor();
    expect(await page.getByTestId('jobs-table').count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });
});
