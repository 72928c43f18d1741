import type { SipServerInfo, VideoDevice, VideoSpace } from '@sunward/contracts/video';
import { companyCustomers } from '@sunward/server/db/schema';
import { call, signIn } from '@sunward/server/test/client';
import { ADMIN, type TestServer } from '@sunward/server/test/harness';
import { startCameraAt } from '@sunward/server/test/sim-camera';
import type { SimulatedCamera } from '@sunward/simulator/camera/gb28181-camera';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousAccessibilityProblems } from './support/axe.js';
import { clickWhenOpen, launchBrowser, openPage, signInThroughForm } from './support/browser.js';
import { startProduct } from './support/product.js';

/*
 * Issue 23 (video surveillance): a company administrator with the camera app adds a video space and a camera; the
 * simulated GB28181 camera registers over SIP with that SIP ID and password; the camera shows active with its
 * channel; Start live plays the camera's H.264 in Chromium through the built-in media path (HLS, hls.js): the video
 * element's time advances, so frames are decoded; Stop ends it and the camera stops sending.
 * The platform administrator grants the video service to a company in the 'Video service per company' table (reached
 * from the video pages and the application centre); that company's administrator then enables the camera app and
 * opens the video pages. A customer of a company (spec 02: one video space per customer) signs in, finds the video
 * entry in their menu, sees their space's camera with its state (read-only: no manage buttons) and watches it live.
 */

const SIP_ID = '34020000001320000077';
const CHANNEL = '34020000001310000077';
const PASSWORD = 'Camera-Pass7';

let server: TestServer;
let browser: Browser;
let camera: SimulatedCamera | undefined;
let homeCamera: SimulatedCamera | undefined;
let account: { account: string; password: string };
let token: string;

beforeAll(async () => {
  [server, browser] = await Promise.all([startProduct({ SIP_PUBLIC_IP: '127.0.0.1', MEDIA_RTP_IP: '127.0.0.1' }), launchBrowser()]);
  const companyId = await server.createCompany('Camera Works');
  account = await server.createUser('company_admin', 'camera-admin@example.com', { companyId });
  token = (await signIn(server.app, account.account, account.password)).access_token;
  const admin = (await signIn(server.app, ADMIN.account, ADMIN.password)).access_token;
  // The platform administrator grants the video service; the company enables its camera app (both tested elsewhere).
  expect((await call(server.app, 'POST', `/api/v1/qvs/grants/${companyId}`, { token: admin, json: { granted: true } })).body.code).toBe(0);
  expect((await call(server.app, 'POST', '/api/v1/component/apps/camera/enable', { token, json: { enabled: true } })).body.code).toBe(0);
}, 120_000);

afterAll(async () => {
  await camera?.stop();
  await homeCamera?.stop();
  await browser?.close();
  await server?.close();
});

