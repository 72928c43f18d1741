import { readFileSync } from 'node:fs';
import { Code } from '@sunward/contracts/codes';
import {
  formatViewDate,
  type NoticeFields,
  type NoticePage,
  type NoticeRow,
  NoticeStatus,
  type NoticeSuggest,
  type NoticeTemplate,
  type NoticeView,
} from '@sunward/contracts/notices';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema.js';
import { apiClient, signedInCast } from '../../test/api.js';
import { call, signIn } from '../../test/client.js';
import { ADMIN, startTestServer, type TestServer } from '../../test/harness.js';

let server: TestServer;
let admin: string;
let companyAdmin: string;
let guest: string;

beforeAll(async () => {
  server = await startTestServer();
  ({ admin, companyAdmin, guest } = await signedInCast(server, 'Notice Test Company'));
});
const { get, post } = apiClient(
  () => server.app,
  () => admin,
);

afterAll(async () => {
  await server?.close();
});

const HOUR = 3_600_000;
const at = (offsetHours: number) => new Date(Date.now() + offsetHours * HOUR).toISOString();

/** A maintenance notice whose window holds now: started an hour ago, effective in an hour, ending in three. */
function fields(overrides: Partial<NoticeFields> = {}): NoticeFields {
  return {
    type: 2,
    scope: '0',
    startTime: at(-1),
    endTime: at(3),
    effectiveTime: at(1),
    impact: 1,
    zhDesc: '平台将于{time}进行{type}，持续{duration}。建议：{suggest}',
    enDesc: 'The platform has a {type} at {time} for {duration}. Please: {suggest}',
    zhDuration: '2小时',
    enDuration: '2 hours',
    suggests: [
      { zhSuggest: '提前保存数据', enSuggest: 'save your data' },
      { zhSuggest: '暂停远程升级', enSuggest: 'pause remote upgrades' },
    ],
    ...overrides,
  };
}

async function create(overrides: Partial<NoticeFields> = {}): Promise<NoticeRow> {
  const answer = await post<NoticeRow>('/api/v1/ss/notices', fields(overrides));
  expect(answer.code, answer.message).toBe(0);
  return answer.data;
}

const setStatus = (id: number, status: number, token = admin) => post<NoticeRow>(`/api/v1/ss/notices/${id}/status`, { status }, token);
const view = (query: Record<string, string> = {}, token = guest, language = 'en') =>
  get<NoticeView | null>('/api/v1/ss/notices/view', {
    token,
    query: { date: formatViewDate(Date.now()), scope: '0', ...query },
    headers: { 'accept-language': language },
  });

/** Expects a code-4 refusal naming `field`; answers its message. */
function refusedField(answer: { code: number; data: unknown }, field: string): string {
  expect(answer.code).toBe(Code.VALIDATION);
  const errors = (answer.data as { errors: { field: string; message: string }[] }).errors;
  expect(errors.map((e) => e.field)).toContain(field);
  return errors.find((e) => e.field === field)?.message ?? '';
}

