import { createPublicKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { SimulatedFleetSchema } from '@sunward/contracts/simulated-fleet';
import { encodeValues, registersToHex } from '@sunward/protocol/codec';
import { protocolById } from '@sunward/protocol/maps/index';
import { createCommandHandler, createControls, createGatewaySettings, gatewaySettingsState } from './command-handler.js';
import { createDeviceState, type DeviceState, deviceValues } from './device-values.js';
import { connectGateway } from './gateway-client.js';
import { createRandom } from './physics/random.js';
import { createPlantModel } from './plant-model.js';

/**
 * The simulator: plays every gateway of a fleet file over the real gateway protocol.
 *   node --import tsx apps/simulator/src/main.ts --fleet data/demo-fleet.json [--url mqtt://…] [--seed 42] [--interval 60]
 */
const { values: args } = parseArgs({
  options: {
    fleet: { type: 'string' },
    url: { type: 'string' },
    seed: { type: 'string' },
    interval: { type: 'string' },
    'fault-rate': { type: 'string' },
    'upgrade-step-ms': { type: 'string' },
    'firmware-key': { type: 'string' },
    gateways: { type: 'string' },
  },
});
if (!args.fleet) {
  process.stderr.write(
    'usage: simulator --fleet FILE [--gateways N] [--url mqtt://host:port] [--seed N] [--interval SECONDS] [--fault-rate 0..1] [--firmware-key PEM]\n',
  );
  process.exit(2);
}
const loaded = SimulatedFleetSchema.parse(JSON.parse(readFileSync(args.fleet, 'utf8')));
// --gateways N plays only the first N gateways of the fleet file.
const fleet = args.gateways ? { ...loaded, gateways: loaded.gateways.slice(0, Number(args.gateways)) } : loaded;
const seed = args.seed ? Number(args.seed) : fleet.seed;
const url = args.url ?? fleet.mqttUrl;
const faultRate = args['fault-rate'] ? Number(args['fault-rate']) : 0.0005;
const root = createRandom(seed);
// The platform's firmware public key (PEM file), the trust anchor every simulated device verifies images with.
const firmwareKey = args['firmware-key'] ? createPublicKey(readFileSync(args['firmware-key'], 'utf8')) : undefined;
const timers: NodeJS.Timeout[] = [];
const connections: ReturnType<typeof connectGateway>[] = [];
const handlers: ReturnType<typeof createCommandHandler>[] = [];

for (const gateway of fleet.gateways) {
  const random = root.fork(gateway.sn);
  const intervalSeconds = args.interval ? Number(args.interval) : gateway.intervalSeconds;
  const plant = createPlantModel(gateway, random.fork('plant'));
  const states: DeviceState[] = gateway.devices.flatMap((device) => {
    const protocol = protocolById(device.protocolId);
    return protocol ? [createDeviceState(device, protocol, random.fork(device.sn))] : [];
  });
  const controls = createControls();
  const settings = createGatewaySettings(url);
  let handler: ReturnType<typeof createCommandHandler> | undefined;
  const connection = connectGateway({
    url,
    sn: gateway.sn,
    key: gateway.key,
    intervalSeconds,
    firmware: () => settings.firmware,
    rssi: () => Math.round(-65 + random.normal(0, 6)),
    onError: (error) => process.stderr.write(`gateway ${gateway.sn}: ${error.message}\n`),
    onCommand: (payload) => handler?.handle(payload),
    config: () => gatewaySettingsState(settings),
  });
  handler = createCommandHandler({
    states,
    controls,
    reply: (reply) => connection.publishReply(reply),
    gateway: settings,
    onConfigured: () => connection.publishStatus(),
    firmwareKey,
    progressStepMs: args['upgrade-step-ms'] ? Number(args['upgrade-step-ms']) : 1000,
  });
  handlers.push(handler);
  connections.push(connection);
  let last = Date.now();
  plant.step(new Date(last), controls);
  // Battery packs of the bank: the master and its slaves share its power.
  const bankPacks = 1 + gateway.devices.filter((d) => d.parentSn).length;
  const tick = () => {
    const now = Date.now();
    const dt = (now - last) / 1000;
    last = now;
    const snapshot = plant.step(new Date(now), controls);
    connection.publishReport({
      ts: now,
      devices: states.map((state) => ({
        sn: state.device.sn,
        proto: state.device.protocolId,
        ...(state.device.parentSn ? { parent: state.device.parentSn } : {}),
        blocks: encodeValues(
          state.protocol,
          deviceValues(state, snapshot, dt, {
            faultRate,
            shutdown: controls.shutdown.has(state.device.sn),
            powerLimitPct: controls.powerLimitPct.get(state.device.sn) ?? 100,
            upgrading: controls.upgrading.has(state.device.sn),
            bankPacks,
          }),
        ).map((b) => ({
          fc: b.functionCode === 4 ? 4 : 3,
          addr: b.address,
          hex: registersToHex(b.registers),
        })),
      })),
    });
    // Now and then a gateway loses its uplink for a few intervals; its reports wait and follow later.
    if (random.next() < 0.0003) connection.dropConnection(intervalSeconds * 1000 * random.int(2, 6));
  };
  // Spread the gateways over the first seconds so they do not all report at once.
  const first = setTimeout(
    () => {
      tick();
      timers.push(setInterval(tick, intervalSeconds * 1000));
    },
    random.next() * Math.min(5000, intervalSeconds * 1000),
  );
  timers.push(first);
}
process.stdout.write(
  `Simulator: ${fleet.gateways.length} gateways, ${fleet.gateways.reduce((n, g) => n + g.devices.length, 0)} devices, seed ${seed}, to ${url}\n`,
);

const stop = () => {
  for (const timer of timers) clearTimeout(timer);
  for (const h of handlers) h.stop();
  Promise.all(connections.map((c) => c.close())).then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
