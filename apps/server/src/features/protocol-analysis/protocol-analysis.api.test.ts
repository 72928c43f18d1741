import { Code } from '@sunward/contracts/codes';
import type { FrameAnalysisAnswer } from '@sunward/contracts/protocol-analysis';
import { encodeValues } from '@sunward/protocol/codec';
import { protocolById } from '@sunward/protocol/maps/index';
import { bytesToHex, rtuFrame } from '@sunward/protocol/modbus-frame';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInCast } from '../../test/api.js';
import { call } from '../../test/client.js';
import { startTestServer, type TestServer } from '../../test/harness.js';

let server: TestServer;
let admin: string;
let companyAdmin: string;

beforeAll(async () => {
  server = await startTestServer();
  ({ admin, companyAdmin } = await signedInCast(server, 'Analysis Test Company'));
});
afterAll(async () => server?.close());

const PROTOCOL = 'sunspec-inverter-1p';

/** A read response carrying the map's first holding block with W = 3000 W. */
function responseFrame() {
  const protocol = protocolById(PROTOCOL);
  const [block] = protocol ? encodeValues(protocol, { W: 3000, W_SF: 0 }, { functionCode: 3 }) : [];
  if (!block) throw new Error('no block');
  const data = block.registers.flatMap((r) => [r >> 8, r & 0xff]);
  return { frame: rtuFrame(1, Uint8Array.from([3, data.length, ...data])), address: block.address };
}

const analyse = (json: unknown, token = admin, headers: Record<string, string> = {}) =>
  call<FrameAnalysisAnswer>(server.app, 'POST', '/api/v1/protocol-analysis', { token, json, headers });

describe('protocol analysis', () => {
  it('reads a read response with the store’s map: W decoded, CRC shown', async () => {
    const { frame, address } = responseFrame();
    const { body } = await analyse({ protocol: PROTOCOL, format: 'rtu', frame: bytesToHex(frame), startAddress: address });
    expect(body.code).toBe(0);
    expect(body.data?.points.find((p) => p.id === 'W')?.value).toBe(3000);
    expect(body.data?.crc).toMatch(/^[0-9A-F]{4}$/);
  });

  it('refuses a wrong CRC on the frame field in the caller’s language, and an unknown protocol', async () => {
    const { frame, address } = responseFrame();
    const bad = Uint8Array.from(frame);
    bad[bad.length - 2] = (bad[bad.length - 2] ?? 0) ^ 0x0f;
    const { body } = await analyse({ protocol: PROTOCOL, format: 'rtu', frame: bytesToHex(bad), startAddress: address }, admin, {
      'accept-language': 'de',
    });
    expect(body.code).toBe(Code.VALIDATION);
    const errors = (body.data as unknown as { errors: { field: string; message: string }[] }).errors;
    expect(errors[0]?.field).toBe('frame');
    expect(errors[0]?.message).toMatch(/^Falsche CRC: Die Bytes ergeben [0-9A-F]{4}, der Rahmen trägt [0-9A-F]{4}\.$/);
    const unknown = await analyse({ protocol: 'no-such-map', format: 'rtu', frame: '01 03 00 00 00 01 84 0A' });
    expect(unknown.body.code).toBe(Code.VALIDATION);
    expect(JSON.stringify(unknown.body.data)).toContain('"field":"protocol"');
  });

  it('is for platform administrators only', async () => {
    const { body } = await analyse({ protocol: PROTOCOL, format: 'rtu', frame: '01 03 00 00 00 01 84 0A' }, companyAdmin);
    expect(body.code).toBe(Code.NO_PERMISSION);
  });
});