describe('notice rules', () => {
  it('creates an unpublished notice with its suggestions and creator', async () => {
    const row = await create();
    expect(row).toMatchObject({
      status: NoticeStatus.UNPUBLISHED,
      type: 2,
      scope: '0',
      impact: 1,
      creator: ADMIN.account,
      publishedAt: null,
    });
    expect(row.suggests).toHaveLength(2);
    const again = await get<NoticeRow>(`/api/v1/ss/notices/${row.id}`);
    expect(again.data).toEqual(row);
  });

  it('refuses an end that is not after the start, in the caller’s language, and keeps nothing', async () => {
    const before = (await get<NoticePage>('/api/v1/ss/notices')).data.total;
    // One instant for all three: at() called three times can cross a millisecond, and the end is then after the start.
    const instant = at(1);
    const same = await post('/api/v1/ss/notices', fields({ startTime: instant, endTime: instant, effectiveTime: instant }));
    expect(refusedField(same, 'endTime')).toBe('the end time must be after the start time');
    const german = await post('/api/v1/ss/notices', fields({ startTime: at(2), endTime: at(1), effectiveTime: at(2) }), {
      token: admin,
      headers: {
        'accept-language': 'de',
      },
    });
    expect(refusedField(german, 'endTime')).toBe('die Endzeit muss nach der Startzeit liegen');
    expect((await get<NoticePage>('/api/v1/ss/notices')).data.total).toBe(before);
  });

  it('refuses an effective time before the start or not before the end', async () => {
    const early = await post('/api/v1/ss/notices', fields({ effectiveTime: at(-2) }));
    expect(refusedField(early, 'effectiveTime')).toBe('the effective time cannot be before the start time');
    // Exactly at the end (from the same fields, so no clock tick between the two times).
    const base = fields();
    const late = await post('/api/v1/ss/notices', { ...base, effectiveTime: base.endTime });
    expect(refusedField(late, 'effectiveTime')).toBe('the effective time must be before the end time');
    // Effective exactly at the start is allowed ("not before start"); from the same fields too (two calls of
    // fields() a second apart gave a start after the effective time).
    expect((await post('/api/v1/ss/notices', { ...base, effectiveTime: base.startTime })).code).toBe(0);
  });

  it('refuses unknown types, scopes and impacts, blank texts and too many suggestions', async () => {
    refusedField(await post('/api/v1/ss/notices', { ...fields(), type: 7 }), 'type');
    refusedField(await post('/api/v1/ss/notices', { ...fields(), scope: '9' }), 'scope');
    refusedField(await post('/api/v1/ss/notices', { ...fields(), impact: 5 }), 'impact');
    refusedField(await post('/api/v1/ss/notices', fields({ enDesc: '   ' })), 'enDesc');
    refusedField(await post('/api/v1/ss/notices', fields({ startTime: 'tomorrow' })), 'startTime');
    const many = Array.from({ length: 11 }, (_, i) => ({ zhSuggest: `建议${i}`, enSuggest: `hint ${i}` }));
    refusedField(await post('/api/v1/ss/notices', fields({ suggests: many })), 'suggests');
  });

  it('updates a notice with the same rules', async () => {
    const row = await create();
    const updated = await post<NoticeRow>(`/api/v1/ss/notices/${row.id}`, fields({ type: 1, enDuration: '30 minutes' }));
    expect(updated.code).toBe(0);
    expect(updated.data).toMatchObject({ id: row.id, type: 1, enDuration: '30 minutes' });
    refusedField(await post(`/api/v1/ss/notices/${row.id}`, fields({ endTime: at(-2) })), 'endTime');
    expect((await post('/api/v1/ss/notices/999999', fields())).code).toBe(Code.NOT_FOUND);
  });

  it('publishes, withdraws and invalidates; invalid is one-way and final', async () => {
    const row = await create();
    const published = await setStatus(row.id, NoticeStatus.PUBLISHING);
    expect(published.data).toMatchObject({ status: NoticeStatus.PUBLISHING });
    expect(published.data.publishedAt).not.toBeNull();
    expect((await setStatus(row.id, NoticeStatus.PUBLISHING)).code).toBe(Code.ALREADY);
    expect((await setStatus(row.id, NoticeStatus.UNPUBLISHED)).data.status).toBe(NoticeStatus.UNPUBLISHED);
    expect((await setStatus(row.id, NoticeStatus.INVALID)).data.status).toBe(NoticeStatus.INVALID);

    for (const status of [NoticeStatus.PUBLISHING, NoticeStatus.UNPUBLISHED, NoticeStatus.INVALID]) {
      const answer = await setStatus(row.id, status);
      expect(answer.code).toBe(Code.NOTICE_INVALIDATED);
      expect(answer.message).toBe('This notice is invalid and can no longer be changed.');
    }
    expect((await post(`/api/v1/ss/notices/${row.id}`, fields())).code).toBe(Code.NOTICE_INVALIDATED);
    expect((await get<NoticeRow>(`/api/v1/ss/notices/${row.id}`)).data.status).toBe(NoticeStatus.INVALID);
    refusedField(await post(`/api/v1/ss/notices/${row.id}/status`, { status: 3 }), 'status');
  });

  it('lists newest first with status and type filters', async () => {
    const a = await create({ type: 3 });
    await setStatus(a.id, NoticeStatus.INVALID);
    const invalid = (await get<NoticePage>('/api/v1/ss/notices', { token: admin, query: { status: '2', type: '3' } })).data;
    expect(invalid.infos.map((n) => n.id)).toContain(a.id);
    expect(invalid.infos.every((n) => n.status === 2 && n.type === 3)).toBe(true);
    const all = (await get<NoticePage>('/api/v1/ss/notices', { token: admin, query: { size: '100' } })).data;
    expect(all.infos[0]?.id).toBe(Math.max(...all.infos.map((n) => n.id)));
  });
});