describe('video surveillance', () => {
  it('the platform administrator grants the video service in the table; the company administrator then enables video', async () => {
    const companyId = await server.createCompany('Lens Granted Ltd');
    const lens = await server.createUser('company_admin', 'lens-admin@example.com', { companyId });
    const { page, errors, context } = await openPage(browser, server.url);
    await signInThroughForm(page, ADMIN.account, ADMIN.password);

    // The application centre and the video pages lead the platform administrator to the grant, not to the switches.
    await page.goto('/acenter');
    await page.getByTestId('app-center-platform-admin').waitFor();
    expect(await page.getByTestId('app-camera-grant-missing').count()).toBe(0);
    await page.goto('/video/spaces');
    await page.getByTestId('video-platform-admin').waitFor();
    expect(await page.getByTestId('app-not-enabled').count()).toBe(0);
    await page.getByRole('button', { name: 'Video service per company' }).click();
    await page.getByTestId('video-grants-page').waitFor();

    // Searched by name, the company's switch off, then on.
    const search = page.getByPlaceholder('Search companies by name');
    await search.fill('Lens');
    await search.press('Enter');
    const row = page.getByRole('row', { name: /Lens Granted Ltd/ });
    await row.waitFor();
    await expect.poll(() => page.getByRole('row').count()).toBe(2);
    const grant = row.getByRole('switch', { name: 'Video service for Lens Granted Ltd' });
    expect(await grant.getAttribute('aria-checked')).toBe('false');
    await row.getByText('Not granted').waitFor();
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    await grant.click();
    await expect.poll(() => grant.getAttribute('aria-checked')).toBe('true');
    await row.getByText('Granted', { exact: true }).waitFor();
    expect(errors).toEqual([]);
    await context.close();

    // The company's administrator enables the camera app, and the video pages open.
    const company = await openPage(browser, server.url);
    await signInThroughForm(company.page, lens.account, lens.password);
    await company.page.goto('/acenter');
    const camera = company.page.getByTestId('app-camera-enabled');
    await expect.poll(() => camera.isDisabled()).toBe(false);
    expect(await company.page.getByTestId('app-camera-grant-missing').count()).toBe(0);
    await camera.click();
    await expect.poll(() => camera.getAttribute('aria-checked')).toBe('true');
    await company.page.goto('/video/spaces');
    await company.page.getByTestId('video-spaces-page').waitFor();
    await company.page.getByTestId('video-space-add').waitFor();
    expect(company.errors).toEqual([]);
    await company.context.close();
  }, 120_000);

  it('adds a space and a camera, the camera registers, and its live video plays and stops', async () => {
    const { page, errors } = await openPage(browser, server.url);
    await signInThroughForm(page, account.account, account.password);

    // A video space.
    await page.goto('/video/spaces');
    await page.getByTestId('video-space-add').click();
    await page.locator('#video-space-name').fill('Yard');
    await page.locator('#video-space-save').click();
    await page.getByRole('cell', { name: 'Yard', exact: true }).waitFor();
    await page.getByTestId('video-space-limits').getByText('1 of 10 video spaces').waitFor();
    expect(await seriousAccessibilityProblems(page)).toEqual([]);

    // A camera in it, with the SIP server's details to type into the camera.
    await page.getByRole('link', { name: 'Cameras of Yard' }).click();
    await page.getByTestId('video-sip-server').waitFor();
    await page.getByTestId('video-device-add').click();
    await page.locator('#video-device-name').fill('Gate camera');
    await page.locator('#video-device-sip-id').fill(SIP_ID);
    await page.locator('#video-device-password').fill(PASSWORD);
    await page.locator('#video-device-save').click();
    const row = page.getByRole('row', { name: /Gate camera/ });
    await row.getByTestId('video-device-state').getByText('Not registered').waitFor();

    // The camera registers with what the page shows.
    const sip = (await call<SipServerInfo>(server.app, 'GET', '/api/v1/qvs/sipServer', { token })).body.data;
    await page.getByTestId('video-sip-server').getByText(String(sip.port), { exact: true }).waitFor();
    camera = await startCameraAt(sip, { deviceId: SIP_ID, password: PASSWORD, channels: [{ gbId: CHANNEL, name: 'Gate' }] });
    await row.getByTestId('video-device-state').getByText('Active').waitFor();

    // Its channel (reported at registration, or asked again with Query channels), and from there the player.
    await row.getByRole('button', { name: /expand/i }).click();
    const channels = page.getByTestId('video-channels');
    const gate = channels.getByRole('cell', { name: 'Gate', exact: true });
    await channels.getByRole('button', { name: 'Query channels' }).click();
    await gate.waitFor();
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    await channels.getByRole('link', { name: 'Play' }).click();
    await page.getByTestId('video-player-page').waitFor();

    // Live: starting, then playing, and the video element's time advances (frames decoded).
    await page.getByTestId('video-start').click();
    await page.getByTestId('video-phase').getByText('Playing').waitFor({ timeout: 45_000 });
    const video = page.getByTestId('video-element');
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 30_000 }).toBeGreaterThan(1);
    expect(await video.evaluate((v: HTMLVideoElement) => v.videoWidth)).toBe(640);
    expect(camera.streams.size).toBe(1);
    expect(await seriousAccessibilityProblems(page)).toEqual([]);

    // Stop: BYE to the camera, which stops sending.
    await page.getByTestId('video-stop').click();
    await page.getByTestId('video-phase').getByText('Stopped').waitFor();
    await expect.poll(() => camera?.streams.size).toBe(0);
    expect(errors).toEqual([]);
  }, 180_000);

  it('a customer sees their own space’s camera with its state, read-only, and watches it live', async () => {
    // The company sets the customer's space and camera up (tested above); the camera registers.
    const companyId = await server.createCompany('Home Watch Ltd');
    const installer = await server.createUser('company_admin', 'home-watch-admin@example.com', { companyId });
    const installerToken = (await signIn(server.app, installer.account, installer.password)).access_token;
    const admin = (await signIn(server.app, ADMIN.account, ADMIN.password)).access_token;
    const as = <T>(method: 'GET' | 'POST', path: string, who: string, json?: unknown) =>
      call<T>(server.app, method, path, { token: who, ...(json === undefined ? {} : { json }) }).then((r) => r.body);
    expect((await as('POST', `/api/v1/qvs/grants/${companyId}`, admin, { granted: true })).code).toBe(0);
    expect((await as('POST', '/api/v1/component/apps/camera/enable', installerToken, { enabled: true })).code).toBe(0);
    const owner = await server.createUser('customer', 'home-owner@example.com');
    const [link] = await server.database.db
      .insert(companyCustomers)
      .values({ companyId, userId: owner.id, name: 'Home Owner' })
      .returning({ id: companyCustomers.id });
    const space = (await as<VideoSpace>('POST', '/api/v1/qvs/namespaces', installerToken, { name: 'Home', customerId: link?.id })).data;
    await as('POST', '/api/v1/qvs/namespaces', installerToken, { name: 'Depot' });
    const homeSip = '34020000001320000078';
    const homeChannel = '34020000001310000078';
    const device = (
      await as<VideoDevice>('POST', `/api/v1/qvs/namespaces/${space.id}/devices`, installerToken, {
        name: 'Porch camera',
        sipId: homeSip,
        password: PASSWORD,
      })
    ).data;
    const sip = (await as<SipServerInfo>('GET', '/api/v1/qvs/sipServer', installerToken)).data;
    homeCamera = await startCameraAt(sip, { deviceId: homeSip, password: PASSWORD, channels: [{ gbId: homeChannel, name: 'Porch' }] });
    await expect
      .poll(async () => (await as<VideoDevice>('GET', `/api/v1/qvs/devices/${device.id}`, installerToken)).data.state, { timeout: 20_000 })
      .toBe('active');

    // The customer signs in: the video entry is in their menu, and their space only, without manage buttons.
    const { page, errors, context } = await openPage(browser, server.url);
    await signInThroughForm(page, owner.account, owner.password);
    await page.getByRole('menuitem', { name: 'Video surveillance' }).click();
    await clickWhenOpen(page.getByRole('menuitem', { name: 'Cameras', exact: true }));
    await page.getByTestId('video-devices-page').waitFor();
    const row = page.getByRole('row', { name: /Porch camera/ });
    await row.getByTestId('video-device-state').getByText('Active').waitFor();
    expect(await page.getByTestId('video-device-add').count()).toBe(0);
    expect(await page.getByTestId('video-sip-server').count()).toBe(0);
    expect(await row.getByRole('button', { name: /Edit|Disable|Delete/ }).count()).toBe(0);
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    await page.goto('/video/spaces');
    await page.getByTestId('video-space-read-only').waitFor();
    await page.getByRole('cell', { name: 'Home', exact: true }).waitFor();
    expect(await page.getByRole('cell', { name: 'Depot', exact: true }).count()).toBe(0);
    expect(await page.getByTestId('video-space-add').count()).toBe(0);
    expect(await page.getByRole('button', { name: /Edit|Deactivate/ }).count()).toBe(0);

    // The player: live only, playing, then stopped.
    await page.goto(`/video/player?device=${device.id}`);
    await page.getByTestId('video-player-page').waitFor();
    expect(await page.getByRole('radio', { name: 'Playback' }).count()).toBe(0);
    await page.getByTestId('video-start').click();
    await page.getByTestId('video-phase').getByText('Playing').waitFor({ timeout: 45_000 });
    expect(homeCamera.streams.size).toBe(1);
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    await page.getByTestId('video-stop').click();
    await page.getByTestId('video-phase').getByText('Stopped').waitFor();
    await expect.poll(() => homeCamera?.streams.size).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  }, 180_000);
});
