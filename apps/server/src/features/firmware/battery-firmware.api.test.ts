import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BatteryFirmwarePage, BatteryFirmwareRow, BatteryProductPage, BatteryTypeNode } from '@sunward/contracts/battery-firmware';
import { Code } from '@sunward/contracts/codes';
import type { FirmwarePage, FirmwareRow } from '@sunward/contracts/firmware';
import type { FirmwareReleaseLog } from '@sunward/contracts/firmware-releases';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, signedInCast } from '../../test/api.js';
import { call, multipartBody } from '../../test/client.js';
import { ADMIN, startTestServer, type TestServer } from '../../test/harness.js';

let server: TestServer;
let dataDir: string;
let admin: string;
let companyAdmin: string;
let guest: string;
let counter = 0;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'sunward-battery-fw-'));
  server = await startTestServer({ DATA_DIR: dataDir });
  ({ admin, companyAdmin, guest } = await signedInCast(server, 'Battery Firmware Test Company'));
});
const { get, post } = apiClient(
  () => server.app,
  () => admin,
);

afterAll(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

type Answer<T = unknown> = { code: number; data: T; message: string };

/** A binary image: random bytes that start like no known file format. */
function binImage(size = 2048): Buffer {
  const bytes = randomBytes(size);
  bytes[0] = 0x00;
  return bytes;
}
const md5 = (bytes: Buffer) => createHash('md5').update(bytes).digest('hex');
const storedFiles = () => readdirSync(join(dataDir, 'firmware'));

/** Expects a code-4 refusal naming `field`. */
function refusedField(answer: { code: number; data: unknown }, field: string): string {
  expect(answer.code).toBe(Code.VALIDATION);
  const errors = (answer.data as { errors: { field: string; message: string }[] }).errors;
  expect(errors.map((e) => e.field)).toContain(field);
  return errors.find((e) => e.field === field)?.message ?? '';
}

async function addType(name: string, parentId?: number): Promise<number> {
  const answer = await post<{ id: number }>('/api/v1/firmware/batteryType/add', { name, parentId });
  expect(answer.code, JSON.stringify(answer)).toBe(0);
  return answer.data.id;
}

async function addProduct(name: string, batteryTypeId: number): Promise<number> {
  const answer = await post<{ id: number }>('/api/v1/battery/product', {
    name,
    manufacturer: 'Voltaic',
    model: `${name}-M`,
    batteryTypeId,
    remark: 'rack module',
  });
  expect(answer.code, JSON.stringify(answer)).toBe(0);
  return answer.data.id;
}

async function save(fields: Record<string, string>, bytes: Buffer | undefined, token = admin) {
  const { payload, contentType } = multipartBody(fields, bytes ? { name: fields.fileName ?? 'x.bin', bytes } : undefined);
  const response = await server.app.inject({
    method: 'POST',
    url: '/api/v1/firmware/battery/save',
    headers: { authorization: `Bearer ${token}`, 'content-type': contentType, 'accept-language': 'en' },
    payload,
  });
  return response.json() as Answer<BatteryFirmwareRow>;
}

function imageFields(bytes: Buffer, typeId: number, productId: number, overrides: Record<string, string> = {}): Record<string, string> {
  const n = ++counter;
  return {
    name: `BMS-${n}`,
    batteryTypeId: String(typeId),
    batteryProductId: String(productId),
    itemNumber: `B-${n}`,
    hwVersion: 'H2',
    swVersion: `3.0.${n}`,
    mode: 'remote',
    fileName: `bms_${n}.bin`,
    md5: md5(bytes),
    changeLog: `Balancing fix ${n}`,
    ...overrides,
  };
}

const tree = async () => (await get<BatteryTypeNode[]>('/api/v1/firmware/batteryType')).data;

describe('the call catalogue', () => {
  it('answers every battery firmware, battery type and battery product row of calls.tsv, and the release timeline', () => {
    const rows = readFileSync(new URL('../../../../../docs/spec/calls.tsv', import.meta.url), 'utf8')
      .split('\n')
      .map((line) => line.split('\t'))
      .filter(
        ([, path, area]) =>
          (area === 'Firmware' && /\/(battery\/|batteryType|battery\/products?)/.test(path ?? '') && !/[Uu]pgrade/.test(path ?? '')) ||
          path === '/anonymous/firmware/version/timeline',
      );
    expect(rows.length).toBe(16);
    // GET battery/{id} is the battery device detail (devices feature); the image detail takes the note's other reading.
    const reading = (method: string, path: string) =>
      method === 'GET' && path === '/api/v1/battery/{id}' ? '/api/v1/firmware/battery/:id' : path.replace('{id}', ':id');
    for (const [method = '', path = ''] of rows)
      expect(server.app.hasRoute({ method: method as 'GET' | 'POST', url: reading(method, path) }), `${method} ${path}`).toBe(true);
  });
});

describe('battery types', () => {
  let lfp: number;
  let nmc: number;
  let rack: number;

  beforeAll(async () => {
    lfp = await addType('LFP');
    nmc = await addType('NMC');
    rack = await addType('Rack 48V', lfp);
  });

  it('lists the tree: primaries with their secondary types', async () => {
    const nodes = await tree();
    const lfpNode = nodes.find((n) => n.id === lfp);
    expect(lfpNode?.children).toEqual([{ id: rack, name: 'Rack 48V', parentId: lfp, products: 0, firmware: 0 }]);
    expect(nodes.find((n) => n.id === nmc)?.children).toEqual([]);
  });

  it('keeps names unique among primaries and among the secondaries of one primary (4004)', async () => {
    expect((await post('/api/v1/firmware/batteryType/add', { name: 'LFP' })).code).toBe(Code.BATTERY_TYPE_NAME_EXISTS);
    expect((await post('/api/v1/firmware/batteryType/add', { name: 'Rack 48V', parentId: lfp })).code).toBe(Code.BATTERY_TYPE_NAME_EXISTS);
    // The same secondary name under another primary, and a secondary named like a primary, are fine.
    const other = await addType('Rack 48V', nmc);
    const named = await addType('LFP', nmc);
    for (const id of [other, named]) expect((await post(`/api/v1/firmware/batteryType/${id}/delete`)).code).toBe(0);
  });

  it('checks a name as the form types it', async () => {
    const check = (query: Record<string, string>) => get('/api/v1/firmware/batteryType/check', { query });
    expect((await check({ name: 'LFP' })).code).toBe(Code.BATTERY_TYPE_NAME_EXISTS);
    expect((await check({ name: 'LFP', id: String(lfp) })).code).toBe(0);
    expect((await check({ name: 'Rack 48V', parentId: String(lfp) })).code).toBe(Code.BATTERY_TYPE_NAME_EXISTS);
    expect((await check({ name: 'Rack 48V', parentId: String(nmc) })).code).toBe(0);
    expect((await check({ name: 'Sodium' })).code).toBe(0);
  });

  it('refuses a secondary under a secondary (4005), an unknown parent and special characters (4)', async () => {
    expect((await post('/api/v1/firmware/batteryType/add', { name: 'Deep', parentId: rack })).code).toBe(Code.BATTERY_TYPE_NOT_PRIMARY);
    refusedField(await post('/api/v1/firmware/batteryType/add', { name: 'Lost', parentId: 999_999 }), 'parentId');
    refusedField(await post('/api/v1/firmware/batteryType/add', { name: 'A<b>' }), 'name');
    refusedField(await post('/api/v1/firmware/batteryType/add', { name: '   ' }), 'name');
    expect((await tree()).flatMap((n) => [n.name, ...n.children.map((c) => c.name)])).not.toContain('Deep');
  });

  it('renames a type, refusing a sibling’s name (4004) and an unknown type (404)', async () => {
    const temp = await addType('Temp', lfp);
    expect((await post(`/api/v1/firmware/batteryType/${temp}/edit`, { name: 'Rack 48V' })).code).toBe(Code.BATTERY_TYPE_NAME_EXISTS);
    expect((await post(`/api/v1/firmware/batteryType/${temp}/edit`, { name: 'Wall 51V' })).code).toBe(0);
    expect((await tree()).find((n) => n.id === lfp)?.children.map((c) => c.name)).toContain('Wall 51V');
    expect((await post('/api/v1/firmware/batteryType/999999/edit', { name: 'X' })).code).toBe(Code.NOT_FOUND);
    expect((await post(`/api/v1/firmware/batteryType/${temp}/delete`)).code).toBe(0);
  });

  it('moves a secondary type under another primary, refusing a same-named one there (4004)', async () => {
    const mover = await addType('Cabinet', lfp);
    expect((await post(`/api/v1/firmware/batteryType/${mover}/move`, { parentId: nmc })).code).toBe(0);
    let nodes = await tree();
    expect(nodes.find((n) => n.id === nmc)?.children.map((c) => c.id)).toContain(mover);
    expect(nodes.find((n) => n.id === lfp)?.children.map((c) => c.id)).not.toContain(mover);

    const twin = await addType('Cabinet', lfp);
    expect((await post(`/api/v1/firmware/batteryType/${twin}/move`, { parentId: nmc })).code).toBe(Code.BATTERY_TYPE_NAME_EXISTS);
    nodes = await tree();
    expect(nodes.find((n) => n.id === lfp)?.children.map((c) => c.id)).toContain(twin);
    for (const id of [mover, twin]) expect((await post(`/api/v1/firmware/batteryType/${id}/delete`)).code).toBe(0);
  });

  it('refuses a move under itself or under a secondary (4005), and of a primary with subtypes (4003)', async () => {
    expect((await post(`/api/v1/firmware/batteryType/${lfp}/move`, { parentId: lfp })).code).toBe(Code.BATTERY_TYPE_NOT_PRIMARY);
    expect((await post(`/api/v1/firmware/batteryType/${rack}/move`, { parentId: rack })).code).toBe(Code.BATTERY_TYPE_NOT_PRIMARY);
    expect((await post(`/api/v1/firmware/batteryType/${nmc}/move`, { parentId: rack })).code).toBe(Code.BATTERY_TYPE_NOT_PRIMARY);
    expect((await post(`/api/v1/firmware/batteryType/${lfp}/move`, { parentId: nmc })).code).toBe(Code.BATTERY_TYPE_HAS_SUBTYPES);
    refusedField(await post(`/api/v1/firmware/batteryType/${rack}/move`, { parentId: 999_999 }), 'parentId');
    expect((await post('/api/v1/firmware/batteryType/999999/move', { parentId: lfp })).code).toBe(Code.NOT_FOUND);
    // A primary without subtypes may become a secondary of another primary.
    const lone = await addType('Lone');
    expect((await post(`/api/v1/firmware/batteryType/${lone}/move`, { parentId: nmc })).code).toBe(0);
    expect((await tree()).find((n) => n.id === nmc)?.children.map((c) => c.id)).toContain(lone);
    expect((await post(`/api/v1/firmware/batteryType/${lone}/delete`)).code).toBe(0);
  });

  it('refuses to delete a type with subtypes (4003) or one a product uses (4006); deletes an unused one', async () => {
    expect((await post(`/api/v1/firmware/batteryType/${lfp}/delete`)).code).toBe(Code.BATTERY_TYPE_HAS_SUBTYPES);
    const used = await addType('Used', nmc);
    const product = await addProduct('Used Pack', used);
    const refused = await post(`/api/v1/firmware/batteryType/${used}/delete`);
    expect(refused.code).toBe(Code.BATTERY_TYPE_IN_USE);
    expect(refused.message).toBe('This battery type is used by battery products or firmware and cannot be deleted.');
    expect((await tree()).find((n) => n.id === nmc)?.children.find((c) => c.id === used)?.products).toBe(1);
    expect((await post(`/api/v1/battery/products/${product}/delete`)).code).toBe(0);
    expect((await post(`/api/v1/firmware/batteryType/${used}/delete`)).code).toBe(0);
    expect((await post(`/api/v1/firmware/batteryType/${used}/delete`)).code).toBe(Code.NOT_FOUND);
  });

  it('answers a refusal in the caller’s language', async () => {
    const answer = await call(server.app, 'POST', '/api/v1/firmware/batteryType/add', {
      token: admin,
      json: { name: 'LFP' },
      headers: { 'accept-language': 'de' },
    });
    expect(answer.body).toMatchObject({
      code: Code.BATTERY_TYPE_NAME_EXISTS,
      message: 'Auf dieser Ebene gibt es bereits einen Batterietyp mit diesem Namen.',
    });
  });
});

describe('battery products', () => {
  let primary: number;
  let secondary: number;
  let other: number;

  beforeAll(async () => {
    primary = await addType('Products primary');
    secondary = await addType('Products A', primary);
    const otherPrimary = await addType('Products other primary');
    other = await addType('Products B', otherPrimary);
  });

  it('creates a product of a secondary type, refusing a primary type and an unknown one (4)', async () => {
    const id = await addProduct('Stack 10', secondary);
    expect(
      refusedField(
        await post('/api/v1/battery/product', { name: 'Stack P', manufacturer: 'V', model: 'M', batteryTypeId: primary }),
        'batteryTypeId',
      ),
    ).toBe('choose a secondary battery type (one under a primary type)');
    refusedField(
      await post('/api/v1/battery/product', { name: 'Stack U', manufacturer: 'V', model: 'M', batteryTypeId: 999_999 }),
      'batteryTypeId',
    );
    refusedField(await post('/api/v1/battery/product', { name: 'Stack M', manufacturer: 'V', batteryTypeId: secondary }), 'model');
    const page = await get<BatteryProductPage>('/api/v1/battery/products', { query: { keyword: 'stack 10' } });
    expect(page.data.infos).toEqual([
      expect.objectContaining({
        id,
        name: 'Stack 10',
        manufacturer: 'Voltaic',
        model: 'Stack 10-M',
        remark: 'rack module',
        firmware: 0,
        batteryType: { id: secondary, name: 'Products A', parentId: primary, parentName: 'Products primary' },
      }),
    ]);
  });

  it('keeps product names unique (4007) and checks them as the form types', async () => {
    const id = await addProduct('Unique Pack', secondary);
    expect(
      (await post('/api/v1/battery/product', { name: 'Unique Pack', manufacturer: 'V', model: 'M', batteryTypeId: secondary })).code,
    ).toBe(Code.BATTERY_PRODUCT_NAME_EXISTS);
    expect((await get('/api/v1/battery/product/check', { query: { name: 'Unique Pack' } })).code).toBe(Code.BATTERY_PRODUCT_NAME_EXISTS);
    expect((await get('/api/v1/battery/product/check', { query: { name: 'Unique Pack', id: String(id) } })).code).toBe(0);
    expect((await get('/api/v1/battery/product/check', { query: { name: 'Free Pack' } })).code).toBe(0);
  });

  it('filters by type: a primary covers the products of its secondary types', async () => {
    await addProduct('Other Pack', other);
    const byPrimary = await get<BatteryProductPage>('/api/v1/battery/products', { query: { batteryTypeId: String(primary), size: '100' } });
    expect(byPrimary.data.infos.length).toBeGreaterThan(0);
    expect(byPrimary.data.infos.every((p) => p.batteryType.parentId === primary)).toBe(true);
    const bySecondary = await get<BatteryProductPage>('/api/v1/battery/products', { query: { batteryTypeId: String(other) } });
    expect(bySecondary.data.infos.map((p) => p.name)).toEqual(['Other Pack']);
    expect((await get('/api/v1/battery/products', { query: { size: '101' } })).code).toBe(Code.VALIDATION);
  });

  it('updates a product, refusing another product’s name (4007) and an unknown product (404)', async () => {
    const id = await addProduct('Edit Me', secondary);
    const fields = { name: 'Edited', manufacturer: 'Ampere', model: 'E-2', batteryTypeId: other, remark: '' };
    expect((await post(`/api/v1/battery/products/${id}`, fields)).code).toBe(0);
    const page = await get<BatteryProductPage>('/api/v1/battery/products', { query: { keyword: 'Edited' } });
    expect(page.data.infos[0]).toMatchObject({
      name: 'Edited',
      manufacturer: 'Ampere',
      model: 'E-2',
      remark: null,
      batteryType: { id: other },
    });
    expect((await post(`/api/v1/battery/products/${id}`, { ...fields, name: 'Unique Pack' })).code).toBe(Code.BATTERY_PRODUCT_NAME_EXISTS);
    expect((await post('/api/v1/battery/products/999999', fields)).code).toBe(Code.NOT_FOUND);
    expect((await post('/api/v1/battery/products/999999/delete')).code).toBe(Code.NOT_FOUND);
  });
});

describe('battery images', () => {
  let primary: number;
  let typeA: number;
  let typeB: number;
  let productA: number;
  let productB: number;
  let image: BatteryFirmwareRow;

  beforeAll(async () => {
    primary = await addType('Images primary');
    typeA = await addType('Images A', primary);
    typeB = await addType('Images B', primary);
    productA = await addProduct('Pack A', typeA);
    productB = await addProduct('Pack B', typeB);
    const bytes = binImage();
    const answer = await save(imageFields(bytes, typeA, productA, { name: 'Pack A BMS 3.1.0', swVersion: '3.1.0' }), bytes);
    expect(answer.code, JSON.stringify(answer)).toBe(0);
    image = answer.data;
  });

  it('saves a battery image through the main pipeline: MD5, SHA-256, signature, type and product', async () => {
    expect(image).toMatchObject({
      type: 'battery',
      name: 'Pack A BMS 3.1.0',
      manufacturer: 'Voltaic',
      product: 'Pack A',
      swVersion: '3.1.0',
      enabled: false,
      creator: ADMIN.account,
      batteryType: { id: typeA, name: 'Images A', parentId: primary, parentName: 'Images primary' },
      batteryProduct: { id: productA, name: 'Pack A', model: 'Pack A-M' },
    });
    expect(image.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(image.signature.length).toBeGreaterThan(40);
    const detail = await get<BatteryFirmwareRow>(`/api/v1/firmware/battery/${image.id}`);
    expect(detail.data).toEqual(image);
    const download = await server.app.inject({
      method: 'GET',
      url: `/api/v1/firmware/battery/${image.id}/file`,
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.length).toBe(image.size);
  });

  it('refuses a wrong MD5 and keeps nothing', async () => {
    const before = storedFiles().sort();
    const bytes = binImage();
    const fields = imageFields(bytes, typeA, productA, { md5: md5(binImage()) });
    expect(refusedField(await save(fields, bytes), 'md5')).toBe('does not match the MD5 of the uploaded file');
    expect(storedFiles().sort()).toEqual(before);
    expect((await get<BatteryFirmwarePage>('/api/v1/firmware/battery/list', { query: { keyword: fields.name ?? '' } })).data.total).toBe(0);
  });

  it('applies the main library’s file checks (type by name and by content, missing file)', async () => {
    const bytes = binImage();
    refusedField(await save(imageFields(bytes, typeA, productA, { fileName: 'bms.img' }), bytes), 'file');
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(200)]);
    refusedField(await save(imageFields(png, typeA, productA), png), 'file');
    refusedField(await save(imageFields(bytes, typeA, productA), undefined), 'file');
  });

  it('refuses a duplicate name (4000, also against the main library) and a duplicate battery version (4002)', async () => {
    const bytes = binImage();
    expect((await save(imageFields(bytes, typeA, productA, { name: image.name }), bytes)).code).toBe(Code.FIRMWARE_NAME_DUPLICATE);
    expect((await save(imageFields(bytes, typeB, productB, { swVersion: '3.1.0' }), bytes)).code).toBe(Code.FIRMWARE_VERSION_DUPLICATE);
    // The live check of the main library speaks for battery versions too.
    expect((await get('/api/v1/firmware/check', { query: { swVersion: '3.1.0', type: 'battery' } })).code).toBe(
      Code.FIRMWARE_VERSION_DUPLICATE,
    );

    const gatewayBytes = binImage();
    const { payload, contentType } = multipartBody(
      {
        name: 'Shared name',
        manufacturer: 'Sunward',
        product: 'Hub',
        swVersion: '3.1.0',
        type: 'gateway',
        mode: 'remote',
        fileName: 'hub.bin',
        md5: md5(gatewayBytes),
      },
      { name: 'hub.bin', bytes: gatewayBytes },
    );
    const gateway = await server.app.inject({
      method: 'POST',
      url: '/api/v1/firmware',
      headers: { authorization: `Bearer ${admin}`, 'content-type': contentType },
      payload,
    });
    // The same version of another type is a different image.
    expect(gateway.json().code).toBe(0);
    expect((await save(imageFields(bytes, typeA, productA, { name: 'Shared name' }), bytes)).code).toBe(Code.FIRMWARE_NAME_DUPLICATE);
  });

  it('refuses a primary type, a product of another type and an unknown product (4)', async () => {
    const bytes = binImage();
    refusedField(await save(imageFields(bytes, primary, productA), bytes), 'batteryTypeId');
    expect(refusedField(await save(imageFields(bytes, typeA, productB), bytes), 'batteryProductId')).toBe(
      'this product is not of the chosen battery type',
    );
    refusedField(await save(imageFields(bytes, typeA, 999_999), bytes), 'batteryProductId');
    refusedField(await save(imageFields(bytes, typeA, productA, { swVersion: '1 0' }), bytes), 'swVersion');
  });

  it('edits the metadata with the same rules', async () => {
    const fields = {
      name: 'Pack B BMS 3.1.0',
      batteryTypeId: typeB,
      batteryProductId: productB,
      swVersion: '3.1.0',
      mode: 'local',
      changeLog: 'Moved to pack B',
    };
    const edited = await post<BatteryFirmwareRow>(`/api/v1/battery/${image.id}`, fields);
    expect(edited.code, JSON.stringify(edited)).toBe(0);
    expect(edited.data).toMatchObject({
      name: 'Pack B BMS 3.1.0',
      product: 'Pack B',
      mode: 'local',
      changeLog: 'Moved to pack B',
      md5: image.md5,
      batteryType: { id: typeB },
      batteryProduct: { id: productB },
    });
    expect(refusedField(await post(`/api/v1/battery/${image.id}`, { ...fields, batteryProductId: productA }), 'batteryProductId')).toBe(
      'this product is not of the chosen battery type',
    );
    // The same update at the other reading of the path.
    expect((await post(`/api/v1/firmware/battery/${image.id}`, { ...fields, name: 'Shared name' })).code).toBe(
      Code.FIRMWARE_NAME_DUPLICATE,
    );
    expect((await post('/api/v1/battery/999999', fields)).code).toBe(Code.NOT_FOUND);
    image = edited.data;
  });

  it('lists battery images with type, product, keyword and state filters; the main list keeps gateway and inverter only', async () => {
    const bytes = binImage();
    const second = (await save(imageFields(bytes, typeA, productA), bytes)).data;
    const list = (query: Record<string, string>) => get<BatteryFirmwarePage>('/api/v1/firmware/battery/list', { query });
    expect((await list({ batteryTypeId: String(primary) })).data.infos.map((r) => r.id)).toEqual([second.id, image.id]);
    expect((await list({ batteryTypeId: String(typeA) })).data.infos.map((r) => r.id)).toEqual([second.id]);
    expect((await list({ batteryProductId: String(productB) })).data.infos.map((r) => r.id)).toEqual([image.id]);
    expect((await list({ keyword: 'pack b bms' })).data.infos.map((r) => r.id)).toEqual([image.id]);
    expect((await list({ enabled: 'true' })).data.total).toBe(0);

    const main = await get<FirmwarePage>('/api/v1/firmware/page', { query: { size: '100' } });
    expect(main.data.infos.some((r) => r.type === 'battery')).toBe(false);
    // A battery image is not edited through the main library's form.
    const viaMain = await post<FirmwareRow>(`/api/v1/firmware/${image.id}`, {
      name: 'X',
      manufacturer: 'X',
      product: 'X',
      swVersion: '9.9.9',
      type: 'gateway',
      mode: 'remote',
    });
    expect(viaMain.code).toBe(Code.NOT_FOUND);
  });

  it('carries a product’s new name and type over to its images', async () => {
    const typeC = await addType('Images C', primary);
    const fields = { name: 'Pack B2', manufacturer: 'Ampere', model: 'B2', batteryTypeId: typeC };
    expect((await post(`/api/v1/battery/products/${productB}`, fields)).code).toBe(0);
    const detail = (await get<BatteryFirmwareRow>(`/api/v1/firmware/battery/${image.id}`)).data;
    expect(detail).toMatchObject({
      product: 'Pack B2',
      manufacturer: 'Ampere',
      batteryType: { id: typeC },
      batteryProduct: { name: 'Pack B2' },
    });
    const counts = (await tree()).find((n) => n.id === primary)?.children.find((c) => c.id === typeC);
    expect(counts).toMatchObject({ products: 1, firmware: 1 });
  });

  it('refuses to delete a product or a type its images use (4008, 4006)', async () => {
    const refused = await post(`/api/v1/battery/products/${productA}/delete`);
    expect(refused.code).toBe(Code.BATTERY_PRODUCT_IN_USE);
    expect(refused.message).toBe('This battery product is used by battery firmware and cannot be deleted.');
    expect((await post(`/api/v1/firmware/batteryType/${typeA}/delete`)).code).toBe(Code.BATTERY_TYPE_IN_USE);
  });

  it('enables an image, which the public release log then shows without its file, hashes or signature', async () => {
    const timeline = () => call<FirmwareReleaseLog>(server.app, 'GET', '/anonymous/firmware/version/timeline');
    const before = (await timeline()).body;
    expect(before.code).toBe(0);
    expect(before.data.groups.flatMap((g) => g.releases).some((r) => r.id === image.id)).toBe(false);

    expect((await post(`/api/v1/firmware/battery/${image.id}/enable`, { enabled: true })).code).toBe(0);
    const after = (await timeline()).body.data;
    const group = after.groups.find((g) => g.product === 'Pack B2');
    expect(group?.releases).toEqual([
      {
        id: image.id,
        name: image.name,
        type: 'battery',
        product: 'Pack B2',
        manufacturer: 'Ampere',
        swVersion: '3.1.0',
        // The edit above left the hardware version out, which clears it.
        hwVersion: null,
        changeLog: 'Moved to pack B',
        releasedAt: image.createdAt,
      },
    ]);
    expect(after.products).toContain('Pack B2');
    const text = JSON.stringify(after);
    for (const secret of [image.md5, image.sha256, image.signature, image.fileName]) expect(text).not.toContain(secret);
    expect((await post(`/api/v1/firmware/battery/${image.id}/enable`, { enabled: false })).code).toBe(0);
  });

  it('deletes an image and its file', async () => {
    const bytes = binImage();
    const doomed = (await save(imageFields(bytes, typeA, productA), bytes)).data;
    const count = storedFiles().length;
    expect((await post(`/api/v1/firmware/battery/${doomed.id}/delete`)).code).toBe(0);
    expect(storedFiles().length).toBe(count - 1);
    expect((await get(`/api/v1/firmware/battery/${doomed.id}`)).code).toBe(Code.NOT_FOUND);
    expect((await post(`/api/v1/firmware/battery/${doomed.id}/delete`)).code).toBe(Code.NOT_FOUND);
  });

  it('does not answer for gateway or inverter records through the battery calls (404)', async () => {
    const main = await get<FirmwarePage>('/api/v1/firmware/page', { query: { size: '1' } });
    const gatewayId = main.data.infos[0]?.id;
    expect(gatewayId).toBeDefined();
    expect((await get(`/api/v1/firmware/battery/${gatewayId}`)).code).toBe(Code.NOT_FOUND);
    expect((await post(`/api/v1/firmware/battery/${gatewayId}/enable`, { enabled: true })).code).toBe(Code.NOT_FOUND);
    expect((await post(`/api/v1/firmware/battery/${gatewayId}/delete`)).code).toBe(Code.NOT_FOUND);
  });

  it('refuses every battery call to a company administrator and a guest with code 2, changing nothing', async () => {
    const bytes = binImage();
    for (const token of [companyAdmin, guest]) {
      const answers = await Promise.all([
        get('/api/v1/firmware/battery/list', token),
        get(`/api/v1/firmware/battery/${image.id}`, token),
        post(`/api/v1/battery/${image.id}`, { name: 'Hijack' }, token),
        post(`/api/v1/firmware/battery/${image.id}`, { name: 'Hijack' }, token),
        post(`/api/v1/firmware/battery/${image.id}/enable`, { enabled: true }, token),
        post(`/api/v1/firmware/battery/${image.id}/delete`, undefined, token),
        get(`/api/v1/firmware/battery/${image.id}/file`, token),
        get('/api/v1/firmware/batteryType', token),
        get('/api/v1/firmware/batteryType/check', { query: { name: 'X' }, token }),
        post('/api/v1/firmware/batteryType/add', { name: 'Intruder' }, token),
        post(`/api/v1/firmware/batteryType/${typeA}/edit`, { name: 'Intruder' }, token),
        post(`/api/v1/firmware/batteryType/${typeA}/move`, { parentId: primary }, token),
        post(`/api/v1/firmware/batteryType/${typeB}/delete`, undefined, token),
        get('/api/v1/battery/products', token),
        get('/api/v1/battery/product/check', { query: { name: 'X' }, token }),
        post('/api/v1/battery/product', { name: 'Intruder', manufacturer: 'X', model: 'X', batteryTypeId: typeA }, token),
        post(`/api/v1/battery/products/${productA}`, { name: 'Intruder', manufacturer: 'X', model: 'X', batteryTypeId: typeA }, token),
        post(`/api/v1/battery/products/${productA}/delete`, undefined, token),
      ]);
      for (const answer of answers) expect(answer.code).toBe(Code.NO_PERMISSION);
      expect((await save(imageFields(bytes, typeA, productA), bytes, token)).code).toBe(Code.NO_PERMISSION);
    }
    expect((await get<BatteryFirmwareRow>(`/api/v1/firmware/battery/${image.id}`)).data).toMatchObject({
      name: image.name,
      enabled: false,
    });
    expect(JSON.stringify(await tree())).not.toContain('Intruder');
  });
});

describe('the public release log', () => {
  it('needs no sign-in, lists enabled releases newest first grouped by product, and filters by product', async () => {
    const type = await addType('Log primary');
    const sub = await addType('Log sub', type);
    const productX = await addProduct('Log X', sub);
    const productY = await addProduct('Log Y', sub);
    const ids: number[] = [];
    for (const [product, version] of [
      [productX, '7.0.1'],
      [productY, '7.0.2'],
      [productX, '7.0.3'],
    ] as const) {
      const bytes = binImage();
      const saved = await save(imageFields(bytes, sub, product, { swVersion: version }), bytes);
      ids.push(saved.data.id);
      expect((await post(`/api/v1/firmware/battery/${saved.data.id}/enable`, { enabled: true })).code).toBe(0);
    }
    const answer = await call<FirmwareReleaseLog>(server.app, 'GET', '/anonymous/firmware/version/timeline', { query: { size: '3' } });
    expect(answer.status).toBe(200);
    const log = answer.body.data;
    expect(log.total).toBeGreaterThanOrEqual(3);
    // Page of the three newest: X (7.0.3, 7.0.1) first (its newest release is the newest), then Y.
    expect(log.groups.map((g) => [g.product, g.releases.map((r) => r.swVersion)])).toEqual([
      ['Log X', ['7.0.3', '7.0.1']],
      ['Log Y', ['7.0.2']],
    ]);
    const onlyY = await call<FirmwareReleaseLog>(server.app, 'GET', '/anonymous/firmware/version/timeline', {
      query: { product: 'Log Y' },
    });
    expect(onlyY.body.data).toMatchObject({ total: 1, groups: [{ product: 'Log Y' }] });
    const tooMany = await call(server.app, 'GET', '/anonymous/firmware/version/timeline', { query: { size: '51' } });
    expect(tooMany.body.code).toBe(Code.VALIDATION);
  });
});
