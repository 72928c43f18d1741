// One publisher process of bench/ingest.ts: plays a slice of the bench gateways over MQTT, QoS 1.
// Reads its job as JSON on stdin (thousands of gateway keys do not fit on a command line); prints {"sent":N,"readings":M,…,"lags":[ms…]} when done.

import { createInterface } from 'node:readline';
import { gatewayTopic } from '@sunward/contracts/gateway-protocol';
import { encodeValues, registersToHex } from '@sunward/protocol/codec';
import { protocolById } from '@sunward/protocol/maps/index';
import { sampleValues } from '@sunward/protocol/sample-values';
import mqtt from 'mqtt';

interface Job {
  url: string;
  gateways: { sn: string; key: string; devices: string[] }[];
  protocolId: string;
  ratePerSecond: number;
  seconds: number;
  /** Publish on `${topicRoot}/${sn}/report` instead of the product's topic (bench/ingest-bare.ts, on a shared broker). */
  topicRoot?: string;
}

// stdin: the job as one JSON line, then "go" when every publisher of the run is connected.
const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
const job = JSON.parse((await lines.next()).value ?? '{}') as Job;
const protocol = protocolById(job.protocolId);
if (!protocol) throw new Error('unknown protocol');
// Registers are encoded once; each report changes only its time, as the server does not care.
const blocks = encodeValues(protocol, sampleValues(protocol)).map((b) => ({
  fc: b.functionCode,
  addr: b.address,
  hex: registersToHex(b.registers),
}));
const blocksJson = JSON.stringify(blocks);

const clients = await Promise.all(
  job.gateways.map(
    (g) =>
      new Promise<mqtt.MqttClient>((resolve, reject) => {
        const client = mqtt.connect(job.url, { clientId: g.sn, username: g.sn, password: g.key, clean: true, reconnectPeriod: 1000 });
        // A connection refused or reset while thousands sign in at once is tried again (reconnectPeriod);
        // only a gateway that is still not in after a minute fails the run.
        const timer = setTimeout(() => reject(new Error(`${g.sn} not connected after 60 s`)), 60_000);
        client.once('connect', () => {
          clearTimeout(timer);
          resolve(client);
        });
        client.on('error', () => undefined);
      }),
  ),
);
process.stdout.write('connected\n');
await lines.next();
const lastTs = new Map<string, number>();
// Each gateway numbers its own reports, +1 each, as the protocol says (the server counts gaps per gateway).
const seqOf = new Map<string, number>();
let sent = 0;
let readings = 0;
let acked = 0;
// Reports the server refused to acknowledge (not stored): sent again, as a gateway's store and forward does.
let refused = 0;
// Publish-to-acknowledged time of each report (ms; the server acknowledges once stored): the gateway's view of
// the lag, whichever process the server runs in. A report sent again counts from its first publish.
const lags: number[] = [];
const resend: { client: mqtt.MqttClient; topic: string; payload: string; at: number }[] = [];
function publish(client: mqtt.MqttClient, topic: string, payload: string, at = Date.now()) {
  client.publish(topic, payload, { qos: 1 }, (error) => {
    if (!error) {
      acked++;
      lags.push(Date.now() - at);
    } else {
      refused++;
      resend.push({ client, topic, payload, at });
    }
  });
}
const started = Date.now();
const intervalMs = 1000 / job.ratePerSecond;
let next = started;
let index = 0;
while (Date.now() - started < job.seconds * 1000) {
  const gateway = job.gateways[index % job.gateways.length];
  const client = clients[index % clients.length];
  index++;
  if (!gateway || !client) continue;
  const ts = Math.max(Date.now(), (lastTs.get(gateway.sn) ?? 0) + 1);
  lastTs.set(gateway.sn, ts);
  const devices = gateway.devices.map((sn) => `{"sn":"${sn}","proto":"${job.protocolId}","blocks":${blocksJson}}`).join(',');
  const seq = (seqOf.get(gateway.sn) ?? 0) + 1;
  seqOf.set(gateway.sn, seq);
  const payload = `{"v":1,"seq":${seq},"ts":${ts},"devices":[${devices}]}`;
  publish(client, job.topicRoot ? `${job.topicRoot}/${gateway.sn}/report` : gatewayTopic(gateway.sn, 'report'), payload);
  for (const again of resend.splice(0)) publish(again.client, again.topic, again.payload, again.at);
  sent++;
  readings += gateway.devices.length;
  next += intervalMs;
  const wait = next - Date.now();
  if (wait > 1) await new Promise((r) => setTimeout(r, wait));
  else if (sent % 50 === 0) await new Promise((r) => setImmediate(r));
}
// Wait for the acknowledgements (PUBACK = stored) of everything sent.
const deadline = Date.now() + 120_000;
while (acked < sent && Date.now() < deadline) {
  for (const again of resend.splice(0)) publish(again.client, again.topic, again.payload, again.at);
  await new Promise((r) => setTimeout(r, 50));
}
// A clean end waits for every PUBACK: never, for a report the server did not acknowledge by the deadline.
await Promise.all(clients.map((c) => c.endAsync(acked < sent)));
process.stdout.write(`${JSON.stringify({ sent, readings, acked, refused, lags })}\n`);
