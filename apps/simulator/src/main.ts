import { createPublicKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { ReportPayload } from '@sunward/contracts/gateway-protocol';
import { SimulatedCamerasSchema, SimulatedFleetSchema } from '@sunward/contracts/simulated-fleet';
import { encodeValues, registersToHex } from '@sunward/protocol/codec';
import { protocolById } from '@sunward/protocol/maps/index';
import { playCameras } from './camera/camera-fleet.js';
import { createCommandHandler, createControls, createGatewaySettings, gatewaySettingsState } from './command-handler.js';
import { createDeviceState, type DeviceState, deviceValues, writtenSettings } from './device-values.js';
import { connectGateway } from './gateway-client.js';
import { activeIncident, planDays, planHistory, RECENT_DAYS } from './history.js';
import { type LightBridge, startLightBridge } from './light-bridge.js';
import { createRandom } from './physics/random.js';
import { createPlantModel, type PlantModel } from './plant-model.js';
import { installFleetProtocols, parseProtocolFile } from './protocol-files.js';
import { createSlots, historyProgress } from './run-history.js';

/**
 * The simulator: plays every gateway of a fleet file over the real gateway protocol.
 *   node --import tsx apps/simulator/src/main.ts --fleet data/demo-fleet.json [--url mqtt://…] [--seed 42] [--interval 60]
 *     [--history-days 60 --history-concurrency 4] [--protocol protocol-brand-v1.json …] [--light-bridge-port 8091]
 * With --history-days each gateway first sends its past (store-and-forward reports with past
 * timestamps, over the same connection and protocol), then the readings it made meanwhile, then live.
 * The past has a reading every interval, as live: the gateway's interval (the fleet file's, or --interval).
 * Devices of a protocol made in the console: its export file in the fleet file's `protocols`, or --protocol FILE.
 * With --light-bridge-port it also plays a bulb bridge there (light-bridge.ts: OAuth 2.0 provider and Hue-style API;
 * its client secret from SIMULATOR_LIGHT_BRIDGE_SECRET), the one the demo's smart bulbs connect to.
 * With --cameras FILE it plays GB28181 cameras (camera/: SIP registration, catalog, INVITE → ffmpeg's test picture).
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
    'history-days': { type: 'string' },
    'history-concurrency': { type: 'string' },
    'history-burst': { type: 'string' },
    'history-older-concurrency': { type: 'string' },
    protocol: { type: 'string', multiple: true },
    'light-bridge-port': { type: 'string' },
    cameras: { type: 'string' },
  },
});
if (!args.fleet) {
  process.stderr.write(
    'usage: simulator --fleet FILE [--gateways N] [--url mqtt://host:port] [--seed N] [--interval SECONDS] [--fault-rate 0..1] [--firmware-key PEM] [--history-days N] [--history-concurrency N] [--protocol EXPORTED.json]…\n',
  );
  process.exit(2);
}
const loaded = SimulatedFleetSchema.parse(JSON.parse(readFileSync(args.fleet, 'utf8')));
// --gateways N plays only the first N gateways of the fleet file.
const fleet = args.gateways ? { ...loaded, gateways: loaded.gateways.slice(0, Number(args.gateways)) } : loaded;
// The console's protocols the fleet plays besides the built-in maps (the fleet file's, then --protocol files).
const ownProtocols = installFleetProtocols([
  ...(fleet.protocols ?? []),
  ...(args.protocol ?? []).map((file) => parseProtocolFile(readFileSync(file, 'utf8'), file)),
]);
for (const device of fleet.gateways.flatMap((g) => g.devices))
  if (!protocolById(device.protocolId)) process.stderr.write(`device ${device.sn}: no protocol ${device.protocolId}; not played\n`);
const seed = args.seed ? Number(args.seed) : fleet.seed;
const url = args.url ?? fleet.mqttUrl;
const faultRate = args['fault-rate'] ? Number(args['fault-rate']) : 0.0005;
const root = createRandom(seed);
// The platform's firmware public key (PEM file), the trust anchor every simulated device verifies images with.
const firmwareKey = args['firmware-key'] ? createPublicKey(readFileSync(args['firmware-key'], 'utf8')) : undefined;
const timers: NodeJS.Timeout[] = [];
const connections: ReturnType<typeof connectGateway>[] = [];
const handlers: ReturnType<typeof createCommandHandler>[] = [];
const historyDays = args['history-days'] ? Number(args['history-days']) : 0;
const startedAt = Date.now();
// Gateways sending their history at the same time; the others wait their turn (store and forward).
const historySlots = createSlots(args['history-concurrency'] ? Number(args['history-concurrency']) : 20);
// The older days (after live) go a few gateways at a time: smaller ingest batches keep the console quick
// while they fill (the embedded database answers requests between batches).
const olderSlots = createSlots(args['history-older-concurrency'] ? Number(args['history-older-concurrency']) : 4);
// Reports of one gateway sent together during its backlog, before waiting for their acknowledgements (= stored).
const BACKLOG_BURST = args['history-burst'] ? Number(args['history-burst']) : 32;
const playing = fleet.gateways.filter((g) => !g.spare);
const progress = historyProgress({
  gateways: historyDays > 0 ? playing.length : 0,
  days: historyDays,
  recentDays: RECENT_DAYS,
  write: (line) => process.stdout.write(`${line}\n`),
});

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
    onRefused: (of, payload) => process.stderr.write(`gateway ${gateway.sn}: ${of} refused: ${payload.toString('utf8')}\n`),
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
  // Battery packs of the bank: the master and its slaves share its power.
  const bankPacks = 1 + gateway.devices.filter((d) => d.parentSn).length;
  /** Reads every device's registers at `ts` from a plant model, as the gateway does at each interval. */
  const reader = (model: PlantModel, deviceStates: DeviceState[], steer: ReturnType<typeof createControls>) => {
    let last: number | undefined;
    return (ts: number, rate: number): Omit<ReportPayload, 'v' | 'seq'> => {
      const dt = last === undefined ? 0 : Math.max(0, (ts - last) / 1000);
      last = ts;
      // A device in a fault (or switched off) produces nothing, so its counters stand still too.
      const off = new Set(steer.shutdown);
      for (const state of deviceStates) if (state.fault?.level === 'fault') off.add(state.device.sn);
      const snapshot = model.step(new Date(ts), {
        shutdown: off,
        powerLimitPct: steer.powerLimitPct,
        ...writtenSettings(deviceStates),
      });
      return {
        ts,
        devices: deviceStates.map((state) => ({
          sn: state.device.sn,
          proto: state.device.protocolId,
          ...(state.device.parentSn ? { parent: state.device.parentSn } : {}),
          blocks: encodeValues(
            state.protocol,
            deviceValues(state, snapshot, dt, {
              faultRate: rate,
              shutdown: steer.shutdown.has(state.device.sn),
              powerLimitPct: steer.powerLimitPct.get(state.device.sn) ?? 100,
              upgrading: steer.upgrading.has(state.device.sn),
              bankPacks,
            }),
          ).map((b) => ({
            fc: b.functionCode === 4 ? 4 : 3,
            addr: b.address,
            hex: registersToHex(b.registers),
          })),
        })),
      };
    };
  };
  const read = reader(plant, states, controls);
  const tick = () => {
    void connection.publishReport(read(Date.now(), faultRate));
    // Now and then a gateway loses its uplink for a few intervals; its reports wait and follow later.
    if (random.next() < 0.0003) connection.dropConnection(intervalSeconds * 1000 * random.int(2, 6));
  };
  const goLive = (firstAt: number) => {
    const first = setTimeout(
      () => {
        tick();
        timers.push(setInterval(tick, intervalSeconds * 1000));
      },
      Math.max(0, firstAt - Date.now()),
    );
    timers.push(first);
  };
  if (historyDays > 0 && !gateway.spare) {
    // The same interval as live (--interval included): the history is what the gateway would have sent.
    const plan = planHistory({ ...gateway, intervalSeconds }, playing.indexOf(gateway), {
      days: historyDays,
      end: startedAt,
      random: random.fork('history'),
    });
    // Reports go in bursts: the broker handles what arrived together at once (one ingest batch) and
    // reads a connection's next packets only when those are stored, so one at a time would crawl.
    let inFlight: Promise<void>[] = [];
    const send = async (report: Omit<ReportPayload, 'v' | 'seq'>) => {
      if (inFlight.length >= BACKLOG_BURST) {
        await Promise.all(inFlight);
        inFlight = [];
      }
      inFlight.push(connection.publishReport(report));
      progress.readings(report.devices.length);
    };
    const replacement = plan.counterReplacement;
    const replaceIfDue = (model: PlantModel, t: number, done: { replaced: boolean }) => {
      if (replacement && !done.replaced && t >= replacement.at) {
        model.replaceCounters(replacement.deviceSn);
        done.replaced = true;
      }
    };
    const live = { replaced: false };
    let dayMark = plan.start;
    const dayPassed = (t: number) => {
      if (t - dayMark < 86_400_000) return;
      progress.day(gateway.sn);
      dayMark += 86_400_000;
    };
    // 1. The last week first, in time order (its incidents and late batch), then what the gateway read
    //    meanwhile, then live. The plant's physics is first run through the older days (no reports), so
    //    its counters, battery and weather are where that past leaves them.
    const sendRecent = async (): Promise<number> => {
      await historySlots.acquire();
      try {
        for (let t = plan.start; t < plan.recentFrom; t += plan.intervalMs) {
          replaceIfDue(plant, t, live);
          plant.step(new Date(t), { shutdown: new Set(), powerLimitPct: new Map() });
        }
        const held: Omit<ReportPayload, 'v' | 'seq'>[] = [];
        dayMark = plan.recentFrom;
        for (let t = plan.recentFrom; t < plan.end; t += plan.intervalMs) {
          for (const state of states) {
            const due = activeIncident(plan, state.device.sn, t);
            if (due) state.fault = { point: due.point, bit: due.bit, level: due.level, stepsLeft: Number.POSITIVE_INFINITY };
            else if (state.fault?.stepsLeft === Number.POSITIVE_INFINITY) state.fault = undefined;
          }
          replaceIfDue(plant, t, live);
          const report = read(t, 0);
          if (plan.lateBatch && t >= plan.lateBatch.from && t < plan.lateBatch.to) held.push(report);
          else await send(report);
          if (plan.lateBatch && held.length > 0 && t >= plan.lateBatch.sendAfter) for (const h of held.splice(0)) await send(h);
          dayPassed(t);
        }
        for (const h of held.splice(0)) await send(h);
        for (const state of states) if (state.fault?.stepsLeft === Number.POSITIVE_INFINITY) state.fault = undefined;
        let t = plan.end;
        for (; t <= Date.now(); t += intervalSeconds * 1000) await send(read(t, faultRate));
        await Promise.all(inFlight);
        inFlight = [];
        progress.live(gateway.sn);
        return t;
      } finally {
        historySlots.release();
      }
    };
    // 2. The older days, late: a second model with the same seed plays them exactly as the first one ran
    //    through them. Their readings are stored and rolled up like any late batch; they change no event.
    const sendOlder = async (): Promise<void> => {
      if (plan.recentFrom <= plan.start) {
        progress.done(gateway.sn, planDays(plan));
        return;
      }
      await olderSlots.acquire();
      try {
        const past = createPlantModel(gateway, random.fork('plant'));
        const pastStates = gateway.devices.flatMap((device) => {
          const protocol = protocolById(device.protocolId);
          return protocol ? [createDeviceState(device, protocol, random.fork(`${device.sn}-past`))] : [];
        });
        const readPast = reader(past, pastStates, createControls());
        const backfill = { replaced: false };
        dayMark = plan.start;
        for (let t = plan.start; t < plan.recentFrom; t += plan.intervalMs) {
          replaceIfDue(past, t, backfill);
          await send(readPast(t, 0));
          dayPassed(t);
        }
        await Promise.all(inFlight);
        inFlight = [];
        progress.done(gateway.sn, planDays(plan));
      } finally {
        olderSlots.release();
      }
    };
    sendRecent()
      .then(
        (next) => goLive(next),
        (error: unknown) => {
          process.stderr.write(`gateway ${gateway.sn}: history failed (${String(error)}); reporting live\n`);
          goLive(Date.now());
        },
      )
      .then(sendOlder)
      .catch((error: unknown) => process.stderr.write(`gateway ${gateway.sn}: older history failed (${String(error)})\n`));
  } else {
    // Spread the gateways over the first seconds so they do not all report at once.
    goLive(Date.now() + random.next() * Math.min(5000, intervalSeconds * 1000));
  }
}
process.stdout.write(
  `Simulator: ${fleet.gateways.length} gateways, ${fleet.gateways.reduce((n, g) => n + g.devices.length, 0)} devices, seed ${seed}, to ${url}${
    ownProtocols.length > 0 ? `, console protocols ${ownProtocols.join(', ')}` : ''
  }\n`,
);

let bridge: LightBridge | undefined;
if (args['light-bridge-port']) {
  // A taken port costs the bulbs, never the gateways.
  bridge = await startLightBridge({
    port: Number(args['light-bridge-port']),
    clientSecret: process.env.SIMULATOR_LIGHT_BRIDGE_SECRET ?? 'bridge-secret',
  }).catch((error: unknown) => {
    process.stderr.write(`Simulated bulb bridge not started on port ${args['light-bridge-port']}: ${String(error)}\n`);
    return undefined;
  });
  if (bridge) process.stdout.write(`Simulated bulb bridge (${bridge.bulbs.size} bulbs) at ${bridge.url}\n`);
}

const cameras = args.cameras
  ? playCameras(SimulatedCamerasSchema.parse(JSON.parse(readFileSync(args.cameras, 'utf8'))), (line) => process.stdout.write(`${line}\n`))
  : undefined;

const stop = () => {
  for (const timer of timers) clearTimeout(timer);
  for (const h of handlers) h.stop();
  Promise.all([...connections.map((c) => c.close()), bridge?.close(), cameras?.stop()]).then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
