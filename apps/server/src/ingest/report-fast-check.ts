import { GATEWAY_PROTOCOL_VERSION, GATEWAY_SN_PATTERN, isHexRegisters, type ReportPayload } from '@sunward/contracts/gateway-protocol';

/**
 * The common report, checked without zod (issue 26 part 7: zod's check of every report was 5 % of a server process
 * at capacity). Only a report that ReportPayloadSchema accepts as it is passes here: exactly its fields, no
 * `values`, every constraint of the schema or a stricter one. Anything else (an unknown field zod would strip,
 * `values`, an error) answers undefined and goes to zod, which then decides and words the refusal. A test checks
 * that whatever passes here zod accepts unchanged (report-decoder.fuzz.test.ts).
 */
export function fastCheckedReport(json: unknown): ReportPayload | undefined {
  if (!isRecord(json) || !hasOnly(json, REPORT_KEYS, 4)) return undefined;
  const { v, seq, ts, devices } = json;
  if (v !== GATEWAY_PROTOCOL_VERSION) return undefined;
  if (typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq < 0 || seq > 2 ** 31 - 1) return undefined;
  if (typeof ts !== 'number' || !Number.isSafeInteger(ts) || ts < 0) return undefined;
  if (!Array.isArray(devices) || devices.length < 1 || devices.length > 256) return undefined;
  for (const device of devices) if (!isPlainDevice(device)) return undefined;
  return json as unknown as ReportPayload;
}

const REPORT_KEYS = new Set(['v', 'seq', 'ts', 'devices']);
const DEVICE_KEYS = new Set(['sn', 'proto', 'blocks', 'parent']);
const BLOCK_KEYS = new Set(['fc', 'addr', 'hex']);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.getPrototypeOf(value) === Object.prototype;
}

/** Own keys all among `allowed`, and at least `required` of them (the required ones are checked by the caller). */
function hasOnly(value: Record<string, unknown>, allowed: ReadonlySet<string>, required: number): boolean {
  let n = 0;
  for (const key in value) {
    if (!allowed.has(key)) return false;
    n++;
  }
  return n >= required;
}

function isPlainDevice(device: unknown): boolean {
  if (!isRecord(device) || !hasOnly(device, DEVICE_KEYS, 3)) return false;
  const { sn, proto, blocks, parent } = device;
  if (typeof sn !== 'string' || !GATEWAY_SN_PATTERN.test(sn)) return false;
  if (typeof proto !== 'string' || proto.length < 1 || proto.length > 64) return false;
  if (parent !== undefined && (typeof parent !== 'string' || !GATEWAY_SN_PATTERN.test(parent))) return false;
  if (!Array.isArray(blocks) || blocks.length > 64) return false;
  for (const block of blocks) {
    if (!isRecord(block) || !hasOnly(block, BLOCK_KEYS, 3)) return false;
    const { fc, addr, hex } = block;
    if (fc !== 3 && fc !== 4) return false;
    if (typeof addr !== 'number' || !Number.isSafeInteger(addr) || addr < 0 || addr > 65535) return false;
    if (typeof hex !== 'string' || hex.length > 8000 || !isHexRegisters(hex)) return false;
  }
  return true;
}
