import { CommandPayloadSchema, gatewayTopic } from '@sunward/contracts/gateway-protocol';
import { encodeValues, registersToHex } from '@sunward/protocol/codec';
import { protocolById } from '@sunward/protocol/maps/index';
import { sampleValues } from '@sunward/protocol/sample-values';
import mqtt, { type MqttClient } from 'mqtt';

/** A device's values in one report: over the map's plausible defaults (sampleValues). */
export interface ReportedDevice {
  sn: string;
  proto: string;
  values: Record<string, number>;
}

/**
 * A gateway for API tests, speaking the real protocol to the test server's broker: connects with its
 * SN and key, publishes reports of raw register blocks (QoS 1, so the promise resolves once stored).
 */
export async function connectTestGateway(mqttPort: number | undefined, sn: string, key: string) {
  if (mqttPort === undefined) throw new Error('the test server has no MQTT port');
  const client: MqttClient = await new Promise((resolve, reject) => {
    const c = mqtt.connect(`mqtt://127.0.0.1:${mqttPort}`, {
      clientId: sn,
      username: sn,
      password: key,
      reconnectPeriod: 0,
      connectTimeout: 5000,
    });
    c.once('connect', () => resolve(c));
    c.once('error', reject);
  });
  let seq = 0;
  return {
    client,
    async report(ts: number, list: readonly ReportedDevice[]) {
      const payload = {
        v: 1,
        seq: ++seq,
        ts,
        devices: list.map((d) => {
          const protocol = protocolById(d.proto);
          if (!protocol) throw new Error(`no map ${d.proto}`);
          const blocks = encodeValues(protocol, { ...sampleValues(protocol), Rain: 0, ...d.values }).map((b) => ({
            fc: b.functionCode,
            addr: b.address,
            hex: registersToHex(b.registers),
          }));
          return { sn: d.sn, proto: d.proto, blocks };
        }),
      };
      await client.publishAsync(gatewayTopic(sn, 'report'), JSON.stringify(payload), { qos: 1 });
    },
    close: () => client.endAsync(true),
  };
}

export type TestGateway = Awaited<ReturnType<typeof connectTestGateway>>;

/** An AC switch as a test gateway plays it: its contacts (St), trip and cause flags (Evt), and a forced refusal. */
export interface EmulatedSwitch {
  sn: string;
  St: number;
  Evt: number;
  /** Refuse every Conn write with `locked`, as a switch whose report saying so is not in yet. */
  refuse?: boolean;
  /** Every Conn value written to it, in order, when given. */
  writes?: number[];
}

/**
 * Makes a test gateway answer on/off commands for one AC switch as the vendor-ac-switch device would: a `set Conn`
 * opens or closes the contacts (Evt bit 9 while opened remotely) and is confirmed, then the switch reports; a switch
 * opened with its own button (Evt bit 8) refuses to close with `locked`; anything else is `unsupported`.
 */
export async function emulateSwitch(wire: TestGateway, gatewaySn: string, device: EmulatedSwitch): Promise<() => Promise<void>> {
  const report = () =>
    wire.report(Date.now(), [{ sn: device.sn, proto: 'vendor-ac-switch', values: { St: device.St, Evt: device.Evt, Conn: device.St } }]);
  wire.client.on('message', (_topic, payload) => {
    const command = CommandPayloadSchema.parse(JSON.parse(payload.toString('utf8')));
    const conn = command.params?.Conn;
    if (conn !== undefined) device.writes?.push(conn);
    const offByHand = device.St === 0 && (device.Evt & (1 << 8)) !== 0;
    const answer =
      command.op !== 'set' || conn === undefined
        ? { status: 'error', error: 'unsupported' }
        : device.refuse || (conn === 1 && offByHand)
          ? { status: 'error', error: 'locked' }
          : { status: 'ok', values: { Conn: conn } };
    if (answer.status === 'ok') {
      device.St = conn ?? device.St;
      device.Evt = conn === 0 ? 1 << 9 : 0;
    }
    void wire.client
      .publishAsync(gatewayTopic(gatewaySn, 'reply'), JSON.stringify({ v: 1, id: command.id, ...answer }), { qos: 1 })
      .then(report)
      // The gateway may close (end of the file) with a report in flight.
      .catch(() => undefined);
  });
  await wire.client.subscribeAsync(gatewayTopic(gatewaySn, 'cmd'), { qos: 1 });
  return async () => {
    await report();
  };
}
