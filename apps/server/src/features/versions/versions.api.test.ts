import { readFileSync } from 'node:fs';
import { Code } from '@sunward/contracts/codes';
import type { VersionNotes, VersionPage, VersionRow } from '@sunward/contracts/versions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, signedInCast } from '../../test/api.js';
import { call } from '../../test/client.js';
import { ADMIN, startTestServer, type TestServer } from '../../test/harness.js';

let server: TestServer;
let admin: string;
let companyAdmin: string;
let guest: string;

beforeAll(async () => {
  server = await startTestServer();
  ({ admin, companyAdmin, guest } = await signedInCast(server, 'Version Test Company'));
});
const { get, post } = apiClient(
  () => server.app,
  () => admin,
);

afterAll(async () => {
  await server?.close();
});

const publish = (version: string, token = admin, more: Record<string, unknown> = {}) =>
  post<VersionRow>(
    '/api/v1/version',
    { version, zhContent: `<p>${version} 版本说明</p>`, enContent: `<p>Notes of ${version}</p>`, ...more },
    token,
  );
const latest = async (token = guest) => (await get<{ version: string | null }>('/api/v1/version/latest', token)).data.version;

function refusedField(answer: { code: number; data: unknown }, field: string): string {
  expect(answer.code).toBe(Code.VALIDATION);
  const errors = (answer.data as { errors: { field: string; message: string }[] }).errors;
  expect(errors.map((e) => e.field)).toContain(field);
  return errors.find((e) => e.field === field)?.message ?? '';
}

// The tests run in order and build one history: 1.9.0, 1.10.0, 2.0 ...
describe('version numbers', () => {
  it('answers null as the latest before any version is published', async () => {
    expect(await latest()).toBeNull();
    expect((await get('/api/v1/version', guest)).code).toBe(Code.NOT_FOUND);
  });

  it('publishes a version with its publisher and release time, and it becomes the latest', async () => {
    const answer = await publish('1.9.0');
    expect(answer.code).toBe(0);
    expect(answer.data).toMatchObject({ version: '1.9.0', publisher: ADMIN.account, enContent: '<p>Notes of 1.9.0</p>' });
    expect(Date.now() - Date.parse(answer.data.releaseTime)).toBeLessThan(60_000);
    expect(await latest()).toBe('1.9.0');
  });

  it('compares numbers part by part: 1.10.0 is above 1.9.0', async () => {
    expect((await get('/api/v1/version/check', { token: admin, query: { version: '1.10.0' } })).code).toBe(0);
    expect((await publish('1.10.0')).code).toBe(0);
    expect(await latest()).toBe('1.10.0');
  });

  it('refuses a duplicate number (also written differently) with 4100 and a lower or equal one with 4101', async () => {
    expect((await publish('1.10.0')).code).toBe(Code.SYSTEM_VERSION_EXISTS);
    expect((await publish('1.10')).code).toBe(Code.SYSTEM_VERSION_EXISTS);
    const lower = await publish('1.9.5');
    expect(lower.code).toBe(Code.SYSTEM_VERSION_NOT_HIGHER);
    expect(lower.message).toBe('The new version must be higher than the latest version 1.10.0.');
    const chinese = await post(
      '/api/v1/version',
      { version: '1.2', zhContent: '<p>x</p>', enContent: '<p>x</p>' },
      {
        token: admin,
        headers: {
          'accept-language': 'zh-CN',
        },
      },
    );
    expect(chinese.message).toBe('新版本号必须高于最新版本 1.10.0。');
    expect((await get('/api/v1/version/check', { token: admin, query: { version: '1.10.0' } })).code).toBe(Code.SYSTEM_VERSION_EXISTS);
    expect((await get('/api/v1/version/check', { token: admin, query: { version: '1.3' } })).code).toBe(Code.SYSTEM_VERSION_NOT_HIGHER);
    expect((await get<VersionPage>('/api/v1/versions')).data.total).toBe(2);
  });

  it('refuses numbers that are not digits and dots', async () => {
    for (const version of ['v2', '2..0', '2.0-beta', '', '1.2.3.4.5']) refusedField(await publish(version), 'version');
    refusedField(await get('/api/v1/version/check', { token: admin, query: { version: 'abc' } }), 'version');
  });
});

