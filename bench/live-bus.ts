// Live bus benchmark (issue 26 part 3): what crossing processes through PostgreSQL LISTEN/NOTIFY costs. A child
// process listens on the bus; this process publishes device changes (distinct devices, so nothing coalesces)
// with the publish time in powerW, first at a trickle (latency alone), then at a rate (throughput and latency
// under load). Prints events/s received, NOTIFYs/s, latency p50/p99 from publish here to delivery there.
//   npx tsx bench/live-bus.ts [--rate 10000] [--seconds 5] [--postgres postgres://postgres@127.0.0.1:5432/test]
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { LiveEvent } from '@sunward/contracts/live-events';
import { createScratchDatabase } from '../apps/server/src/db/scratch-database.js';
import { createLiveBus } from '../apps/server/src/ingest/live-bus.js';

const quiet = { info: () => undefined, warn: () => undefined };
const clock = () => performance.timeOrigin + performance.now();

if (process.argv[2] === '--receiver') {
  const bus = createLiveBus({ connectionString: process.argv[3] ?? '' });
  await bus.start(quiet);
  let latencies: number[] = [];
  let received = 0;
  bus.subscribe(
    (event) => {
      if (event.type !== 'device' || event.powerW === null) return;
      received++;
      latencies.push(clock() - event.powerW);
    },
    { scope: 'cluster' },
  );
  process.on('message', (message: string) => {
    if (message === 'report') {
      process.send?.({ received, latencies });
      latencies = [];
      received = 0;
    } else if (message === 'stop') void bus.close().then(() => process.exit(0));
  });
  process.send?.('ready');
} else {
  const { values: args } = parseArgs({
    options: {
      rate: { type: 'string', default: '10000' },
      seconds: { type: 'string', default: '5' },
      postgres: { type: 'string', default: process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test' },
    },
  });
  const scratch = await createScratchDatabase(args.postgres ?? '', 'sunward_livebus');
  const child = fork(fileURLToPath(import.meta.url), ['--receiver', scratch.url], { execArgv: ['--import', 'tsx'] });
  const next = <T>() => new Promise<T>((resolve) => child.once('message', (m) => resolve(m as T)));
  await next<string>();
  const bus = createLiveBus({ connectionString: scratch.url });
  await bus.start(quiet);
  let device = 0;
  const publish = () => {
    const event: LiveEvent = {
      type: 'device',
      deviceId: ++device,
      plantId: 1,
      status: 1,
      powerW: clock(),
      soc: null,
      ts: new Date().toISOString(),
    };
    bus.publish(event);
  };
  const pct = (xs: number[], p: number) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length === 0 ? Number.NaN : (s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? Number.NaN);
  };
  async function phase(name: string, rate: number, seconds: number) {
    const before = { ...bus.stats };
    const started = Date.now();
    // Publishing in 10 ms slices, as ingest batches do.
    await new Promise<void>((resolve) => {
      let slices = 0;
      const timer = setInterval(() => {
        for (let i = 0; i < rate / 100; i++) publish();
        if (++slices >= seconds * 100) {
          clearInterval(timer);
          resolve();
        }
      }, 10);
    });
    // Let the last tick arrive.
    await new Promise((resolve) => setTimeout(resolve, 500));
    child.send('report');
    const { received, latencies } = await next<{ received: number; latencies: number[] }>();
    const elapsed = (Date.now() - started) / 1000 - 0.5;
    const notifies = bus.stats.notifies - before.notifies;
    const sent = bus.stats.sent - before.sent;
    console.log(
      `${name}: ${rate} events/s offered for ${seconds} s → ${sent} sent, ${received} received (${Math.round(received / elapsed)}/s), ` +
        `${Math.round(notifies / elapsed)} NOTIFY/s (${(sent / Math.max(1, notifies)).toFixed(0)} events each), ` +
        `latency p50 ${pct(latencies, 50).toFixed(1)} ms, p99 ${pct(latencies, 99).toFixed(1)} ms, dropped ${bus.stats.dropped - before.dropped}`,
    );
  }
  try {
    await phase('trickle', 100, Number(args.seconds));
    await phase('load', Number(args.rate), Number(args.seconds));
  } finally {
    child.send('stop');
    await new Promise((resolve) => child.once('exit', resolve));
    await bus.close();
    await scratch.drop();
  }
}
