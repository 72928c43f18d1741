// Batch upgrade benchmark (issue 6, "Speed and load"): one batch task upgrading 1,000 simulated inverters.
//   npx tsx bench/batch-upgrade.ts [--inverters 1000] [--step-ms 200] [--concurrency 100] [--rounds 3] [--cap 5000] [--timeout-s 900]
// The server runs as a child process (`node --import tsx apps/server/src/main.ts`) on a scratch PostgreSQL
// database, so its memory (VmRSS) is sampled every second on its own; the simulator is a second child
// process playing the load fleet over MQTT and verifying the platform's signature on every image. The
// script signs in, uploads and enables an inverter image, creates one task for every inverter and follows
// it through GET /api/v1/tasks until it is done, printing progress as it goes; then again with a newer image
// (--rounds), so memory that stays behind after each task shows as growth from round to round.
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { openDatabase, queryRows } from '../apps/server/src/db/client.js';
import { createScratchDatabase } from '../apps/server/src/db/scratch-database.js';
import { provisionLoadFleet } from '../apps/server/src/features/fleet/load-fleet.js';
import { api as answerOf } from '../apps/server/src/test/cluster-harness.js';

const { values: args } = parseArgs({
  options: {
    inverters: { type: 'string', default: '1000' },
    'step-ms': { type: 'string', default: '200' },
    concurrency: { type: 'string', default: '100' },
    'timeout-s': { type: 'string', default: '900' },
    rounds: { type: 'string', default: '3' },
    cap: { type: 'string', default: '5000' },
  },
});
const INVERTERS = Number(args.inverters);
const STEP_MS = Number(args['step-ms']);
const CONCURRENCY = Number(args.concurrency);
const TIMEOUT_MS = Number(args['timeout-s']) * 1000;
/** Tasks run one after another (a new image each): memory that grows round over round is a leak. */
const ROUNDS = Number(args.rounds);
/** Inverters per gateway: a plant with ten string inverters behind one gateway. */
const PER_GATEWAY = 10;
/** COMMAND_CAP_PER_MINUTE: the default (100 devices a minute) would decide the time on its own; the bench lifts it. */
const CAP_PER_MINUTE = Number(args.cap);
const ADMIN = { account: 'admin@bench.local', password: 'Bench-Password-1' };
/**
 * "Flat": the highest peak at most this far above the first task's start (V8 lets its heap grow by tens
 * of MB before a major collection, so one sample says little), and the floor of the last round (its lowest
 * sample, taken after a collection) at most this far above the floor of the first: what a leak moves.
 */
const FLAT_PEAK_MB = 100;
const FLAT_FLOOR_MB = 16;
const SETTLE_MS = 15_000;

const root = join(import.meta.dirname, '..');
const work = mkdtempSync(join(tmpdir(), 'sunward-upgbench-'));
const pgUrl = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MB`;
const signed = (n: number) => `${n >= 0 ? '+' : '−'}${Math.abs(n).toFixed(0)}`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ');

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** A child process whose output goes to a log file in the bench's directory (printed if it fails). */
function startChild(name: string, argv: string[], env: NodeJS.ProcessEnv): { child: ChildProcess; log: string } {
  const log = join(work, `${name}.log`);
  const fd = openSync(log, 'w');
  const child = spawn(process.execPath, ['--import', 'tsx', ...argv], { cwd: root, env, stdio: ['ignore', fd, fd] });
  closeSync(fd);
  child.once('exit', (code, signal) => {
    if (!stopping) console.error(`${name} exited early (code ${code}, signal ${signal}); its log: ${log}`);
  });
  return { child, log };
}

async function stopChild(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** The resident set of a process in kB, from /proc (undefined once it is gone). */
function rssKb(pid: number | undefined): number | undefined {
  try {
    const match = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

async function waitFor<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(500);
  }
}

let stopping = false;
const scratch = await createScratchDatabase(pgUrl, 'sunward_upgbench');
const port = await freePort();
const mqttPort = await freePort();
const base = `http://127.0.0.1:${port}`;
let server: ReturnType<typeof startChild> | undefined;
let simulator: ReturnType<typeof startChild> | undefined;
let database: Awaited<ReturnType<typeof openDatabase>> | undefined;
let sampler: NodeJS.Timeout | undefined;

async function cleanUp(): Promise<void> {
  stopping = true;
  if (sampler) clearInterval(sampler);
  await stopChild(simulator?.child);
  await stopChild(server?.child);
  await database?.close().catch(() => undefined);
  await scratch.drop();
}
process.once('SIGINT', () => {
  cleanUp().then(
    () => process.exit(130),
    () => process.exit(130),
  );
});

