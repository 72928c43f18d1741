import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Code } from '@sunward/contracts/codes';
import type { Brand, OemProject } from '@sunward/contracts/oem';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oemProjects } from '../../db/schema.js';
import { apiClient, signedInCast, signedInUser } from '../../test/api.js';
import { call, signIn } from '../../test/client.js';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { apkArchive, jpegHead, pngImage, zipArchive } from '../../test/oem-fixtures.js';

let server: TestServer;
let admin: string;
let companyAdmin: string;
let companyId: number;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'sunward-oem-'));
  server = await startTestServer({ BASE_DOMAIN: 'sunward.test', DATA_DIR: dataDir });
  ({ admin, companyAdmin, companyId } = await signedInCast(server, 'OEM Maker Ltd'));
});
afterAll(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});
const { get, post } = apiClient(
  () => server.app,
  () => admin,
);

const fields = (more: Record<string, unknown> = {}) => ({
  companyId,
  customerName: 'OEM Maker',
  domain: 'maker',
  appName: 'Maker Solar',
  themeColor: '#0A7D4F',
  iosUrl: 'https://apps.apple.com/app/maker-solar/id1',
  androidUrl: 'https://play.google.com/store/apps/details?id=com.maker.solar',
  ...more,
});

async function upload(path: string, body: Buffer, token = admin) {
  const answer = await server.app.inject({
    method: 'POST',
    url: path,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
    payload: body,
  });
  return answer.json() as { code: number; data: OemProject & { errors?: { field: string; message: string }[] }; message: string };
}
const files = (sub = '') => {
  try {
    return readdirSync(join(dataDir, 'oem', sub)).filter((f) => f !== 'apk');
  } catch {
    return [];
  }
};
const projects = async () => (await get<OemProject[]>('/api/v1/oems')).data;

let project: OemProject;

