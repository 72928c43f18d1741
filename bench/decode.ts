// Decoder benchmark: parse + decode of gateway reports as the ingest pipeline does it, in one process.
// Prints µs per device reading and the allocation rate, the figures that bound ingest on one core.
//   npx tsx bench/decode.ts --protocol sunspec-hybrid-lv --devices 10 --seconds 10 [--from-store] [--script]
// --script runs a protocol script (issue 19) on every reading in its QuickJS sandbox: it rescales the power
// point and derives a second point from a raw register, as an administrator's script would.
// --from-store decodes with the map as the protocol store gives it to the server (issue 19: the shipped map
// stored as a version, read back as JSON and installed in the registry) instead of the TypeScript map.
import { parseArgs } from 'node:util';
import { encodeValues, registersToHex } from '@sunward/protocol/codec';
import { BUILT_IN_PROTOCOLS, protocolById } from '@sunward/protocol/maps/index';
import { installProtocols } from '@sunward/protocol/registry';
import { sampleValues } from '@sunward/protocol/sample-values';
import { contentOfMap, storageOrderAfter, toDefinition } from '../apps/server/src/features/protocols/protocol-definition.js';
import { installScripts, loadScriptEngine } from '../apps/server/src/ingest/protocol-scripts.js';
import { decodeReport, parseReport } from '../apps/server/src/ingest/report-decoder.js';

const { values: args } = parseArgs({
  options: {
    protocol: { type: 'string', default: 'sunspec-hybrid-lv' },
    devices: { type: 'string', default: '10' },
    seconds: { type: 'string', default: '10' },
    'from-store': { type: 'boolean', default: false },
    script: { type: 'boolean', default: false },
  },
});
if (args['from-store'])
  installProtocols(
    BUILT_IN_PROTOCOLS.map((map) => {
      const content = contentOfMap(map);
      // As stored (jsonb) and read back: a plain JSON object, not the TypeScript map.
      const definition = JSON.parse(JSON.stringify({ ...content, storageOrder: storageOrderAfter(undefined, content) }));
      return toDefinition({
        identifier: map.id,
        family: map.family,
        manufacturer: map.manufacturer,
        protocolVersion: map.version,
        definition,
      });
    }),
  );
const D = Number(args.devices);
const protocol = protocolById(args.protocol ?? '');
if (!protocol) throw new Error(`unknown protocol ${args.protocol}`);
if (args.script) {
  await loadScriptEngine();
  const power = protocol.points.find((p) => p.role === 'power');
  const other = protocol.points.find((p) => p !== power && p.type !== 'string' && p.functionCode === 3);
  if (!power || !other) throw new Error('the protocol has no power point to script');
  installScripts(
    new Map([
      [
        protocol.id,
        `function transform(input) {
  const raw = input.holding[${other.address}];
  return { ${JSON.stringify(power.id)}: input.points[${JSON.stringify(power.id)}] === null ? null : input.points[${JSON.stringify(power.id)}] * 1.001,
           ${JSON.stringify(other.id)}: raw === undefined ? null : raw };
}`,
      ],
    ]),
  );
}
const blocks = encodeValues(protocol, sampleValues(protocol)).map((b) => ({
  fc: b.functionCode,
  addr: b.address,
  hex: registersToHex(b.registers),
}));
const devices = Array.from({ length: D }, (_, i) => ({ sn: `D${i}`, proto: protocol.id, blocks }));
const known = new Map(devices.map((d, i) => [d.sn, { id: i + 1, gatewayId: 1, protocolId: protocol.id }]));

function once(seq: number): number {
  const payload = Buffer.from(JSON.stringify({ v: 1, seq, ts: Date.now(), devices }));
  const parsed = parseReport(payload);
  if (!parsed.ok) throw new Error(parsed.detail);
  const decoded = decodeReport(parsed.report, {
    gatewayId: 1,
    now: new Date(),
    maxAgeMs: 86_400_000,
    maxFutureMs: 300_000,
    findDevice: (sn) => known.get(sn),
    findProtocol: protocolById,
  });
  if (decoded.readings.length !== D) throw new Error(`decoded ${decoded.readings.length} of ${D}: ${JSON.stringify(decoded.rejected[0])}`);
  return decoded.readings.length;
}

for (let i = 0; i < 2000; i++) once(i); // warm-up
const seconds = Number(args.seconds);
const started = performance.now();
const heapBefore = process.memoryUsage().heapUsed;
let readings = 0;
let reports = 0;
while (performance.now() - started < seconds * 1000) {
  readings += once(reports);
  reports++;
}
const elapsedMs = performance.now() - started;
console.log(
  `${protocol.id}${args['from-store'] ? ' (from the protocol store)' : ''}${args.script ? ' with a script' : ''}, ${protocol.points.length} points, ${D} devices per report: ${((elapsedMs * 1000) / readings).toFixed(1)} µs per device reading (parse + decode), ${Math.round((readings / elapsedMs) * 1000)} readings/s on one core`,
);
console.log(
  `payload ${Buffer.byteLength(JSON.stringify({ v: 1, seq: 1, ts: Date.now(), devices }))} bytes per report; heap delta ${Math.round((process.memoryUsage().heapUsed - heapBefore) / 1048576)} MB`,
);
