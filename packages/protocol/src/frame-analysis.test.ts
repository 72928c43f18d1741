import { describe, expect, it } from 'vitest';
import { encodeValues } from './codec.js';
import { analyseFrame } from './frame-analysis.js';
import { protocolById } from './maps/index.js';
import { bytesToHex, requestPdu, rtuFrame, tcpFrame } from './modbus-frame.js';

const protocol = protocolById('sunspec-inverter-1p');
if (!protocol) throw new Error('no map');
const power = protocol.points.find((p) => p.id === 'W');
if (!power) throw new Error('no W');

/** The map's holding block with W = 2500 W, and a read response carrying it. */
const [block] = encodeValues(protocol, { W: 2500, W_SF: 0, St: 4 }, { functionCode: 3 });
if (!block) throw new Error('no block');

function readResponse(registers: readonly number[]): Uint8Array {
  const data = registers.flatMap((r) => [r >> 8, r & 0xff]);
  return Uint8Array.from([3, data.length, ...data]);
}

describe('protocol analysis', () => {
  it('reads an RTU read response from its start address: points named and decoded, CRC shown', () => {
    const frame = bytesToHex(rtuFrame(1, readResponse(block.registers)));
    const result = analyseFrame(protocol, { format: 'rtu', frame, startAddress: block.address });
    if (!result.ok) throw new Error(JSON.stringify(result.problem));
    const { analysis } = result;
    expect(analysis).toMatchObject({ kind: 'read-response', slave: 1, functionCode: 3 });
    expect(analysis.crc).toMatch(/^[0-9A-F]{4}$/);
    expect(analysis.points.find((p) => p.id === 'W')?.value).toBe(2500);
    expect(analysis.registers).toHaveLength(block.registers.length);
  });

  it('flags the addresses no point covers', () => {
    // Two registers past the map's end.
    const last = Math.max(...protocol.points.filter((p) => p.functionCode === 3).map((p) => p.address + p.count));
    const frame = bytesToHex(rtuFrame(1, readResponse([0x1234, 0x5678])));
    const result = analyseFrame(protocol, { format: 'rtu', frame, startAddress: last + 10 });
    expect(result.ok && result.analysis.unknown).toEqual([{ from: last + 10, to: last + 11 }]);
  });

  it('refuses a wrong CRC naming both CRCs, and a response without its start address', () => {
    const good = rtuFrame(1, readResponse([1, 2]));
    const bad = Uint8Array.from(good);
    bad[bad.length - 1] = (bad[bad.length - 1] ?? 0) ^ 0xff;
    const refused = analyseFrame(protocol, { format: 'rtu', frame: bytesToHex(bad) });
    expect(refused).toMatchObject({ ok: false, problem: { field: 'frame', reason: 'crc' } });
    if (!refused.ok) expect(refused.problem.expected).not.toBe(refused.problem.found);
    expect(analyseFrame(protocol, { format: 'rtu', frame: bytesToHex(good) })).toEqual({
      ok: false,
      problem: { field: 'startAddress', reason: 'start_address_needed' },
    });
    expect(analyseFrame(protocol, { format: 'rtu', frame: 'zz' })).toMatchObject({ ok: false, problem: { reason: 'not_hex' } });
  });

  it('reads a TCP write of multiple registers and a read request’s range', () => {
    const write = tcpFrame(1, requestPdu({ slave: 1, functionCode: 16, address: power.address, values: [0x09c4] }));
    const written = analyseFrame(protocol, { format: 'tcp', frame: bytesToHex(write) });
    expect(written.ok && written.analysis.kind).toBe('write-multiple');
    expect(written.ok && written.analysis.registers[0]).toEqual({ address: power.address, hex: '09C4', pointId: 'W' });
    const request = rtuFrame(1, requestPdu({ slave: 1, functionCode: 3, address: power.address, count: 1 }));
    const asked = analyseFrame(protocol, { format: 'rtu', frame: bytesToHex(request) });
    expect(asked.ok && asked.analysis).toMatchObject({ kind: 'read-request', requested: { address: power.address, count: 1 } });
    const broken = Uint8Array.from(write);
    broken[5] = 99;
    expect(analyseFrame(protocol, { format: 'tcp', frame: bytesToHex(broken) })).toMatchObject({
      ok: false,
      problem: { reason: 'mbap_length' },
    });
  });

  it('reads a gateway report, its device on this map', () => {
    const hex = block.registers.map((r) => r.toString(16).padStart(4, '0')).join('');
    const report = JSON.stringify({
      v: 1,
      seq: 1,
      ts: 0,
      devices: [{ sn: 'IN1', proto: protocol.id, blocks: [{ fc: 3, addr: block.address, hex }] }],
    });
    const result = analyseFrame(protocol, { format: 'report', frame: report });
    expect(result.ok && result.analysis.points.find((p) => p.id === 'W')?.value).toBe(2500);
    expect(analyseFrame(protocol, { format: 'report', frame: '{"devices": [' })).toMatchObject({
      ok: false,
      problem: { reason: 'report_json' },
    });
    expect(analyseFrame(protocol, { format: 'report', frame: '{"blocks": [{"fc": 3}]}' })).toMatchObject({
      ok: false,
      problem: { reason: 'report_blocks' },
    });
  });
});
