import { ReportPayloadSchema } from '@sunward/contracts/gateway-protocol';
import { encodeValues, registersToHex } from '@sunward/protocol/codec';
import { BUILT_IN_PROTOCOLS, protocolById } from '@sunward/protocol/maps/index';
import { sampleValues } from '@sunward/protocol/sample-values';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type DecodeContext, decodeReport, parseReport, REPORT_LIMITS, type RejectReason } from './report-decoder.js';
import { fastCheckedReport } from './report-fast-check.js';

// Whatever a gateway sends, the decoder answers: it never throws, and every reading of a report is
// either decoded inside the accepted window or refused with a reason. Bounded runs: seconds in CI.

const NOW = Date.UTC(2026, 10, 26, 12);
const REASONS: readonly RejectReason[] = [
  'malformed_json',
  'malformed_payload',
  'unknown_device',
  'device_of_other_gateway',
  'unknown_protocol',
  'protocol_mismatch',
  'bad_registers',
  'timestamp_in_future',
  'timestamp_too_old',
  'value_out_of_range',
];
const RUNS = { numRuns: 300, seed: 20261126 } as const;

/** Every SN is a device of gateway 1 with the map the report names (so decoding is reached); 'OTHER…' belongs elsewhere. */
const context: DecodeContext = {
  gatewayId: 1,
  now: new Date(NOW),
  maxAgeMs: 31 * 86_400_000,
  maxFutureMs: 5 * 60_000,
  findDevice: (sn) => ({
    id: sn.length,
    gatewayId: sn.startsWith('OTHER') ? 2 : 1,
    protocolId: currentProto.get(sn) ?? 'sunspec-inverter-3p',
  }),
  findProtocol: protocolById,
};
let currentProto = new Map<string, string>();

function validDevice(protocolIndex: number, sn: string) {
  const protocol = BUILT_IN_PROTOCOLS[protocolIndex % BUILT_IN_PROTOCOLS.length];
  if (!protocol) throw new Error('no maps');
  const blocks = encodeValues(protocol, sampleValues(protocol)).map((b) => ({
    fc: b.functionCode,
    addr: b.address,
    hex: registersToHex(b.registers),
  }));
  return { sn, proto: protocol.id, blocks };
}

/** Decodes a payload and checks the contract; returns what happened for the caller's own checks. */
function decodeChecked(payload: Buffer | string) {
  const parsed = parseReport(payload);
  if (!parsed.ok) {
    expect(REASONS).toContain(parsed.reason);
    return undefined;
  }
  currentProto = new Map(parsed.report.devices.map((d) => [d.sn, d.proto]));
  const decoded = decodeReport(parsed.report, context);
  for (const r of decoded.rejected) expect(REASONS).toContain(r.reason);
  const reportRefused = decoded.rejected.some((r) => r.reason === 'timestamp_in_future' || r.reason === 'timestamp_too_old');
  if (reportRefused) expect(decoded.readings).toHaveLength(0);
  else expect(decoded.readings.length + decoded.rejected.length).toBe(parsed.report.devices.length);
  for (const reading of decoded.readings) {
    const ts = reading.ts.getTime();
    expect(ts).toBeGreaterThanOrEqual(Math.max(REPORT_LIMITS.minTs, NOW - context.maxAgeMs));
    expect(ts).toBeLessThanOrEqual(NOW + context.maxFutureMs);
    for (const value of reading.values) expect(Number.isNaN(value) || Math.abs(value) <= REPORT_LIMITS.maxAbsValue).toBe(true);
    for (const value of [reading.powerW, reading.energyTotalWh, reading.soc, reading.operatingState])
      expect(value === null || (Number.isFinite(value) && Math.abs(value) <= REPORT_LIMITS.maxAbsValue)).toBe(true);
    for (const text of Object.values(reading.nameplate)) {
      if (text === null) continue;
      expect(text.length).toBeLessThanOrEqual(64);
      // Nothing PostgreSQL's text refuses (NUL) and no control characters.
      expect([...text].every((c) => c.charCodeAt(0) >= 0x20 && c.charCodeAt(0) !== 0x7f)).toBe(true);
    }
  }
  return decoded;
}

const extremeNumber = fc.oneof(
  fc.constantFrom(
    8_700_000_000_000_000,
    Number.MAX_SAFE_INTEGER,
    -Number.MAX_SAFE_INTEGER,
    8.64e15,
    8.64e15 + 1,
    0,
    -1,
    1e308,
    -1e308,
    5e-324,
    1e15,
    1e15 + 1,
  ),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer({ min: NOW - 40 * 86_400_000, max: NOW + 3_600_000 }),
);
const nastyString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('\u0000', 'IN\u0000001', 'a'.repeat(100_000), '💥', '../../etc', 'OTHER01', '\uFFFF\uD800'),
  fc.string({ unit: fc.constantFrom('0', 'F', 'f', 'g', ' ', '\u0000', '-'), maxLength: 24 }),
);

