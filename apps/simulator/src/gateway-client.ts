import {
  GATEWAY_PROTOCOL_VERSION,
  type GatewayConfigState,
  gatewayRefusedTopic,
  gatewayTopic,
  parseGatewayRefusedTopic,
  type ReplyPayload,
  type ReportPayload,
  type StatusPayload,
} from '@sunward/contracts/gateway-protocol';
import mqtt, { type MqttClient } from 'mqtt';

export interface GatewayConnection {
  /** Publishes a report (QoS 1); resolves when the server acknowledged it, i.e. stored it. */
  publishReport(report: Omit<ReportPayload, 'v' | 'seq'>): Promise<void>;
  publishReply(reply: ReplyPayload): void;
  /** Publishes the status again (retained), e.g. after the gateway's settings changed. */
  publishStatus(): void;
  /** Reports waiting for an acknowledgement or for the connection (store and forward). */
  readonly pending: number;
  readonly connected: boolean;
  /** Drops the network connection for a while, as a real gateway losing its uplink would. */
  dropConnection(forMs: number): void;
  close(): Promise<void>;
}

/**
 * One gateway on the wire: client id and username are its SN, password its key; status is retained
 * with a last will saying offline; reports go out QoS 1 with a sequence number. mqtt.js keeps QoS 1
 * messages in its outgoing store while disconnected and sends them after reconnecting.
 */
export function connectGateway(options: {
  url: string;
  sn: string;
  key: string;
  intervalSeconds: number;
  /** The gateway's firmware version now (an upgrade changes it). */
  firmware: () => string;
  rssi: () => number;
  onCommand?: (payload: Buffer) => void;
  /** The server refused a report or reply (…/report/refused, …/reply/refused): what and why, as JSON. */
  onRefused?: (of: 'report' | 'reply', payload: Buffer) => void;
  onError?: (error: Error) => void;
  /** The gateway's settings, reported in every status message. */
  config?: () => GatewayConfigState;
}): GatewayConnection {
  let seq = 0;
  let inFlight = 0;
  const status = (online: boolean): StatusPayload => ({
    v: GATEWAY_PROTOCOL_VERSION,
    online,
    fw: options.firmware(),
    hw: 'SWG-4G-2.1',
    make: 'Sunward',
    model: 'SWG-4G',
    rssi: options.rssi(),
    comm: '4G',
    iccid: `8986${options.sn.replace(/\D/g, '').padEnd(16, '0').slice(0, 16)}`,
    interval: options.intervalSeconds,
    ...(options.config ? { config: options.config() } : {}),
  });
  const client: MqttClient = mqtt.connect(options.url, {
    clientId: options.sn,
    username: options.sn,
    password: options.key,
    protocolVersion: 4,
    clean: false,
    keepalive: 60,
    reconnectPeriod: 2000,
    connectTimeout: 10_000,
    queueQoSZero: false,
    will: { topic: gatewayTopic(options.sn, 'status'), payload: Buffer.from(JSON.stringify(status(false))), qos: 1, retain: true },
  });
  client.on('connect', () => {
    // Subscribe first, announce online once the broker has granted it: a command sent the moment the
    // server sees the gateway online must find the subscription there (on a first connection the
    // persistent session has none yet).
    const topics = [gatewayTopic(options.sn, 'cmd'), gatewayRefusedTopic(options.sn, 'report'), gatewayRefusedTopic(options.sn, 'reply')];
    client.subscribe(topics, { qos: 1 }, () => {
      client.publish(gatewayTopic(options.sn, 'status'), JSON.stringify(status(true)), { qos: 1, retain: true });
    });
  });
  client.on('message', (topic, payload) => {
    const refused = parseGatewayRefusedTopic(topic);
    if (refused) options.onRefused?.(refused.of, payload);
    else options.onCommand?.(payload);
  });
  client.on('error', (error) => options.onError?.(error));

  return {
    publishReport(report) {
      seq += 1;
      inFlight += 1;
      const payload: ReportPayload = { v: GATEWAY_PROTOCOL_VERSION, seq, ...report };
      return new Promise((resolve) => {
        client.publish(gatewayTopic(options.sn, 'report'), JSON.stringify(payload), { qos: 1 }, (error) => {
          inFlight -= 1;
          if (error) options.onError?.(error);
          resolve();
        });
      });
    },
    publishReply(reply) {
      client.publish(gatewayTopic(options.sn, 'reply'), JSON.stringify(reply), { qos: 1 });
    },
    publishStatus() {
      if (client.connected) client.publish(gatewayTopic(options.sn, 'status'), JSON.stringify(status(true)), { qos: 1, retain: true });
    },
    get pending() {
      return inFlight;
    },
    get connected() {
      return client.connected;
    },
    dropConnection(forMs) {
      client.stream?.destroy();
      client.options.reconnectPeriod = forMs;
      setTimeout(() => {
        client.options.reconnectPeriod = 2000;
      }, forMs).unref();
    },
    close() {
      return new Promise((resolve) => client.end(false, {}, () => resolve()));
    },
  };
}