describe('rich text', () => {
  it('removes <script>, event handlers and javascript: links on save, keeping the formatting', async () => {
    const answer = await post<VersionRow>('/api/v1/version', {
      version: '2.0',
      zhContent: '<h3>新功能</h3><p>图表<script>alert(1)</script></p><img src=x onerror="alert(2)">',
      enContent:
        '<p onclick="steal()"><strong>New</strong> charts</p><a href="javascript:alert(3)">more</a><a href="https://sunward.example">site</a>',
    });
    expect(answer.code).toBe(0);
    expect(answer.data.zhContent).toBe('<h3>新功能</h3><p>图表</p>');
    expect(answer.data.enContent).toBe(
      '<p><strong>New</strong> charts</p><a rel="noopener noreferrer" target="_blank">more</a><a href="https://sunward.example" rel="noopener noreferrer" target="_blank">site</a>',
    );
    const stored = await get<VersionRow>(`/api/v1/version/${answer.data.id}`);
    expect(JSON.stringify(stored.data)).not.toMatch(/script|onerror|onclick|javascript:/i);
  });

  it('refuses content that is empty once unsafe markup is removed, and keeps nothing', async () => {
    const answer = await publish('2.1', admin, { enContent: '<script>alert(1)</script>' });
    expect(refusedField(answer, 'enContent')).toBe('no content is left once unsafe markup is removed');
    expect(await latest()).toBe('2.0');
  });

  it('edits a version’s notes but not its number', async () => {
    const id = (await get<VersionPage>('/api/v1/versions')).data.infos.find((v) => v.version === '1.10.0')?.id;
    const edited = await post<VersionRow>('/api/v1/version', {
      id,
      version: '1.10.0',
      zhContent: '<p>修正</p>',
      enContent: '<p>Fixed</p>',
    });
    expect(edited.data).toMatchObject({ id, version: '1.10.0', enContent: '<p>Fixed</p>' });
    expect(
      refusedField(await post('/api/v1/version', { id, version: '1.11.0', zhContent: '<p>x</p>', enContent: '<p>x</p>' }), 'version'),
    ).toBe('the number of a published version cannot be changed');
    expect((await post('/api/v1/version', { id: 99999, version: '9.0', zhContent: '<p>x</p>', enContent: '<p>x</p>' })).code).toBe(
      Code.NOT_FOUND,
    );
  });
});

describe('what users read', () => {
  it('gives the history of one version in Chinese for cn and in English for the other languages', async () => {
    const zh = await get<VersionNotes>('/api/v1/version', { token: guest, query: { lan: 'zh', version: '1.10.0' } });
    expect(zh.data).toMatchObject({ version: '1.10.0', content: '<p>修正</p>', lan: 'zh' });
    const en = await get<VersionNotes>('/api/v1/version', { token: guest, query: { lan: 'en', version: '1.10.0' } });
    expect(en.data.content).toBe('<p>Fixed</p>');
    const de = await get<VersionNotes>('/api/v1/version', {
      token: guest,
      query: { version: '1.10.0' },
      headers: { 'accept-language': 'de' },
    });
    expect(de.data).toMatchObject({ content: '<p>Fixed</p>', lan: 'en' });
    expect((await get<VersionNotes>('/api/v1/version', guest)).data.version).toBe('2.0');
    expect((await get('/api/v1/version', { token: guest, query: { version: '7.7.7' } })).code).toBe(Code.NOT_FOUND);
  });

  it('lists the timeline newest number first', async () => {
    const timeline = await get<VersionNotes[]>('/api/v1/version/timeline', { token: companyAdmin, query: { lan: 'en' } });
    expect(timeline.data.map((v) => v.version)).toEqual(['2.0', '1.10.0', '1.9.0']);
    expect(timeline.data[0]?.publisher).toBe(ADMIN.account);
  });

  it('deletes a version; the one below becomes the latest', async () => {
    const id = (await get<VersionPage>('/api/v1/versions')).data.infos[0]?.id;
    expect((await get(`/api/v1/version/${id}/delete`)).code).toBe(0);
    expect(await latest()).toBe('1.10.0');
    expect((await get(`/api/v1/version/${id}`)).code).toBe(Code.NOT_FOUND);
    expect((await get(`/api/v1/version/${id}/delete`)).code).toBe(Code.NOT_FOUND);
  });
});

describe('access', () => {
  it('refuses writing and management reads to anyone but platform administrators, and changes nothing', async () => {
    const id = (await get<VersionPage>('/api/v1/versions')).data.infos[0]?.id;
    for (const token of [companyAdmin, guest]) {
      expect((await publish('50.0', token)).code).toBe(Code.NO_PERMISSION);
      expect((await get('/api/v1/versions', token)).code).toBe(Code.NO_PERMISSION);
      expect((await get(`/api/v1/version/${id}`, token)).code).toBe(Code.NO_PERMISSION);
      expect((await get(`/api/v1/version/${id}/delete`, token)).code).toBe(Code.NO_PERMISSION);
      expect((await get('/api/v1/version/check', { token, query: { version: '50.0' } })).code).toBe(Code.NO_PERMISSION);
    }
    expect(await latest()).toBe('1.10.0');
    expect((await call(server.app, 'GET', '/api/v1/version/latest')).status).toBe(401);
  });

  it('answers every Versions row of calls.tsv', () => {
    const rows = readFileSync(new URL('../../../../../docs/spec/calls.tsv', import.meta.url), 'utf8')
      .split('\n')
      .map((line) => line.split('\t'))
      .filter(([, , area]) => area === 'Versions');
    expect(rows.length).toBe(8);
    for (const [method, path] of rows)
      expect(server.app.hasRoute({ method: method as 'GET' | 'POST', url: (path ?? '').replace('{id}', ':id') }), `${method} ${path}`).toBe(
        true,
      );
  });
});
