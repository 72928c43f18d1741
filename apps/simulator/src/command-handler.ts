import { createHash, type KeyObject, verify } from 'node:crypto';
import {
  type CommandPayload,
  CommandPayloadSchema,
  GATEWAY_PROTOCOL_VERSION,
  type GatewayConfig,
  type GatewayConfigState,
  type ReplyPayload,
} from '@sunward/contracts/gateway-protocol';
import { decodeBlocks, encodeValues, registersFromHex, registersToHex } from '@sunward/protocol/codec';
import { isAcSwitch, leakTestRunning, offLocally, type Schedule, setContacts, startLeakTest } from './ac-switch.js';
import type { DeviceState } from './device-values.js';

/** What commands change in a device's behaviour; device-values reads it on every report. */
export interface DeviceControls {
  shutdown: Set<string>;
  powerLimitPct: Map<string, number>;
  /** Firmware upgrades under way: device SN → percent done. */
  upgrading: Map<string, number>;
}

export function createControls(): DeviceControls {
  return { shutdown: new Set(), powerLimitPct: new Map(), upgrading: new Map() };
}

type Reply = Omit<ReplyPayload, 'v' | 'id'>;

/** The gateway's own entry in the upgrades under way (device SNs never take this form). */
const GATEWAY_KEY = '@gateway';

/**
 * The gateway's own settings, kept in memory as a real gateway keeps them in flash: the server address
 * it would connect to next, its lock, its digital output, and when its connection password was set.
 */
export interface GatewaySettings {
  serverAddress: string;
  locked: boolean;
  digitalOutput: boolean;
  connectionPassword: string | null;
  passwordSetAt: number | null;
  /** The gateway's own firmware version, reported in its status; a gateway upgrade changes it. */
  firmware: string;
}

export function createGatewaySettings(serverUrl: string): GatewaySettings {
  let serverAddress = 'localhost:1883';
  try {
    const url = new URL(serverUrl);
    serverAddress = `${url.hostname}:${url.port || '1883'}`;
  } catch {
    // Keep the default: the address is only reported, the connection uses the URL it was given.
  }
  return { serverAddress, locked: false, digitalOutput: false, connectionPassword: null, passwordSetAt: null, firmware: '2.4.1' };
}

/** What the gateway reports of its settings (status and configure replies): never the password. */
export function gatewaySettingsState(settings: GatewaySettings): GatewayConfigState {
  return {
    serverAddress: settings.serverAddress,
    locked: settings.locked,
    digitalOutput: settings.digitalOutput,
    ...(settings.passwordSetAt === null ? {} : { passwordSetAt: settings.passwordSetAt }),
  };
}

/**
 * Executes the server's commands on the simulated devices: register reads and writes through the
 * device's own register map, boot and shutdown, parameter changes (which change its behaviour),
 * and firmware upgrades that fetch the image, check its SHA-256 and report progress.
 */
