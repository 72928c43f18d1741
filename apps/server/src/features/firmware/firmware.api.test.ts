import { createHash, randomBytes, verify } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Code } from '@sunward/contracts/codes';
import type { FirmwarePage, FirmwarePublicKey, FirmwareRow } from '@sunward/contracts/firmware';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRows, sqlRows } from '../../db/rows.js';
import { operationLog } from '../../db/schema.js';
import { signedInCast } from '../../test/api.js';
import { call, multipartBody, signIn } from '../../test/client.js';
import { ADMIN, startTestServer, type TestServer } from '../../test/harness.js';

let server: TestServer;
let dataDir: string;
let admin: string;
let companyAdmin: string;
let companyId: number;
let guest: string;
let counter = 0;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'sunward-firmware-'));
  server = await startTestServer({ DATA_DIR: dataDir });
  ({ admin, companyAdmin, guest, companyId } = await signedInCast(server, 'Firmware Test Company'));
});
afterAll(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** A binary image: random bytes that start like no known file format. */
function binImage(size = 4096): Buffer {
  const bytes = randomBytes(size);
  bytes[0] = 0x00;
  return bytes;
}

/** Valid Intel HEX: 16-byte data records from address 0 and the end-of-file record. */
function hexImage(data: Buffer): Buffer {
  const lines: string[] = [];
  for (let at = 0; at < data.length; at += 16) {
    const chunk = data.subarray(at, at + 16);
    const record = Buffer.concat([Buffer.from([chunk.length, (at >> 8) & 0xff, at & 0xff, 0x00]), chunk]);
    const sum = record.reduce((s, b) => (s + b) & 0xff, 0);
    lines.push(
      `:${Buffer.concat([record, Buffer.from([(0x100 - sum) & 0xff])])
        .toString('hex')
        .toUpperCase()}`,
    );
  }
  lines.push(':00000001FF');
  return Buffer.from(`${lines.join('\r\n')}\r\n`, 'ascii');
}

const md5 = (bytes: Buffer) => createHash('md5').update(bytes).digest('hex');

function fieldsFor(bytes: Buffer, overrides: Record<string, string> = {}): Record<string, string> {
  const n = ++counter;
  return {
    name: `FW-${n}`,
    manufacturer: 'Sunward',
    product: 'SW-5K',
    itemNumber: `IT-${n}`,
    hwVersion: 'H1.0',
    swVersion: `1.0.${n}`,
    swCompatible: '>=1.0.0 <2.0.0',
    type: 'inverter',
    mode: 'remote',
    fileName: `fw_${n}.bin`,
    md5: md5(bytes),
    changeLog: 'First release',
    ...overrides,
  };
}

async function upload(token: string, fields: Record<string, string>, bytes: Buffer | undefined, target = server) {
  const { payload, contentType } = multipartBody(fields, bytes ? { name: fields.fileName ?? 'x.bin', bytes } : undefined);
  const response = await target.app.inject({
    method: 'POST',
    url: '/api/v1/firmware',
    headers: { authorization: `Bearer ${token}`, 'content-type': contentType, 'accept-language': 'en' },
    payload,
  });
  return response.json() as { code: number; data: FirmwareRow & { errors?: { field: string; message: string }[] }; message: string };
}

const storedFiles = () => readdirSync(join(dataDir, 'firmware'));

/** Expects a code-4 refusal naming `field`; answers the field's message. */
function refusedField(answer: { code: number; data: unknown }, field: string): string {
  expect(answer.code).toBe(Code.VALIDATION);
  const errors = (answer.data as { errors: { field: string; message: string }[] }).errors;
  expect(errors.map((e) => e.field)).toContain(field);
  return errors.find((e) => e.field === field)?.message ?? '';
}

describe('firmware upload', () => {
  it('stores a .bin with its MD5, SHA-256 and an Ed25519 signature the public key verifies', async () => {
    const bytes = binImage(20_000);
    const answer = await upload(admin, fieldsFor(bytes), bytes);
    expect(answer.code).toBe(0);
    const row = answer.data;
    expect(row).toMatchObject({ size: 20_000, md5: md5(bytes), type: 'inverter', mode: 'remote', enabled: false, creator: ADMIN.account });
    const digest = createHash('sha256').update(bytes).digest();
    expect(row.sha256).toBe(digest.toString('hex'));
    const key = await call<FirmwarePublicKey>(server.app, 'GET', '/api/v1/firmware/publicKey', { token: guest });
    expect(key.body.data.algorithm).toBe('Ed25519');
    expect(verify(null, digest, key.body.data.publicKey, Buffer.from(row.signature, 'base64'))).toBe(true);
    expect(
      verify(null, createHash('sha256').update(binImage()).digest(), key.body.data.publicKey, Buffer.from(row.signature, 'base64')),
    ).toBe(false);

    const download = await server.app.inject({
      method: 'GET',
      url: `/api/v1/firmware/${row.id}/file`,
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(download.statusCode).toBe(200);
    expect(Buffer.compare(download.rawPayload, bytes)).toBe(0);
    expect(download.headers['content-disposition']).toContain(row.fileName);

    const logged = await sqlRows(
      server.database.db,
      { action: operationLog.action, target: operationLog.target },
      sql`select action, target from operation_log where target_type = 'firmware' and target = ${row.name}`,
    );
    expect(logged).toEqual([{ action: 'firmware.create', target: row.name }]);
  });

  it('keeps the signing key in DATA_DIR/keys with mode 0600', async () => {
    const { statSync } = await import('node:fs');
    expect(statSync(join(dataDir, 'keys', 'firmware-ed25519.pem')).mode & 0o777).toBe(0o600);
  });

  it('stores a valid Intel HEX file', async () => {
    const bytes = hexImage(binImage(300));
    const answer = await upload(admin, fieldsFor(bytes, { fileName: `app-${counter + 1}.hex` }), bytes);
    expect(answer.code).toBe(0);
    expect(answer.data.fileName).toMatch(/\.hex$/);
  });

  it('refuses a file that is neither .bin nor .hex by its name', async () => {
    const bytes = binImage();
    refusedField(await upload(admin, fieldsFor(bytes, { fileName: 'image.img' }), bytes), 'file');
  });

  it('refuses content that is plainly another format, whatever the name says', async () => {
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(500)]);
    expect(refusedField(await upload(admin, fieldsFor(png), png), 'file')).toBe('the content is a PNG file, not a firmware image');
    const zip = Buffer.concat([Buffer.from('PK\x03\x04', 'latin1'), randomBytes(500)]);
    refusedField(await upload(admin, fieldsFor(zip), zip), 'file');
    const text = Buffer.from('just some notes\nin a text file\n');
    refusedField(await upload(admin, fieldsFor(text), text), 'file');
  });

  it('refuses a .hex whose records are not valid Intel HEX (bad checksum, binary bytes)', async () => {
    const good = hexImage(binImage(64)).toString('ascii');
    const badChecksum = Buffer.from(
      good.replace(/^(:.*)(..)\r\n/, (_, head: string, sum: string) => `${head}${sum === '00' ? '01' : '00'}\r\n`),
    );
    expect(refusedField(await upload(admin, fieldsFor(badChecksum, { fileName: 'bad.hex' }), badChecksum), 'file')).toContain('line 1');
    const binary = binImage();
    refusedField(await upload(admin, fieldsFor(binary, { fileName: 'binary.hex' }), binary), 'file');
  });

  it('refuses an empty file and a missing one', async () => {
    const empty = Buffer.alloc(0);
    refusedField(await upload(admin, fieldsFor(empty), empty), 'file');
    refusedField(await upload(admin, fieldsFor(binImage()), undefined), 'file');
  });

  it('refuses a file above 1.5 MB by default', async () => {
    const limit = Math.round(1.5 * 1024 * 1024);
    const tooBig = binImage(limit + 1);
    expect(refusedField(await upload(admin, fieldsFor(tooBig), tooBig), 'file')).toBe('at most 1.5 MB');
    const justRight = binImage(limit);
    expect((await upload(admin, fieldsFor(justRight), justRight)).code).toBe(0);
  });

  it('refuses a bad file name (space, too long)', async () => {
    const bytes = binImage();
    refusedField(await upload(admin, fieldsFor(bytes, { fileName: 'my image.bin' }), bytes), 'fileName');
    refusedField(await upload(admin, fieldsFor(bytes, { fileName: `${'a'.repeat(37)}.bin` }), bytes), 'fileName');
  });

  it('refuses an MD5 that does not match the file and keeps nothing', async () => {
    const before = storedFiles().sort();
    const bytes = binImage();
    const fields = fieldsFor(bytes, { md5: md5(binImage()) });
    refusedField(await upload(admin, fields, bytes), 'md5');
    expect(storedFiles().sort()).toEqual(before);
    const rows = await rawRows(server.database.db, sql`select id from firmware where name = ${fields.name}`);
    expect(rows).toEqual([]);
  });

  it('refuses a malformed field with code 4 naming it', async () => {
    const bytes = binImage();
    refusedField(await upload(admin, fieldsFor(bytes, { swVersion: '1.0 beta' }), bytes), 'swVersion');
    refusedField(await upload(admin, fieldsFor(bytes, { type: 'battery' }), bytes), 'type');
  });

  it('refuses a duplicate name with 4000 and a duplicate software version of a type with 4002', async () => {
    const first = binImage();
    const created = await upload(admin, fieldsFor(first, { swVersion: '7.7.7', type: 'gateway' }), first);
    expect(created.code).toBe(0);
    const before = storedFiles().length;
    const again = binImage();
    expect((await upload(admin, fieldsFor(again, { name: created.data.name }), again)).code).toBe(Code.FIRMWARE_NAME_DUPLICATE);
    expect((await upload(admin, fieldsFor(again, { swVersion: '7.7.7', type: 'gateway' }), again)).code).toBe(
      Code.FIRMWARE_VERSION_DUPLICATE,
    );
    expect(storedFiles().length).toBe(before);
    // The same version of the other type is a different image.
    expect((await upload(admin, fieldsFor(again, { swVersion: '7.7.7', type: 'inverter' }), again)).code).toBe(0);
  });
});

describe('firmware with FIRMWARE_MAX_MB=3', () => {
  it('accepts 3 MB and refuses one byte more', async () => {
    const big = await startTestServer({ FIRMWARE_MAX_MB: '3' });
    try {
      const token = (await signIn(big.app, ADMIN.account, ADMIN.password)).access_token;
      const limit = 3 * 1024 * 1024;
      const tooBig = binImage(limit + 1);
      const refused = await upload(token, fieldsFor(tooBig), tooBig, big);
      expect(refusedField(refused, 'file')).toBe('at most 3 MB');
      const exact = binImage(limit);
      const accepted = await upload(token, fieldsFor(exact), exact, big);
      expect(accepted.code).toBe(0);
      expect(accepted.data.size).toBe(limit);
      const settings = await call<{ maxBytes: number }>(big.app, 'GET', '/api/v1/firmware/settings', { token });
      expect(settings.body.data.maxBytes).toBe(limit);
    } finally {
      await big.close();
    }
  });
});

describe('firmware library calls', () => {
  let row: FirmwareRow;
  beforeAll(async () => {
    const bytes = binImage();
    const answer = await upload(
      admin,
      fieldsFor(bytes, { name: 'Zeta gateway image', product: 'Hub-9', type: 'gateway', swVersion: 'G-2.0' }),
      bytes,
    );
    expect(answer.code).toBe(0);
    row = answer.data;
  });

  it('checks names and versions as the form types them', async () => {
    const check = (query: Record<string, string>) => call(server.app, 'GET', '/api/v1/firmware/check', { token: admin, query });
    expect((await check({ name: 'A free name' })).body.code).toBe(0);
    expect((await check({ name: row.name })).body.code).toBe(Code.FIRMWARE_NAME_DUPLICATE);
    expect((await check({ name: row.name, id: String(row.id) })).body.code).toBe(0);
    expect((await check({ swVersion: 'G-2.0', type: 'gateway' })).body.code).toBe(Code.FIRMWARE_VERSION_DUPLICATE);
    expect((await check({ swVersion: 'G-2.0', type: 'inverter' })).body.code).toBe(0);
  });

  it('lists newest first with keyword, type and enabled filters, at most 100 a page', async () => {
    const page = await call<FirmwarePage>(server.app, 'GET', '/api/v1/firmware/page', { token: admin, query: { page: '1', size: '100' } });
    expect(page.body.code).toBe(0);
    expect(page.body.data.infos[0]?.id).toBe(row.id);
    expect(page.body.data.total).toBe(page.body.data.infos.length);
    const byKeyword = await call<FirmwarePage>(server.app, 'GET', '/api/v1/firmware/page', { token: admin, query: { keyword: 'hub-9' } });
    expect(byKeyword.body.data.infos.map((r) => r.id)).toEqual([row.id]);
    const gateways = await call<FirmwarePage>(server.app, 'GET', '/api/v1/firmware/page', { token: admin, query: { type: 'gateway' } });
    expect(gateways.body.data.infos.every((r) => r.type === 'gateway')).toBe(true);
    const tooMany = await call(server.app, 'GET', '/api/v1/firmware/page', { token: admin, query: { size: '101' } });
    expect(tooMany.body.code).toBe(Code.VALIDATION);
  });

  it('edits the metadata with the same uniqueness rules', async () => {
    const fields = {
      name: 'Zeta gateway image v2',
      manufacturer: 'Sunward',
      product: 'Hub-9',
      swVersion: 'G-2.0',
      type: 'gateway',
      mode: 'local',
      changeLog: 'Fixes the watchdog',
    };
    const edited = await call<FirmwareRow>(server.app, 'POST', `/api/v1/firmware/${row.id}`, { token: admin, json: fields });
    expect(edited.body.code).toBe(0);
    expect(edited.body.data).toMatchObject({ name: 'Zeta gateway image v2', mode: 'local', changeLog: 'Fixes the watchdog', md5: row.md5 });
    const other = (await call<FirmwarePage>(server.app, 'GET', '/api/v1/firmware/page', { token: admin, query: { type: 'inverter' } })).body
      .data.infos[0];
    const clash = await call(server.app, 'POST', `/api/v1/firmware/${row.id}`, { token: admin, json: { ...fields, name: other?.name } });
    expect(clash.body.code).toBe(Code.FIRMWARE_NAME_DUPLICATE);
    const missing = await call(server.app, 'POST', '/api/v1/firmware/999999', { token: admin, json: fields });
    expect(missing.body.code).toBe(Code.NOT_FOUND);
  });

  it('authorises an image for one company, changes it back to every company, and refuses an unknown company', async () => {
    const bytes = binImage();
    const created = await upload(admin, fieldsFor(bytes, { companyId: String(companyId) }), bytes);
    expect(created.code).toBe(0);
    expect(created.data).toMatchObject({ companyId, companyName: 'Firmware Test Company' });
    const listed = await call<FirmwarePage>(server.app, 'GET', '/api/v1/firmware/page', {
      token: admin,
      query: { keyword: created.data.name },
    });
    expect(listed.body.data.infos[0]).toMatchObject({ companyId, companyName: 'Firmware Test Company' });

    const { id, name, manufacturer, product, swVersion, type, mode } = created.data;
    const base = { name, manufacturer, product, swVersion, type, mode };
    // Absent on an edit: unchanged; null: every company again.
    const kept = await call<FirmwareRow>(server.app, 'POST', `/api/v1/firmware/${id}`, { token: admin, json: base });
    expect(kept.body.data.companyId).toBe(companyId);
    const all = await call<FirmwareRow>(server.app, 'POST', `/api/v1/firmware/${id}`, { token: admin, json: { ...base, companyId: null } });
    expect(all.body.data).toMatchObject({ companyId: null, companyName: null });

    const unknown = await call(server.app, 'POST', `/api/v1/firmware/${id}`, {
      token: admin,
      json: { ...base, companyId: 999_999 },
      headers: { 'accept-language': 'de' },
    });
    expect(refusedField(unknown.body as { code: number; data: unknown }, 'companyId')).toContain('Firma');
    const before = storedFiles().sort();
    const other = binImage();
    const refused = fieldsFor(other, { companyId: '999999' });
    refusedField(await upload(admin, refused, other), 'companyId');
    expect(storedFiles().sort()).toEqual(before);
    const rows = await rawRows(server.database.db, sql`select company_id from firmware where id = ${id} or name = ${refused.name}`);
    expect(rows).toEqual([{ company_id: null }]);
  });

  it('enables and disables a record', async () => {
    const on = await call(server.app, 'POST', `/api/v1/firmware/${row.id}/enable`, { token: admin, json: { enabled: true } });
    expect(on.body.code).toBe(0);
    const enabled = await call<FirmwarePage>(server.app, 'GET', '/api/v1/firmware/page', { token: admin, query: { enabled: 'true' } });
    expect(enabled.body.data.infos.map((r) => r.id)).toEqual([row.id]);
    await call(server.app, 'POST', `/api/v1/firmware/${row.id}/enable`, { token: admin, json: { enabled: false } });
    const none = await call<FirmwarePage>(server.app, 'GET', '/api/v1/firmware/page', { token: admin, query: { enabled: 'true' } });
    expect(none.body.data.total).toBe(0);
  });

  it('deletes one record and its image, and several at once', async () => {
    const bytes = binImage();
    const one = (await upload(admin, fieldsFor(bytes), bytes)).data;
    const before = storedFiles().length;
    const deleted = await call(server.app, 'GET', `/api/v1/firmware/${one.id}/delete`, { token: admin });
    expect(deleted.body.code).toBe(0);
    expect(storedFiles().length).toBe(before - 1);
    const gone = await server.app.inject({
      method: 'GET',
      url: `/api/v1/firmware/${one.id}/file`,
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(gone.json().code).toBe(Code.NOT_FOUND);

    const a = binImage();
    const b = binImage();
    const ids = [(await upload(admin, fieldsFor(a), a)).data.id, (await upload(admin, fieldsFor(b), b)).data.id];
    const count = storedFiles().length;
    const batch = await call<{ deleted: number }>(server.app, 'GET', '/api/v1/firmware/batchDelete', {
      token: admin,
      query: { ids: ids.join(',') },
    });
    expect(batch.body).toMatchObject({ code: 0, data: { deleted: 2 } });
    expect(storedFiles().length).toBe(count - 2);
    const bad = await call(server.app, 'GET', '/api/v1/firmware/batchDelete', { token: admin, query: { ids: '1,x' } });
    expect(bad.body.code).toBe(Code.VALIDATION);
  });

  it('refuses every firmware call to a company administrator and a guest with code 2', async () => {
    const bytes = binImage();
    for (const token of [companyAdmin, guest]) {
      const calls = [
        call(server.app, 'GET', '/api/v1/firmware/page', { token }),
        call(server.app, 'GET', '/api/v1/firmware/check', { token, query: { name: 'x' } }),
        call(server.app, 'GET', '/api/v1/firmware/settings', { token }),
        call(server.app, 'POST', `/api/v1/firmware/${row.id}`, { token, json: {} }),
        call(server.app, 'POST', `/api/v1/firmware/${row.id}/enable`, { token, json: { enabled: true } }),
        call(server.app, 'GET', `/api/v1/firmware/${row.id}/delete`, { token }),
        call(server.app, 'GET', '/api/v1/firmware/batchDelete', { token, query: { ids: String(row.id) } }),
        call(server.app, 'GET', `/api/v1/firmware/${row.id}/file`, { token }),
      ];
      for (const answer of await Promise.all(calls)) expect(answer.body.code).toBe(Code.NO_PERMISSION);
      expect((await upload(token, fieldsFor(bytes), bytes)).code).toBe(Code.NO_PERMISSION);
    }
    const still = await call<FirmwarePage>(server.app, 'GET', '/api/v1/firmware/page', { token: admin, query: { keyword: 'Zeta' } });
    expect(still.body.data.infos[0]).toMatchObject({ id: row.id, enabled: false });
  });
});
