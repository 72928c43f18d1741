import { gatewayTopic } from '@sunward/contracts/gateway-protocol';
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
