import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { openDatabase } from '../../db/client.js';
import { provisionLoadFleet } from './load-fleet.js';

/**
 * npm run provision -- --gateways 5000 --devices 10 --interval 60 --mqtt-url mqtt://host:1883 --out load-fleet.json
 * Registers a load-test fleet in the server's database (DATABASE_URL, or DATA_DIR with the server
 * stopped: PGlite has one process) and writes the fleet file for `npm run simulate`.
 */
const { values: args } = parseArgs({
  options: {
    gateways: { type: 'string', default: '100' },
    devices: { type: 'string', default: '10' },
    interval: { type: 'string', default: '60' },
    protocol: { type: 'string', default: 'sunspec-inverter-3p' },
    'mqtt-url': { type: 'string', default: 'mqtt://127.0.0.1:1883' },
    prefix: { type: 'string', default: 'L' },
    seed: { type: 'string', default: '1' },
    out: { type: 'string', default: 'load-fleet.json' },
  },
});
const database = await openDatabase({ dataDir: process.env.DATA_DIR ?? './data', databaseUrl: process.env.DATABASE_URL || undefined });
const fleet = await provisionLoadFleet(database.db, {
  gateways: Number(args.gateways),
  devicesPerGateway: Number(args.devices),
  protocolId: args.protocol ?? 'sunspec-inverter-3p',
  intervalSeconds: Number(args.interval),
  mqttUrl: args['mqtt-url'] ?? '',
  seed: Number(args.seed),
  prefix: (args.prefix ?? 'L').toUpperCase(),
});
writeFileSync(args.out ?? 'load-fleet.json', JSON.stringify(fleet), { mode: 0o600 });
await database.close();
process.stdout.write(
  `Registered ${fleet.gateways.length} gateways with ${fleet.gateways.length * Number(args.devices)} devices; fleet file ${args.out}\n`,
);
process.stdout.write(`Drive them: npm run simulate -- --fleet ${args.out} --interval ${args.interval}\n`);
