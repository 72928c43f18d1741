import type { PlantCreate } from '@sunward/contracts/plants';
import { call, signIn } from '@sunward/server/test/client';
import { ADMIN, type TestServer } from '@sunward/server/test/harness';
import { type SmtpInbox, startSmtpInbox } from '@sunward/server/test/smtp-inbox';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// The API tests' gateway, speaking the real MQTT protocol (as e2e/event-list.e2e.test.ts raises faults).
import { connectTestGateway, type TestGateway } from '../apps/server/src/test/test-gateway.js';
import { launchBrowser, openPage, signInThroughForm } from './support/browser.js';
import { startProduct } from './support/product.js';

let server: TestServer;
let browser: Browser;
let gateway: TestGateway;
let inbox: SmtpInbox;
let reportTs = Date.now() - 600_000;

/** One plant whose inverter reports over MQTT; `bits` sets its event register (bit 0: ground fault, 1001). */
async function report(bits: number) {
  reportTs += 1000;
  await gateway.report(reportTs, [{ sn: 'NCIN000001', proto: 'sunspec-inverter-1p', values: { W: 1500, St: 4, Evt1: bits } }]);
}

beforeAll(async () => {
  inbox = await startSmtpInbox();
  [server, browser] = await Promise.all([startProduct({ SMTP_URL: inbox.url, ALARM_EMAIL_BATCH_SECONDS: '1' }), launchBrowser()]);
  const adminToken = (await signIn(server.app, ADMIN.account, ADMIN.password)).access_token;
  const key = 'noticekey01';
  const gatewayId = await server.registerGateway('GWNC000001', key);
  const body: PlantCreate = {
    name: 'Bell Plant',
    capacityKwp: 8,
    plantType: 1,
    latitude: 41.4,
    longitude: 2.17,
    timezone: 'Europe/Madrid',
    meteringTopology: 'net',
    gateways: [{ sn: 'GWNC000001', key }],
    tariff: { currency: 'EUR', pricingMethod: 'constant', price: 0.2 },
  };
  const created = await call<{ id: number }>(server.app, 'POST', '/api/v1/plant', { token: adminToken, json: body });
  if (created.body.code !== 0) throw new Error(`plant not created: ${JSON.stringify(created.body)}`);
  const { devices } = await import('@sunward/server/db/schema');
  await server.database.db.insert(devices).values({
    sn: 'NCIN000001',
    protocolId: 'sunspec-inverter-1p',
    family: 'inverter',
    alias: 'Terrace',
    plantId: created.body.data.id,
    gatewayId,
  });
  await server.telemetry.pipeline.reloadDevices();
  gateway = await connectTestGateway(server.telemetry.mqttPort, 'GWNC000001', key);
  await report(0);
});

afterAll(async () => {
  await gateway?.close();
  await browser?.close();
  await server?.close();
  await inbox?.close();
});

/** The number on the bell, or 0 when the badge is hidden (spec: hidden at 0). */
async function badge(page: Page): Promise<number> {
  const count = page.getByTestId('notice-bell').locator('.ant-badge-count');
  if ((await count.count()) === 0) return 0;
  return Number((await count.getAttribute('title')) ?? '0');
}

describe('notification centre', () => {
  it('raises the bell badge live when a device faults, lists the alarm, and read-all clears it', async () => {
    const { page, errors, context } = await openPage(browser, server.url);
    await signInThroughForm(page, ADMIN.account, ADMIN.password);
    await page.getByTestId('notice-bell').click();
    await page.getByTestId('notice-page').waitFor();
    await page.getByTestId('notice-empty').waitFor();
    await expect(page.getByTestId('notice-empty').textContent()).resolves.toContain('personal settings');
    expect(await badge(page)).toBe(0);

    // The device faults: the badge rises without a reload (pushed, far sooner than the 50-minute poll).
    const navigations: string[] = [];
    page.on('framenavigated', (frame) => navigations.push(frame.url()));
    await report(0b1);
    await expect.poll(() => badge(page)).toBe(1);
    expect(navigations).toEqual([]);
    const item = page.getByTestId('notice-item').first();
    await item.waitFor();
    await expect(item.textContent()).resolves.toContain('Fault: Ground fault (insulation resistance too low) on Terrace');
    await expect(item.getAttribute('data-state')).resolves.toBe('0');
    await page.screenshot({ path: '/tmp/h2-notice-unread.png' });

    // A warning joins it: a second alarm arrives live and the open list shows it too.
    await report(0b101);
    await expect.poll(() => badge(page)).toBe(2);
    await expect.poll(() => page.getByTestId('notice-item').count()).toBe(2);

    // Read them all.
    await page.getByTestId('notice-read-all').click();
    await expect.poll(() => badge(page)).toBe(0);
    await expect.poll(() => page.getByTestId('notice-item').first().getAttribute('data-state')).toBe('1');
    await expect(page.getByTestId('notice-read-all').isDisabled()).resolves.toBe(true);

    // One marked unread again: the badge follows.
    await page.getByTestId('notice-mark-unread').first().click();
    await expect.poll(() => badge(page)).toBe(1);
    await page.screenshot({ path: '/tmp/h2-notice-read.png' });

    expect(errors).toEqual([]);
    await context.close();
  });

  it('turns on alarm e-mails with a confirmed address in personal settings, then mails the next alarm', async () => {
    const { page, errors, context } = await openPage(browser, server.url);
    await signInThroughForm(page, ADMIN.account, ADMIN.password, '/notice');
    await page.getByRole('button', { name: 'Alarm e-mail settings' }).click();
    const settings = page.getByTestId('notify-settings');
    await settings.waitFor();
    await page.locator('#notify-email').fill('operator@example.com');
    await page.getByTestId('notify-send-code').click();
    const code = await inbox.nextCode('operator@example.com');
    await expect.poll(() => settings.textContent()).toContain('A code was sent to operator@example.com');
    await page.locator('#notify-code').fill(code);
    await page.getByTestId('notify-enabled').click();
    await page.getByTestId('notify-levels').getByText('Warning').click();
    await page.getByTestId('notify-save').click();
    await expect.poll(() => settings.textContent()).toContain('Confirmed');
    await page.screenshot({ path: '/tmp/h2-notify-settings.png' });

    // A warning opens on the inverter: the e-mail follows the in-app message.
    await report(0b1101);
    const mail = await inbox.next('operator@example.com', 20_000);
    expect(mail.subject).toBe('Warning: DC switch open on Terrace');
    expect(mail.body).toContain('Bell Plant');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('sends an SMS from the SMS page and shows it in the record with its status', async () => {
    const { page, errors, context } = await openPage(browser, server.url);
    await signInThroughForm(page, ADMIN.account, ADMIN.password, '/sms');
    await page.getByTestId('sms-empty').waitFor();
    await page.locator('#sms-phones').fill('+4915112345678, +8613800000000');
    await page.locator('#sms-content').fill('Grid maintenance at 14:00');
    await page.getByTestId('sms-send').click();
    await expect.poll(() => page.getByTestId('sms-status').count()).toBe(2);
    await expect(page.getByTestId('sms-records').textContent()).resolves.toContain('Grid maintenance at 14:00');
    await expect(page.getByTestId('sms-status').first().textContent()).resolves.toBe('Recorded only');
    await page.screenshot({ path: '/tmp/h2-sms.png' });
    expect(errors).toEqual([]);
    await context.close();
  });
});