describe('report decoder fuzz', () => {
  it('never throws on arbitrary bytes or text', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.uint8Array({ maxLength: 2000 }).map((b) => Buffer.from(b)),
          fc.string({ unit: 'binary', maxLength: 2000 }),
        ),
        (payload) => {
          decodeChecked(payload);
        },
      ),
      RUNS,
    );
  });

  it('never throws on reports whose fields are replaced with wrong types, huge or extreme values', () => {
    const field = fc.constantFrom('ts', 'seq', 'v', 'devices', 'sn', 'proto', 'blocks', 'fc', 'addr', 'hex', 'values', 'parent');
    const replacement = fc.oneof(extremeNumber, nastyString, fc.anything({ maxDepth: 2 }), fc.constant(null));
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: BUILT_IN_PROTOCOLS.length - 1 }),
        fc.array(fc.tuple(field, replacement), { maxLength: 4 }),
        (protocolIndex, mutations) => {
          const device: Record<string, unknown> = validDevice(protocolIndex, 'IN0100001');
          const report: Record<string, unknown> = { v: 1, seq: 7, ts: NOW - 1000, devices: [device] };
          const block = (device.blocks as Record<string, unknown>[])[0] ?? {};
          for (const [name, value] of mutations) {
            if (name in report) report[name] = value;
            else if (name in block) block[name] = value;
            else device[name] = value;
          }
          decodeChecked(JSON.stringify(report));
        },
      ),
      RUNS,
    );
  });

  it('refuses extreme timestamps and out-of-range values with a reason, or stores them inside the window', () => {
    fc.assert(
      fc.property(
        extremeNumber,
        fc.dictionary(fc.constantFrom('W', 'WH', 'SoC', 'PF', 'Hz', 'St', 'Evt1'), extremeNumber, { maxKeys: 4 }),
        // Values written as JSON text too, so 1e999 (Infinity after JSON.parse) and -0 reach the decoder.
        fc.constantFrom('', '1e999', '-1e999', '-0'),
        (ts, values, raw) => {
          const device = { sn: 'IN0100001', proto: 'sunspec-hybrid-lv', blocks: [] as unknown[], values };
          let text = JSON.stringify({ v: 1, seq: 1, ts, devices: [device] });
          if (raw) text = text.replace('"values":{', `"values":{"WH":${raw},`);
          const decoded = decodeChecked(text);
          if (!decoded) return;
          if (!(ts >= REPORT_LIMITS.minTs && ts <= NOW + context.maxFutureMs && ts >= NOW - context.maxAgeMs))
            expect(decoded.readings).toHaveLength(0);
        },
      ),
      RUNS,
    );
  });

  it('decodes or refuses random register blocks of every map, including malformed hex', () => {
    const hexDigit = fc.constantFrom(...'0123456789abcdefABCDEF');
    const hex = fc.oneof(
      fc.array(hexDigit, { maxLength: 400 }).map((d) => d.join('')),
      fc.array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 125 }).map((r) => registersToHex(r)),
      fc.constantFrom('zz', 'FFF', '0x10', 'ＦＦＦＦ', '\u0000\u0000\u0000\u0000', 'ffff'.repeat(2000), 'ffff'.repeat(2001)),
    );
    const block = fc.record({
      fc: fc.oneof(fc.constantFrom(3, 4), fc.integer({ min: -5, max: 300 })),
      addr: fc.oneof(fc.integer({ min: 0, max: 65_535 }), fc.integer({ min: 39_990, max: 40_400 }), extremeNumber),
      hex,
    });
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: BUILT_IN_PROTOCOLS.length - 1 }), fc.array(block, { maxLength: 6 })), {
          minLength: 1,
          maxLength: 4,
        }),
        (devices) => {
          const payload = {
            v: 1,
            seq: 1,
            ts: NOW - 60_000,
            devices: devices.map(([index, blocks], i) => ({
              ...validDevice(index, `DEV${i}`),
              blocks: [...validDevice(index, `DEV${i}`).blocks, ...blocks],
            })),
          };
          decodeChecked(JSON.stringify(payload));
        },
      ),
      RUNS,
    );
  });

  it('refuses a payload over REPORT_LIMITS.maxBytes before parsing it', () => {
    const huge = JSON.stringify({
      v: 1,
      seq: 1,
      ts: NOW,
      devices: [{ ...validDevice(0, 'IN0100001'), pad: 'x'.repeat(REPORT_LIMITS.maxBytes) }],
    });
    expect(parseReport(huge)).toMatchObject({ ok: false, reason: 'malformed_payload' });
  });

  it('refuses a report whose time cannot be a date (8.7e15 ms, MAX_SAFE_INTEGER) instead of decoding it', () => {
    for (const ts of [8_700_000_000_000_000, Number.MAX_SAFE_INTEGER]) {
      const decoded = decodeChecked(JSON.stringify({ v: 1, seq: 1, ts, devices: [validDevice(0, 'IN0100001')] }));
      expect(decoded?.rejected).toEqual([{ reason: 'timestamp_in_future', detail: String(ts) }]);
    }
  });
});