export function createCommandHandler(deps: {
  states: readonly DeviceState[];
  controls: DeviceControls;
  reply: (payload: ReplyPayload) => void;
  fetchFirmware?: (url: string) => Promise<Buffer>;
  progressStepMs?: number;
  now?: () => number;
  /** The gateway's own settings (op configure); without them the gateway answers configure `unsupported`. */
  gateway?: GatewaySettings;
  /** Called after the settings changed, so the gateway can publish its status again. */
  onConfigured?: () => void;
  /**
   * The platform's Ed25519 public key, provisioned into the device like a factory trust anchor: with it,
   * an image whose signature over its SHA-256 does not verify is refused before it is applied.
   */
  firmwareKey?: KeyObject;
  /** The clock for timed behaviour (an AC switch's leakage test); tests inject theirs. Default: real timers. */
  schedule?: Schedule;
}) {
  const { controls } = deps;
  const fetchFirmware = deps.fetchFirmware ?? (async (url: string) => Buffer.from(await (await fetch(url)).arrayBuffer()));
  const stepMs = deps.progressStepMs ?? 1000;
  const now = deps.now ?? Date.now;
  const upgrades = new Map<string, { timer: NodeJS.Timeout; commandId: string }>();
  const timers = new Set<NodeJS.Timeout>();
  const schedule: Schedule =
    deps.schedule ??
    ((run, ms) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        run();
      }, ms);
      timers.add(timer);
    });

  const send = (id: string, reply: Reply) => deps.reply({ v: GATEWAY_PROTOCOL_VERSION, id, ...reply });

  function apply(state: DeviceState, params: Record<string, number>): Reply {
    for (const [id, value] of Object.entries(params)) {
      const point = state.protocol.points.find((p) => p.id === id);
      if (point?.operation !== 'rw')
        return { status: 'error', error: 'unsupported', message: `${id} is not a writable point of ${state.protocol.id}` };
      if ((point.min !== undefined && value < point.min) || (point.max !== undefined && value > point.max)) {
        return { status: 'error', error: 'out_of_range', message: `${id} must be within ${point.min ?? '-∞'} ~ ${point.max ?? '∞'}` };
      }
    }
    // The SOC window must stay a window: the device refuses a minimum at or above its maximum.
    const after = { ...state.lastValues, ...state.overrides, ...params };
    if (typeof after.SoCRsvMin === 'number' && typeof after.SocRsvMax === 'number' && after.SoCRsvMin >= after.SocRsvMax)
      return { status: 'error', error: 'out_of_range', message: 'SoCRsvMin must be below SocRsvMax' };
    // A switch opened with its own button closes only with the button (spec 02 §4).
    if (isAcSwitch(state) && params.Conn === 1 && offLocally(state))
      return { status: 'error', error: 'locked', message: 'switched off locally: switch it on locally' };
    // During its leakage test the switch takes no other switching or test.
    if (isAcSwitch(state) && leakTestRunning(state) && (params.Conn !== undefined || params.LeakTest !== undefined))
      return { status: 'error', error: 'locked', message: 'a leakage test is under way' };
    if (isAcSwitch(state) && params.LeakTest === 1) {
      const started = startLeakTest(state, controls, schedule);
      if (!started.ok) return { status: 'error', error: 'locked', message: started.message };
    }
    for (const [id, value] of Object.entries(params)) {
      if (id === 'LeakTest' && isAcSwitch(state)) continue;
      if (id === 'Conn' && isAcSwitch(state)) setContacts(state, controls, value === 1, 'remote');
      else if (id === 'Conn') {
        if (value === 0) controls.shutdown.add(state.device.sn);
        else controls.shutdown.delete(state.device.sn);
      } else if (id === 'WMaxLimPct') controls.powerLimitPct.set(state.device.sn, value);
      state.overrides[id] = value;
    }
    return { status: 'ok', values: { ...params } };
  }

  /** Whether the image's signature verifies with the provisioned key (no key provisioned: not checked). */
  function signatureValid(digestHex: string, signature: string | undefined): boolean {
    if (!deps.firmwareKey) return true;
    if (!signature) return false;
    try {
      return verify(null, Buffer.from(digestHex, 'hex'), deps.firmwareKey, Buffer.from(signature, 'base64'));
    } catch {
      return false;
    }
  }

  /**
   * Fetches, checks and applies an image to a device behind the gateway or (no device) to the gateway
   * itself: size and SHA-256, then the platform's signature, then progress in steps to the new version.
   */
  function upgrade(command: CommandPayload, target: { key: string; apply(version: string): void }): Reply | undefined {
    const firmware = command.firmware;
    if (!firmware) return { status: 'error', error: 'bad_request', message: 'firmware missing' };
    controls.upgrading.set(target.key, 0);
    fetchFirmware(firmware.url).then(
      (image) => {
        const digest = createHash('sha256').update(image).digest('hex');
        // The device checks the image before applying it; a mismatch never reaches its flash.
        if (digest !== firmware.sha256 || image.length !== firmware.size) {
          controls.upgrading.delete(target.key);
          send(command.id, { status: 'error', error: 'hash_mismatch', message: 'image hash or size does not match' });
          return;
        }
        if (!signatureValid(digest, firmware.signature)) {
          controls.upgrading.delete(target.key);
          send(command.id, { status: 'error', error: 'signature_invalid', message: 'image signature does not verify' });
          return;
        }
        let percent = 0;
        const timer = setInterval(() => {
          percent = Math.min(100, percent + 10);
          controls.upgrading.set(target.key, percent);
          if (percent < 100) {
            send(command.id, { status: 'progress', progress: percent });
            return;
          }
          clearInterval(timer);
          upgrades.delete(target.key);
          controls.upgrading.delete(target.key);
          target.apply(firmware.version);
          send(command.id, { status: 'ok', version: firmware.version });
        }, stepMs);
        upgrades.set(target.key, { timer, commandId: command.id });
      },
      () => {
        controls.upgrading.delete(target.key);
        send(command.id, { status: 'error', error: 'download_failed' });
      },
    );
    return undefined;
  }

  /** The gateway's own upgrade: its new version goes out in its next status message. */
  function upgradeGateway(command: CommandPayload): Reply | undefined {
    const settings = deps.gateway;
    if (!settings) return { status: 'error', error: 'unsupported', message: 'this gateway cannot be upgraded remotely' };
    if (controls.upgrading.has(GATEWAY_KEY)) return { status: 'error', error: 'device_upgrading' };
    return upgrade(command, {
      key: GATEWAY_KEY,
      apply: (version) => {
        settings.firmware = version;
        deps.onConfigured?.();
      },
    });
  }

  /** op configure: a locked gateway refuses every change but unlocking (which may come with others). */
  function configure(config: GatewayConfig | undefined): Reply {
    const settings = deps.gateway;
    if (!settings) return { status: 'error', error: 'unsupported', message: 'this gateway has no configurable settings' };
    if (!config) return { status: 'error', error: 'bad_request', message: 'config missing' };
    if (settings.locked && config.locked !== false) return { status: 'error', error: 'locked', message: 'the gateway is locked' };
    if (config.serverAddress !== undefined) settings.serverAddress = config.serverAddress;
    if (config.locked !== undefined) settings.locked = config.locked;
    if (config.digitalOutput !== undefined) settings.digitalOutput = config.digitalOutput;
    if (config.connectionPassword !== undefined) {
      settings.connectionPassword = config.connectionPassword;
      settings.passwordSetAt = now();
    }
    deps.onConfigured?.();
    return { status: 'ok', config: gatewaySettingsState(settings) };
  }

  /** The reply to send now, or undefined when the command replies later (an upgrade). */
  function execute(command: CommandPayload): Reply | undefined {
    if (command.op === 'configure')
      return command.device === undefined
        ? configure(command.config)
        : { status: 'error', error: 'bad_request', message: 'configure is for the gateway itself' };
    if (command.device === undefined && command.op === 'upgrade') return upgradeGateway(command);
    const state = deps.states.find((s) => s.device.sn === command.device);
    if (!state)
      return {
        status: 'error',
        error: 'bad_request',
        message: `no device ${command.device ?? '(gateway)'} on this gateway`,
      };
    if (command.op === 'cancel_upgrade') {
      const running = upgrades.get(state.device.sn);
      if (!running) return { status: 'error', error: 'bad_request', message: 'no upgrade under way' };
      clearInterval(running.timer);
      upgrades.delete(state.device.sn);
      controls.upgrading.delete(state.device.sn);
      send(running.commandId, { status: 'error', error: 'cancelled' });
      return { status: 'ok' };
    }
    // An upgrading device refuses everything else (spec 02 §4).
    if (controls.upgrading.has(state.device.sn)) return { status: 'error', error: 'device_upgrading' };
    switch (command.op) {
      case 'boot':
        return apply(state, { Conn: 1 });
      case 'shutdown':
        return apply(state, { Conn: 0 });
      case 'set':
        return apply(state, command.params ?? {});
      case 'read': {
        if (command.addr === undefined || command.count === undefined) return { status: 'error', error: 'bad_request' };
        const fc = command.fc === 4 ? 4 : 3;
        const blocks = encodeValues(state.protocol, state.lastValues, { functionCode: fc });
        const registers: number[] = [];
        for (let a = command.addr; a < command.addr + command.count; a++) {
          const block = blocks.find((b) => a >= b.address && a < b.address + b.registers.length);
          // Unmapped registers read as 0xFFFF, SunSpec's "not implemented".
          registers.push(block?.registers[a - block.address] ?? 0xffff);
        }
        return { status: 'ok', hex: registersToHex(registers) };
      }
      case 'write': {
        const registers = command.hex ? registersFromHex(command.hex) : null;
        if (command.addr === undefined || !registers || registers.length === 0) return { status: 'error', error: 'bad_request' };
        const decoded = decodeBlocks(state.protocol, [{ functionCode: 3, address: command.addr, registers }]);
        const params = Object.fromEntries(Object.entries(decoded.values).filter((e): e is [string, number] => typeof e[1] === 'number'));
        if (Object.keys(params).length === 0)
          return { status: 'error', error: 'unsupported', message: 'no writable point at that address' };
        return apply(state, params);
      }
      case 'upgrade':
        return upgrade(command, {
          key: state.device.sn,
          apply: (version) => {
            state.firmwareVersion = version;
          },
        });
      default:
        return { status: 'error', error: 'bad_request' };
    }
  }

  return {
    handle(raw: Buffer): void {
      let json: unknown;
      try {
        json = JSON.parse(raw.toString('utf8'));
      } catch {
        return; // Nothing to correlate a reply with.
      }
      const parsed = CommandPayloadSchema.safeParse(json);
      if (!parsed.success) {
        // A command with an id but a value outside its format is answered, so the server need not wait.
        const id = json && typeof json === 'object' && 'id' in json ? json.id : undefined;
        if (typeof id === 'string' && id.length > 0 && id.length <= 64)
          send(id, { status: 'error', error: 'bad_request', message: parsed.error.issues[0]?.path.join('.') ?? 'invalid' });
        return;
      }
      const command: CommandPayload = parsed.data;
      const reply =
        command.expiresAt !== undefined && command.expiresAt < now()
          ? { status: 'error' as const, error: 'expired' as const }
          : execute(command);
      if (reply) send(command.id, reply);
    },
    stop(): void {
      for (const { timer } of upgrades.values()) clearInterval(timer);
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
}