describe('the notification centre', () => {
  it('lists a published notice as a system announcement for every user, in Chinese for a Chinese user', async () => {
    const chinese = await server.createUser('guest');
    await server.database.db.update(users).set({ language: 'cn' }).where(eq(users.id, chinese.id));
    const chineseToken = (await signIn(server.app, chinese.account, chinese.password)).access_token;
    const row = await create();
    expect((await setStatus(row.id, NoticeStatus.PUBLISHING)).code).toBe(0);
    type Page = { infos: { type: number; title: string; content: string }[] };
    const english = (await get<Page>('/api/v1/messages', { token: guest, query: { type: '1' } })).data.infos[0];
    expect(english?.title).toMatch(/^System .* notice$/);
    expect(english?.content).not.toMatch(/\{(time|type|duration|suggest)\}/);
    const zh = (await get<Page>('/api/v1/messages', { token: chineseToken, query: { type: '1' } })).data.infos[0];
    expect(zh?.title).toMatch(/^系统.*公告$/);
    expect((await get<number>('/api/v1/message/count', chineseToken)).data).toBeGreaterThan(0);
    await setStatus(row.id, NoticeStatus.INVALID);
  });
});

describe('the notice users see (view)', () => {
  it('shows a published notice in force to any signed-in user, placeholders filled, and hides it once invalid', async () => {
    const row = await create({ type: 1 });
    expect((await view()).data?.id).not.toBe(row.id);
    await setStatus(row.id, NoticeStatus.PUBLISHING);

    const english = await view({ tz: 'Europe/Berlin' });
    expect(english.code).toBe(0);
    const notice = english.data;
    expect(notice).toMatchObject({ id: row.id, status: 0, type: 1, lan: 'en', duration: '2 hours' });
    expect(notice?.suggests).toEqual(['save your data', 'pause remote upgrades']);
    expect(notice?.content).toMatch(
      /^The platform has a upgrade at \d{4}-\d{2}-\d{2} \d{2}:\d{2} \(Europe\/Berlin\) for 2 hours\. Please: save your data; pause remote upgrades$/,
    );
    expect(notice?.content).not.toMatch(/\{(time|type|duration|suggest)\}/);

    const chinese = (await view({}, guest, 'zh-CN')).data;
    expect(chinese?.content).toMatch(
      /^平台将于\d{4}-\d{2}-\d{2} \d{2}:\d{2} \(UTC\)进行升级，持续2小时。建议：提前保存数据；暂停远程升级$/,
    );
    // The other eight languages read the English text.
    expect((await view({}, guest, 'de')).data?.content).toBe((await view({}, guest, 'en')).data?.content);
    expect((await view({ lan: 'zh' }, companyAdmin)).data?.lan).toBe('zh');

    await setStatus(row.id, NoticeStatus.INVALID);
    expect((await view()).data?.id).not.toBe(row.id);
  });

  it('follows the window: not before the start, not from the end', async () => {
    const row = await create({ startTime: at(10), effectiveTime: at(11), endTime: at(12) });
    await setStatus(row.id, NoticeStatus.PUBLISHING);
    expect((await view()).data?.id).not.toBe(row.id);
    expect((await view({ date: formatViewDate(Date.parse(at(10.5))) })).data?.id).toBe(row.id);
    expect((await view({ date: formatViewDate(Date.parse(row.endTime) + 1000) })).data?.id).not.toBe(row.id);
    await setStatus(row.id, NoticeStatus.INVALID);
  });

  it('shows an unpublished notice to nobody and answers null when nothing is in force', async () => {
    const row = await create({ startTime: at(100), effectiveTime: at(101), endTime: at(102) });
    expect((await view({ date: formatViewDate(Date.parse(at(100.5))) })).data).toBeNull();
    expect(row.status).toBe(NoticeStatus.UNPUBLISHED);
  });

  it('reaches the console for scopes 0 and 1, the app for 0 and 2', async () => {
    const appOnly = await create({ scope: '2', startTime: at(200), effectiveTime: at(201), endTime: at(202) });
    await setStatus(appOnly.id, NoticeStatus.PUBLISHING);
    const date = formatViewDate(Date.parse(at(200.5)));
    expect((await view({ date, scope: '0' })).data).toBeNull();
    expect((await view({ date, scope: '2' })).data?.id).toBe(appOnly.id);
    const consoleOnly = await create({ scope: '1', startTime: at(200), effectiveTime: at(201), endTime: at(202) });
    await setStatus(consoleOnly.id, NoticeStatus.PUBLISHING);
    expect((await view({ date, scope: '0' })).data?.id).toBe(consoleOnly.id);
  });

  it('refuses a date that is not YYYY-MM-DD HH:mm:ss or not a real time', async () => {
    refusedField(await view({ date: '2025-01-01T10:00:00' }), 'date');
    refusedField(await view({ date: '2025-02-30 10:00:00' }), 'date');
  });
});