describe('the report check without zod (issue 26 part 7)', () => {
  // Reports near the valid shape: each field mostly valid, sometimes wrong; extra fields now and then (an
  // undefined field is left out by JSON.stringify).
  const any = fc.jsonValue({ maxDepth: 2 });
  const mostly = <T>(valid: fc.Arbitrary<T>) => fc.oneof({ arbitrary: valid, weight: 12 }, { arbitrary: any, weight: 1 });
  const rarely = fc.oneof({ arbitrary: fc.constant(undefined), weight: 12 }, { arbitrary: any, weight: 1 });
  const block = fc.record({
    fc: mostly(fc.constantFrom(3, 4)),
    addr: mostly(fc.oneof({ arbitrary: fc.integer({ min: 0, max: 65_535 }), weight: 8 }, fc.constantFrom(-1, 65_536, 0.5))),
    hex: mostly(fc.oneof({ arbitrary: fc.constantFrom('', '00ff', '0A0b0C0dFFFF'), weight: 8 }, fc.stringMatching(/^[0-9a-gA-G]{0,13}$/))),
    extra: rarely,
  });
  const device = fc.record({
    sn: mostly(fc.oneof({ arbitrary: fc.constantFrom('INV00001', 'B-2', 'x_y'), weight: 8 }, fc.string({ maxLength: 40 }))),
    proto: mostly(
      fc.oneof({ arbitrary: fc.constantFrom('sunspec-inverter-3p', 'p', 'x'.repeat(64)), weight: 8 }, fc.string({ maxLength: 70 })),
    ),
    blocks: mostly(fc.array(block, { maxLength: 3 })),
    parent: fc.oneof(
      { arbitrary: fc.constant(undefined), weight: 6 },
      { arbitrary: mostly(fc.constantFrom('BAT00001', 'a', 'x'.repeat(33))), weight: 2 },
    ),
    values: fc.oneof(
      { arbitrary: fc.constant(undefined), weight: 12 },
      { arbitrary: fc.dictionary(fc.string({ maxLength: 5 }), fc.double()), weight: 1 },
    ),
    extra: rarely,
  });
  const report = fc.record({
    v: mostly(fc.constant(1)),
    seq: mostly(fc.oneof({ arbitrary: fc.integer({ min: 0, max: 2 ** 31 - 1 }), weight: 8 }, fc.constantFrom(-1, 2 ** 31, 1.5))),
    ts: mostly(fc.oneof({ arbitrary: fc.constantFrom(NOW, 0, 2 ** 53 - 1), weight: 8 }, fc.constantFrom(-1, 2 ** 53, 2 ** 60, 0.5))),
    devices: mostly(fc.array(device, { maxLength: 3 })),
    extra: rarely,
  });

  it('passes only what zod accepts, and unchanged', () => {
    let passed = 0;
    fc.assert(
      fc.property(report, (candidate) => {
        const json: unknown = JSON.parse(JSON.stringify(candidate));
        const fast = fastCheckedReport(json);
        if (!fast) return;
        passed++;
        const checked = ReportPayloadSchema.safeParse(json);
        expect(checked.success).toBe(true);
        expect(checked.data).toEqual(fast);
      }),
      { numRuns: 3000, seed: 20261128 },
    );
    // The property is not empty: some generated reports take the fast path.
    expect(passed).toBeGreaterThan(100);
  });

  it('takes the fast path for the reports gateways send', () => {
    const sent = { v: 1, seq: 7, ts: NOW, devices: [validDevice(0, 'INV00001'), { ...validDevice(1, 'BAT00002'), parent: 'INV00001' }] };
    expect(fastCheckedReport(JSON.parse(JSON.stringify(sent)))).toEqual(sent);
    const withValues = { ...sent, devices: [{ ...validDevice(0, 'INV00001'), values: { W: 1 } }] };
    expect(fastCheckedReport(withValues)).toBeUndefined();
  });
});
