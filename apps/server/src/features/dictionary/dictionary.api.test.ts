import { Code } from '@sunward/contracts/codes';
import type { DictEntryRow, DictPage } from '@sunward/contracts/dictionary';
import { LANGUAGE_TAGS, LANGUAGES } from '@sunward/contracts/languages';
import { translate } from '@sunward/contracts/messages';
import { CURRENCIES, type DictEntry, PLANT_TYPES } from '@sunward/contracts/plants';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, createPlant, newGateway, plantInput, signedInCast } from '../../test/api.js';
import { startTestServer, type TestServer } from '../../test/harness.js';

let server: TestServer;
let admin: string;
let companyAdmin: string;
let companyId: number;
let guest: string;

beforeAll(async () => {
  server = await startTestServer();
  ({ admin, companyAdmin, companyId, guest } = await signedInCast(server, 'Dictionary Test Company'));
});
afterAll(async () => {
  await server?.close();
});
const { get, post } = apiClient(
  () => server.app,
  () => admin,
);

const gold = (more: Record<string, unknown> = {}) => ({
  type: 'currency',
  code: 'XAU',
  sort: 5,
  internationalised: true,
  texts: Object.fromEntries(LANGUAGES.map((l) => [l, l === 'cn' ? '黄金' : `Gold (${l})`])),
  ...more,
});
const currencies = async (lan = 'en') => (await get<DictEntry[]>('/api/v1/dict/currencies', { token: guest, query: { lan } })).data;
const total = async (type = 'currency') => (await get<DictPage>('/api/v1/dicts', { query: { type, size: '1' } })).data.total;

describe('the dict/* calls answer from the dictionary as they did from the constants', () => {
  it('currencies, plant types and time zones keep their answers', async () => {
    const names = new Intl.DisplayNames([LANGUAGE_TAGS.de], { type: 'currency' });
    expect(await currencies('de')).toEqual(CURRENCIES.map((code) => ({ value: code, label: `${code} · ${names.of(code) ?? code}` })));
    const types = await get<DictEntry[]>('/api/v1/dict/plantTypes', { token: guest, query: { lan: 'cz' } });
    expect(types.data).toEqual(PLANT_TYPES.map((t) => ({ value: t, label: translate('cz', `plantType.${t}`) })));
    const zones = await get<DictEntry[]>('/api/v1/dict/timezones', { token: guest });
    expect(zones.data.find((z) => z.value === 'Asia/Kolkata')?.label).toBe('(UTC+05:30) Asia/Kolkata');
    expect(zones.data.length).toBeGreaterThan(300);
  });
});

describe('dictionary management', () => {
  it('is for platform administrators only (company administrators and guests get 2, nothing stored)', async () => {
    for (const token of [companyAdmin, guest]) {
      expect((await get('/api/v1/dicts', { token, query: { type: 'currency' } })).code).toBe(Code.NO_PERMISSION);
      expect((await post('/api/v1/dict', gold(), token)).code).toBe(Code.NO_PERMISSION);
    }
    expect((await currencies()).some((c) => c.value === 'XAU')).toBe(false);
  });

  it('adds a currency with a text per language; pickers show it in the caller’s language, in its order', async () => {
    const before = await total();
    const added = await post<DictEntryRow>('/api/v1/dict', gold());
    expect(added.code).toBe(0);
    expect(added.data).toMatchObject({ type: 'currency', code: 'XAU', sort: 5, enabled: true, label: 'Gold (en)' });
    expect(await total()).toBe(before + 1);
    expect((await currencies('cn'))[0]).toEqual({ value: 'XAU', label: 'XAU · 黄金' });
    // A plant may now use it.
    expect(
      (await createPlant(server, companyAdmin, { tariff: { currency: 'XAU', pricingMethod: 'constant', price: 1 } }, companyId)).id,
    ).toBeGreaterThan(0);
  });

  it('refuses a duplicate code with 5000 and bad codes and missing texts with field errors; nothing is stored', async () => {
    const before = await total();
    const duplicate = await post('/api/v1/dict', gold());
    expect(duplicate.code).toBe(Code.DICTIONARY_CODE_EXISTS);
    expect(duplicate.message).toBe('This dictionary code already exists.');
    const badCode = await post<{ errors: { field: string }[] }>('/api/v1/dict', gold({ code: 'xau1' }));
    expect(badCode.code).toBe(Code.VALIDATION);
    expect(badCode.data.errors.map((e) => e.field)).toEqual(['code']);
    const missing = await post<{ errors: { field: string }[] }>(
      '/api/v1/dict',
      gold({ code: 'XAG', texts: { en: 'Silver', de: 'Silber' } }),
    );
    expect(missing.code).toBe(Code.VALIDATION);
    expect(missing.data.errors.map((e) => e.field)).toContain('texts.cn');
    expect((await post('/api/v1/dict', gold({ type: 'plantType', code: '9' }))).code).toBe(Code.DICT_TYPE_FIXED);
    const zone = await post<{ errors: { field: string }[] }>('/api/v1/dict', {
      type: 'timezone',
      code: 'Mars/Olympus',
      sort: 0,
      internationalised: false,
      texts: { en: 'Olympus' },
    });
    expect(zone.code).toBe(Code.VALIDATION);
    expect(await total()).toBe(before);
    expect(await total('plantType')).toBe(3);
  });

  it('edits texts and order, disables an entry (no longer offered, a plant cannot take it) and enables it again', async () => {
    const page = await get<DictPage>('/api/v1/dicts', { query: { type: 'currency', keyword: 'xau' } });
    const entry = page.data.infos[0];
    if (!entry) throw new Error('XAU missing');
    const one = await post<DictEntryRow>(`/api/v1/dict/${entry.id}`, { sort: 999, internationalised: false, texts: { en: 'Gold ounce' } });
    expect(one.data).toMatchObject({ code: 'XAU', sort: 999, internationalised: false, texts: { en: 'Gold ounce' } });
    expect((await currencies('de')).at(-1)).toEqual({ value: 'XAU', label: 'XAU · Gold ounce' });
    expect((await post(`/api/v1/dict/${entry.id}/enabled`, { enabled: false })).code).toBe(0);
    expect((await currencies()).some((c) => c.value === 'XAU')).toBe(false);
    const gateway = await newGateway(server, companyId);
    const refused = await post(
      '/api/v1/plant',
      plantInput({ gateways: [gateway], tariff: { currency: 'XAU', pricingMethod: 'constant', price: 1 } }),
      companyAdmin,
    );
    expect(refused.code).toBe(Code.VALIDATION);
    expect((await post(`/api/v1/dict/${entry.id}/enabled`, { enabled: true })).code).toBe(0);
    expect((await currencies()).some((c) => c.value === 'XAU')).toBe(true);
    expect((await post('/api/v1/dict/99999/enabled', { enabled: true })).code).toBe(Code.NOT_FOUND);
  });

  it('adds a time zone the server knows under its own text', async () => {
    const zones = await get<DictPage>('/api/v1/dicts', { query: { type: 'timezone', keyword: 'Asia/Kolkata' } });
    expect(zones.data.infos.map((z) => z.code)).toContain('Asia/Kolkata');
    const dup = await post('/api/v1/dict', {
      type: 'timezone',
      code: 'Asia/Kolkata',
      sort: 0,
      internationalised: false,
      texts: { en: 'India' },
    });
    expect(dup.code).toBe(Code.DICTIONARY_CODE_EXISTS);
  });
});