describe('template and suggestions', () => {
  it('offers a template with every placeholder in both languages', async () => {
    const template = (await get<NoticeTemplate>('/api/v1/ss/notices/template')).data;
    for (const placeholder of ['{time}', '{type}', '{suggest}', '{duration}']) {
      expect(template.zhDesc).toContain(placeholder);
      expect(template.enDesc).toContain(placeholder);
    }
    expect(template.placeholders).toEqual(['{time}', '{type}', '{suggest}', '{duration}']);
  });

  it('offers recent suggestions first, then the defaults, each once', async () => {
    await create({ suggests: [{ zhSuggest: '关闭自动化规则', enSuggest: 'turn off automation rules' }] });
    const list = (await get<NoticeSuggest[]>('/api/v1/ss/notices/suggest')).data;
    expect(list[0]).toEqual({ zhSuggest: '关闭自动化规则', enSuggest: 'turn off automation rules' });
    expect(new Set(list.map((s) => s.enSuggest)).size).toBe(list.length);
    expect(list.some((s) => s.enSuggest === 'save any data you are editing beforehand')).toBe(true);
  });
});

describe('access', () => {
  it('refuses management to anyone but platform administrators, with code 2, and changes nothing', async () => {
    const row = await create();
    for (const token of [companyAdmin, guest]) {
      expect((await get('/api/v1/ss/notices', token)).code).toBe(Code.NO_PERMISSION);
      expect((await post('/api/v1/ss/notices', fields(), token)).code).toBe(Code.NO_PERMISSION);
      expect((await get(`/api/v1/ss/notices/${row.id}`, token)).code).toBe(Code.NO_PERMISSION);
      expect((await post(`/api/v1/ss/notices/${row.id}`, fields({ type: 3 }), token)).code).toBe(Code.NO_PERMISSION);
      expect((await setStatus(row.id, NoticeStatus.PUBLISHING, token)).code).toBe(Code.NO_PERMISSION);
      expect((await get('/api/v1/ss/notices/template', token)).code).toBe(Code.NO_PERMISSION);
      expect((await get('/api/v1/ss/notices/suggest', token)).code).toBe(Code.NO_PERMISSION);
    }
    expect((await get<NoticeRow>(`/api/v1/ss/notices/${row.id}`)).data).toMatchObject({ status: NoticeStatus.UNPUBLISHED, type: 2 });
    const anonymous = await call(server.app, 'GET', '/api/v1/ss/notices/view');
    expect(anonymous.status).toBe(401);
  });

  it('answers every ss/notices row of calls.tsv', () => {
    const rows = readFileSync(new URL('../../../../../docs/spec/calls.tsv', import.meta.url), 'utf8')
      .split('\n')
      .map((line) => line.split('\t'))
      .filter(([, path, area]) => area === 'Notices and messages' && (path ?? '').startsWith('/api/v1/ss/notices'));
    expect(rows.length).toBe(8);
    for (const [method, path] of rows)
      expect(server.app.hasRoute({ method: method as 'GET' | 'POST', url: (path ?? '').replace('{id}', ':id') }), `${method} ${path}`).toBe(
        true,
      );
  });
});