try {
  console.log(`machine: load average ${load()} (1 / 5 / 15 min); work files in ${work}`);
  server = startChild('server', ['apps/server/src/main.ts'], {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    MQTT_PORT: String(mqttPort),
    MQTT_HOST: '127.0.0.1',
    DATA_DIR: join(work, 'data'),
    DATABASE_URL: scratch.url,
    SIMULATOR: 'off',
    ADMIN_ACCOUNT: ADMIN.account,
    ADMIN_PASSWORD: ADMIN.password,
    COMMAND_CAP_PER_MINUTE: String(CAP_PER_MINUTE),
    BATCH_CONCURRENCY: String(CONCURRENCY),
    COMMAND_TIMEOUT_S: '30',
    ACCESS_TOKEN_TTL_MINUTES: '120',
    LOG_LEVEL: 'warn',
  });
  const serverPid = server.child.pid;
  await waitFor('the server to answer /api/health', 120_000, async () => {
    const response = await fetch(`${base}/api/health`);
    return response.ok ? true : undefined;
  });
  const idleRss = rssKb(serverPid) ?? 0;
  console.log(`server pid ${serverPid} up on ${base}, MQTT ${mqttPort}; RSS idle ${mb(idleRss)}`);

  // Memory: one sample a second for the whole run; the task's window is cut out of it afterwards.
  const samples: { at: number; kb: number }[] = [];
  sampler = setInterval(() => {
    const kb = rssKb(serverPid);
    if (kb !== undefined) samples.push({ at: Date.now(), kb });
  }, 1000);

  async function api<T>(method: 'GET' | 'POST', path: string, options: { token?: string; json?: unknown } = {}): Promise<T> {
    const body = await answerOf<T>(base, method, path, options);
    if (body.code !== 0) throw new Error(`${method} ${path} answered ${JSON.stringify(body).slice(0, 500)}`);
    return body.data;
  }

  const signIn = await fetch(`${base}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'password', username: ADMIN.account, password: ADMIN.password }).toString(),
  });
  const signedIn = (await signIn.json()) as { code: number; data: { access_token: string } };
  if (signedIn.code !== 0) throw new Error(`sign-in failed: ${JSON.stringify(signedIn)}`);
  const token = signedIn.data.access_token;

  // The fleet: registered in the server's database from this process, like `npm run provision`.
  const provisionStart = performance.now();
  database = await openDatabase({ dataDir: join(work, 'unused'), databaseUrl: scratch.url });
  const fleet = await provisionLoadFleet(database.db, {
    gateways: Math.ceil(INVERTERS / PER_GATEWAY),
    devicesPerGateway: PER_GATEWAY,
    protocolId: 'sunspec-inverter-3p',
    intervalSeconds: 60,
    mqttUrl: `mqtt://127.0.0.1:${mqttPort}`,
    seed: 1,
    prefix: 'U',
  });
  const db = database.db;
  const sns = fleet.gateways.flatMap((g) => g.devices.map((d) => d.sn)).slice(0, INVERTERS);
  const fleetFile = join(work, 'fleet.json');
  writeFileSync(fleetFile, JSON.stringify(fleet), { mode: 0o600 });
  const { publicKey } = await api<{ publicKey: string }>('GET', '/api/v1/firmware/publicKey', { token });
  const keyFile = join(work, 'firmware-key.pem');
  writeFileSync(keyFile, publicKey);
  console.log(
    `fleet: ${fleet.gateways.length} gateways × ${PER_GATEWAY} inverters registered in ${seconds(performance.now() - provisionStart)}`,
  );

  simulator = startChild(
    'simulator',
    [
      'apps/simulator/src/main.ts',
      '--fleet',
      fleetFile,
      '--url',
      `mqtt://127.0.0.1:${mqttPort}`,
      '--interval',
      '60',
      '--fault-rate',
      '0',
      '--upgrade-step-ms',
      String(STEP_MS),
      '--firmware-key',
      keyFile,
    ],
    { ...process.env },
  );
  const onlineStart = performance.now();
  const counts = await waitFor('every inverter to report', 180_000, async () => {
    const c = await api<{ total: number; offline: number }>('GET', '/api/v1/inverters/count', { token });
    return c.total >= INVERTERS && c.offline === 0 ? c : undefined;
  });
  console.log(`all ${counts.total} inverters online ${seconds(performance.now() - onlineStart)} after the simulator started`);

  interface TaskRow {
    id: number;
    status: string;
    items: number;
    successful: number;
    failed: number;
    skipped: number;
  }
  interface RoundResult {
    row: TaskRow | undefined;
    createMs: number;
    taskMs: number;
    firstSentMs: number;
    sendSpanMs: number;
    sent: number;
    inFlightPeak: number;
    upgradeMs: number[];
    /** floor: the lowest sample from the task's start to the end of its quiet window (after the collector ran). */
    rss: { start: number; peak: number; done: number; settled: number; floor: number };
  }

  /** One round: a new image (a new version, so every inverter takes it), one task for all, followed to its end. */
  async function runRound(round: number): Promise<RoundResult> {
    const image = randomBytes(64 * 1024);
    image[0] = 0;
    const version = `9.${Date.now().toString(36)}.${round}`;
    const fileName = `bench_${version}.bin`;
    const form = new FormData();
    const fields: Record<string, string> = {
      name: `BENCH-${version}`,
      manufacturer: 'Sunward',
      product: 'SW-INV',
      swVersion: version,
      type: 'inverter',
      mode: 'remote',
      fileName,
      md5: createHash('md5').update(image).digest('hex'),
    };
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    form.append('file', new Blob([image]), fileName);
    const uploaded = (await (
      await fetch(`${base}/api/v1/firmware`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form })
    ).json()) as { code: number; data: { id: number } };
    if (uploaded.code !== 0) throw new Error(`firmware upload answered ${JSON.stringify(uploaded)}`);
    const firmId = uploaded.data.id;
    await api('POST', `/api/v1/firmware/${firmId}/enable`, { token, json: { enabled: true } });

    // The task: created (password once, compatibility checked per SN), then followed through the list.
    const rssStart = rssKb(serverPid) ?? 0;
    const taskStart = Date.now();
    const created = await api<{ id: number }>('POST', '/api/v1/tasks', {
      token,
      json: { name: `Bench ${INVERTERS} #${round}`, firmId, sns, password: ADMIN.password },
    });
    const createMs = Date.now() - taskStart;
    console.log(`round ${round}: task ${created.id} created in ${seconds(createMs)}, image ${version} (${image.length / 1024} KB)`);
    let row: TaskRow | undefined;
    let lastPrint = 0;
    for (;;) {
      const page = await api<{ infos: TaskRow[] }>('GET', '/api/v1/tasks?page=1&size=20', { token });
      row = page.infos.find((t) => t.id === created.id);
      const final = row && ['done', 'terminated', 'paused'].includes(row.status);
      if (row && (final || Date.now() - lastPrint >= 5000)) {
        lastPrint = Date.now();
        console.log(
          `  [${seconds(Date.now() - taskStart).padStart(7)}] ${row.status.padEnd(8)} ${String(row.successful + row.failed).padStart(5)}/${row.items - row.skipped} finished` +
            ` (successful ${row.successful}, failed ${row.failed}, skipped ${row.skipped})  server RSS ${mb(rssKb(serverPid) ?? 0)}`,
        );
      }
      if (final) break;
      if (Date.now() - taskStart > TIMEOUT_MS) {
        console.log(`  not done after ${seconds(TIMEOUT_MS)}: stopping`);
        break;
      }
      await sleep(1000);
    }
    const taskMs = Date.now() - taskStart;
    const rssDone = rssKb(serverPid) ?? 0;
    const inTask = samples.filter((x) => x.at >= taskStart && x.at <= taskStart + taskMs).map((x) => x.kb);
    // A quiet window after the task: the simulator still reports every minute, nothing else happens.
    await sleep(SETTLE_MS);
    const rssSettled = rssKb(serverPid) ?? 0;

    // Each item's command: when it was sent and when the device's final reply was recorded.
    const commands = await queryRows<{ sent: string | number; done: string | number | null }>(
      db,
      sql`select extract(epoch from c.at) * 1000 as sent, extract(epoch from c.finished_at) * 1000 as done
          from batch_task_items i join device_commands c on c.id = i.command_id where i.task_id = ${created.id}`,
    );
    const sent = commands.map((c) => Number(c.sent)).sort((a, b) => a - b);
    // Upgrades under way at once, at their most: a sweep over the sends and the final replies.
    const edges = commands
      .flatMap((c) => [{ at: Number(c.sent), d: 1 }, ...(c.done === null ? [] : [{ at: Number(c.done), d: -1 }])])
      .sort((a, b) => a.at - b.at || a.d - b.d);
    let inFlight = 0;
    let inFlightPeak = 0;
    for (const e of edges) {
      inFlight += e.d;
      inFlightPeak = Math.max(inFlightPeak, inFlight);
    }
    return {
      row,
      createMs,
      taskMs,
      firstSentMs: (sent[0] ?? taskStart) - taskStart,
      sendSpanMs: (sent.at(-1) ?? 0) - (sent[0] ?? 0),
      sent: sent.length,
      inFlightPeak,
      upgradeMs: commands
        .filter((c) => c.done !== null)
        .map((c) => Number(c.done) - Number(c.sent))
        .sort((a, b) => a - b),
      rss: {
        start: rssStart,
        peak: Math.max(rssStart, rssDone, ...inTask),
        done: rssDone,
        settled: rssSettled,
        floor: Math.min(rssStart, rssSettled, ...samples.filter((x) => x.at >= taskStart).map((x) => x.kb)),
      },
    };
  }

  const loadAtStart = load();
  const results: RoundResult[] = [];
  for (let round = 1; round <= ROUNDS; round++) results.push(await runRound(round));
  const loadAtEnd = load();
  clearInterval(sampler);

  console.log('');
  console.log(`inverters            ${sns.length} (${fleet.gateways.length} gateways × ${PER_GATEWAY}), sunspec-inverter-3p`);
  console.log(`concurrency / step   ${CONCURRENCY} items at once / ${STEP_MS} ms per 10 % (≥ ${seconds(STEP_MS * 10)} per upgrade)`);
  console.log(`command cap          ${CAP_PER_MINUTE} devices per minute (the default 100 would allow ~100 upgrades a minute)`);
  let allFinal = true;
  for (const [i, r] of results.entries()) {
    const successful = r.row?.successful ?? 0;
    const final = r.row?.status === 'done' && successful + (r.row?.failed ?? 0) + (r.row?.skipped ?? 0) === r.row?.items;
    allFinal &&= final;
    const pct = (q: number) => r.upgradeMs[Math.min(r.upgradeMs.length - 1, Math.floor(q * r.upgradeMs.length))] ?? 0;
    console.log(`-- round ${i + 1}`);
    console.log(
      `task                 ${r.row?.status ?? 'missing'}, every item final: ${final ? 'yes' : 'NO'}; ${r.row?.items ?? 0} items:` +
        ` successful ${successful}, failed ${r.row?.failed ?? 0}, skipped ${r.row?.skipped ?? 0}`,
    );
    console.log(
      `time to done         ${seconds(r.taskMs)} (create call ${seconds(r.createMs)}); ${((successful / r.taskMs) * 60_000).toFixed(0)} upgrades/min`,
    );
    console.log(
      `per upgrade          p50 ${seconds(pct(0.5))}, p95 ${seconds(pct(0.95))}, max ${seconds(r.upgradeMs.at(-1) ?? 0)} (command sent to final reply)`,
    );
    console.log(
      `commands sent        ${r.sent}: first ${seconds(r.firstSentMs)} after the create call began, the last ${seconds(r.sendSpanMs)} after the first` +
        ` (${((r.sent / Math.max(1, r.sendSpanMs)) * 1000).toFixed(1)}/s); at most ${r.inFlightPeak} under way at once`,
    );
    console.log(
      `server RSS           start ${mb(r.rss.start)}, peak ${mb(r.rss.peak)}, done ${mb(r.rss.done)}, ${SETTLE_MS / 1000} s later ${mb(r.rss.settled)}; floor ${mb(r.rss.floor)}`,
    );
  }
  const first = results[0]?.rss ?? { start: 0, peak: 0, done: 0, settled: 0, floor: 0 };
  const last = results.at(-1)?.rss ?? first;
  const growthPeak = (Math.max(...results.map((r) => r.rss.peak)) - first.start) / 1024;
  const growthFloor = (last.floor - first.floor) / 1024;
  const flat = growthPeak <= FLAT_PEAK_MB && growthFloor <= FLAT_FLOOR_MB;
  console.log('--');
  console.log(
    `memory flat          ${flat ? 'yes' : 'NO'}: idle ${mb(idleRss)}; highest peak ${signed(growthPeak)} MB over the first task's start (≤ ${FLAT_PEAK_MB}),` +
      ` floor of the last round ${signed(growthFloor)} MB against the first's (≤ ${FLAT_FLOOR_MB})`,
  );
  console.log(`load average         ${loadAtStart} at the start, ${loadAtEnd} at the end (1 / 5 / 15 min, 2 cores)`);
  await cleanUp();
  process.exit(allFinal ? 0 : 1);
} catch (error) {
  console.error(error);
  await sleep(500);
  for (const [name, started] of [
    ['server', server],
    ['simulator', simulator],
  ] as const)
    if (started) {
      const { exitCode, signalCode } = started.child;
      const state = exitCode === null && signalCode === null ? 'still running' : `exited (code ${exitCode}, signal ${signalCode})`;
      console.error(`${name} ${state}; its log: ${started.log}`);
    }
  await cleanUp();
  process.exit(1);
}