describe('OEM projects', () => {
  it('are managed by platform administrators only', async () => {
    expect((await get('/api/v1/oems', companyAdmin)).code).toBe(Code.NO_PERMISSION);
    expect((await post('/api/v1/oem', fields(), companyAdmin)).code).toBe(Code.NO_PERMISSION);
    expect(await projects()).toEqual([]);
  });

  it('refuses a domain with capitals or 11 characters (domain format error) and stores nothing', async () => {
    for (const domain of ['Maker', 'maker12345x', 'mak-er', '']) {
      const answer = await post('/api/v1/oem', fields({ domain }));
      expect(answer.code).toBe(Code.OEM_DOMAIN_FORMAT);
      expect(answer.message).toBe('Domain format error: at most 10 lowercase letters and digits.');
    }
    expect(await projects()).toEqual([]);
  });

  it('creates a project with the date its domain may next change', async () => {
    const answer = await post<OemProject>('/api/v1/oem', fields());
    expect(answer.code).toBe(0);
    project = answer.data;
    expect(project).toMatchObject({
      domain: 'maker',
      appName: 'Maker Solar',
      themeColor: '#0A7D4F',
      enabled: true,
      companyName: 'OEM Maker Ltd',
    });
    expect(Date.parse(project.nextDomainChange) - Date.parse(project.domainChangedAt)).toBe(30 * 86_400_000);
  });

  it('refuses a domain that exists and a second project for the company', async () => {
    const other = await server.createCompany('Another Maker');
    const taken = await post('/api/v1/oem', fields({ companyId: other }));
    expect(taken.code).toBe(Code.OEM_DOMAIN_EXISTS);
    expect((await post('/api/v1/oem', fields({ domain: 'maker2' }))).code).toBe(Code.OEM_COMPANY_TAKEN);
    expect(await projects()).toHaveLength(1);
  });

  it('changes the domain at most once every 30 days, saying from when', async () => {
    const early = await post<{ nextChange: string }>(`/api/v1/oem/${project.id}`, fields({ domain: 'newmaker' }));
    expect(early.code).toBe(Code.OEM_DOMAIN_CHANGE_TOO_SOON);
    expect(early.data.nextChange).toBe(project.nextDomainChange);
    expect(early.message).toMatch(/changed again from \d+ \w+ \d{4}/);
    // Other fields change freely.
    const renamed = await post<OemProject>(`/api/v1/oem/${project.id}`, fields({ appName: 'Maker Energy' }));
    expect(renamed.data).toMatchObject({ appName: 'Maker Energy', domain: 'maker' });
    // 31 days later the domain may change, and the clock starts again.
    await server.database.db
      .update(oemProjects)
      .set({ domainChangedAt: new Date(Date.now() - 31 * 86_400_000) })
      .where(eq(oemProjects.id, project.id));
    const changed = await post<OemProject>(`/api/v1/oem/${project.id}`, fields({ domain: 'maker2', appName: 'Maker Energy' }));
    expect(changed.code).toBe(0);
    expect(Date.now() - Date.parse(changed.data.domainChangedAt)).toBeLessThan(60_000);
    expect((await post(`/api/v1/oem/${project.id}`, fields({ domain: 'maker', appName: 'Maker Energy' }))).code).toBe(
      Code.OEM_DOMAIN_CHANGE_TOO_SOON,
    );
  });

  it('checks logos by content and size: SVG with script, a JPEG renamed .png as login logo, wrong sizes; nothing stored', async () => {
    const before = files();
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    for (const slot of ['companyLogo', 'loginLogo', 'systemIcon']) {
      const answer = await upload(`/api/v1/oem/${project.id}/image/${slot}`, svg);
      expect(answer.code).toBe(Code.VALIDATION);
    }
    const jpegAsPng = await upload(`/api/v1/oem/${project.id}/image/loginLogo`, jpegHead(220, 80));
    expect(jpegAsPng.data.errors?.[0]).toEqual({ field: 'loginLogo', message: 'must be a PNG image' });
    const wrongSize = await upload(`/api/v1/oem/${project.id}/image/companyLogo`, pngImage(200, 58));
    expect(wrongSize.data.errors?.[0]?.message).toBe('must be 220×58 pixels (this image is 200×58)');
    const heavy = await upload(
      `/api/v1/oem/${project.id}/image/loginImage`,
      Buffer.concat([pngImage(10, 10), Buffer.alloc(2 * 1024 * 1024)]),
    );
    expect(heavy.data.errors?.[0]?.message).toBe('must be at most 2 MB');
    expect(files()).toEqual(before);
    expect((await get<OemProject>(`/api/v1/oem/${project.id}`)).data.images).toEqual({});
  });

  it('stores every logo in its size and the login image, served publicly', async () => {
    const sizes: Record<string, [number, number]> = {
      companyLogo: [220, 58],
      companyIcon: [58, 58],
      loginLogo: [220, 80],
      systemLogo: [220, 60],
      systemIcon: [58, 58],
      loginImage: [640, 400],
    };
    for (const [slot, [w, h]] of Object.entries(sizes)) {
      const answer = await upload(`/api/v1/oem/${project.id}/image/${slot}`, pngImage(w, h));
      expect(answer.code).toBe(0);
    }
    const jpegLogo = await upload(`/api/v1/oem/${project.id}/image/systemIcon`, jpegHead(58, 58));
    expect(jpegLogo.code).toBe(0);
    const images = (await get<OemProject>(`/api/v1/oem/${project.id}`)).data.images;
    expect(Object.keys(images).sort()).toEqual(Object.keys(sizes).sort());
    const logo = await server.app.inject({ method: 'GET', url: images.loginLogo ?? '' });
    expect(logo.statusCode).toBe(200);
    expect(logo.headers['content-type']).toBe('image/png');
    // The replaced system icon's file is gone: one file per slot.
    expect(files()).toHaveLength(6);
  });

  it('refuses an APK that is a renamed zip, a bad version, or too large; accepts a real one; a version twice is 5004', async () => {
    const zip = await upload(`/api/v1/oem/${project.id}/apk?version=1.0.0`, zipArchive({ 'readme.txt': 'not an app' }));
    expect(zip.data.errors?.[0]).toEqual({ field: 'file', message: 'must be an Android package (.apk)' });
    const version = await upload(`/api/v1/oem/${project.id}/apk?version=1.0`, apkArchive());
    expect(version.data.errors?.[0]?.field).toBe('version');
    expect(files('apk')).toEqual([]);
    const good = await upload(`/api/v1/oem/${project.id}/apk?version=1.0.0`, apkArchive(4000));
    expect(good.code).toBe(0);
    expect(good.data.apks).toHaveLength(1);
    expect(good.data.apks[0]).toMatchObject({ version: '1.0.0' });
    const again = await upload(`/api/v1/oem/${project.id}/apk?version=1.0.0`, apkArchive(10));
    expect(again.code).toBe(Code.OEM_APK_EXISTS);
    expect(again.message).toBe('This APK or version already exists.');
    const sameFile = await upload(`/api/v1/oem/${project.id}/apk?version=1.0.1`, apkArchive(4000));
    expect(sameFile.code).toBe(Code.OEM_APK_EXISTS);
    expect(files('apk')).toHaveLength(1);
  });

  it('serves the APK resumably: a range answers 206 with those bytes, beyond the end 416', async () => {
    const apk = (await get<OemProject>(`/api/v1/oem/${project.id}`)).data.apks[0];
    if (!apk) throw new Error('no APK');
    const whole = await server.app.inject({ method: 'GET', url: apk.url });
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['accept-ranges']).toBe('bytes');
    expect(whole.rawPayload.length).toBe(apk.size);
    const part = await server.app.inject({ method: 'GET', url: apk.url, headers: { range: 'bytes=100-199' } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 100-199/${apk.size}`);
    expect(part.rawPayload).toEqual(whole.rawPayload.subarray(100, 200));
    const rest = await server.app.inject({ method: 'GET', url: apk.url, headers: { range: `bytes=${apk.size - 10}-` } });
    expect(rest.rawPayload).toEqual(whole.rawPayload.subarray(apk.size - 10));
    const beyond = await server.app.inject({ method: 'GET', url: apk.url, headers: { range: `bytes=${apk.size}-` } });
    expect(beyond.statusCode).toBe(416);
  });

  it('refuses an APK above 300 MB without keeping any of it', async () => {
    const big = Buffer.alloc(300 * 1024 * 1024 + 1);
    big.writeUInt32LE(0x04034b50, 0);
    const answer = await upload(`/api/v1/oem/${project.id}/apk?version=2.0.0`, big);
    expect(answer.data.errors?.[0]).toEqual({ field: 'file', message: 'must be at most 300 MB' });
    expect(files('apk')).toHaveLength(1);
  }, 120_000);
});

describe('host-based branding', () => {
  const host = (name: string) => ({ host: `${name}.sunward.test` });

  it('gives an OEM domain its brand, the bare host the default, an unknown domain "not available"', async () => {
    const brand = await call<Brand>(server.app, 'GET', '/anonymous/brand', { headers: host('maker2') });
    expect(brand.body.data).toMatchObject({ oem: true, name: 'Maker Energy', themeColor: '#0A7D4F' });
    expect(brand.body.data.apks[0]?.version).toBe('1.0.0');
    const bare = await call<Brand>(server.app, 'GET', '/anonymous/brand');
    expect(bare.body.data).toMatchObject({ oem: false, name: 'Sunward' });
    const unknown = await server.app.inject({ method: 'GET', url: '/login', headers: host('nobody') });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.body).toContain('This site is not available');
  });

  it('admits on the OEM domain only accounts of its company; others sign in on the bare host', async () => {
    const member = await signedInUser(server, 'company_staff', companyId);
    const outsider = await signedInUser(server, 'owner');
    const signInOn = (account: string, password: string) =>
      call(server.app, 'POST', '/oauth/token', {
        form: { grant_type: 'password', username: account, password },
        headers: host('maker2'),
      });
    expect((await signInOn(member.account, member.password)).body.code).toBe(0);
    const refused = await signInOn(outsider.account, outsider.password);
    expect(refused.body.code).toBe(Code.OEM_ACCOUNT_OUTSIDE);
    expect((await signIn(server.app, outsider.account, outsider.password)).access_token).toBeTruthy();
  });

  it('a disabled project’s domain answers "not available" everywhere, and its APK is no longer served', async () => {
    expect((await post(`/api/v1/oem/${project.id}/enabled`, { enabled: false })).code).toBe(0);
    const page = await server.app.inject({ method: 'GET', url: '/', headers: host('maker2') });
    expect(page.statusCode).toBe(404);
    expect(page.body).toContain('This site is not available');
    const api = await server.app.inject({ method: 'GET', url: '/anonymous/brand', headers: host('maker2') });
    expect(api.statusCode).toBe(404);
    const apk = (await get<OemProject>(`/api/v1/oem/${project.id}`)).data.apks[0];
    expect((await server.app.inject({ method: 'GET', url: apk?.url ?? '' })).statusCode).toBe(404);
    expect((await post(`/api/v1/oem/${project.id}/enabled`, { enabled: true })).code).toBe(0);
  });
});
