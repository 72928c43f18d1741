// npm run cluster -- --servers 3: several server processes on one PostgreSQL and the machine's Mosquitto, behind
// a round-robin HTTP proxy, the demo fleet played through the broker (issue 26 part 5; docs/deployment.md).
//   --servers N     server processes (default 3)
//   --port P        the proxy's port, the address to open (default 8080); servers on P+1 … P+N
//   --database URL  PostgreSQL (default DATABASE_URL, else postgres://postgres@127.0.0.1:5432/sunward_cluster,
//                   created when missing)
//   --mqtt URL      the broker every server shares (default MQTT_URL, else mqtt://127.0.0.1:1883)
// The first server provisions the demo fleet and runs the simulator (SIMULATOR=on); the others join once it is up.
// Ctrl-C stops them all.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { ensureServerBuild, ensureWebBuild, exitWithParent, root, serverEnv, serverMain } from './lib.mjs';

const { values } = parseArgs({
  options: {
    servers: { type: 'string', default: '3' },
    port: { type: 'string', default: process.env.PORT ?? '8080' },
    database: { type: 'string', default: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/sunward_cluster' },
    mqtt: { type: 'string', default: process.env.MQTT_URL ?? 'mqtt://127.0.0.1:1883' },
  },
});
const servers = Number(values.servers);
const port = Number(values.port);
if (!Number.isInteger(servers) || servers < 1 || servers > 16) throw new Error('--servers: 1 to 16');
if (!Number.isInteger(port) || port < 1 || port + servers > 65535) throw new Error('--port: a port number');

/** Creates the database when it does not exist (the server migrates it). */
async function ensureDatabase(url) {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) {
      await client.query(`create database "${name.replaceAll('"', '""')}"`);
      console.log(`cluster: created database ${name}`);
    }
  } finally {
    await client.end();
  }
}

const children = [];
/** The servers answering now, in the proxy's rotation. */
const ports = [];
let stopping = false;
/** Neither exited nor killed by a signal. */
const running = (child) => child.exitCode === null && child.signalCode === null;
function stopAll(code = 0) {
  if (stopping) return;
  stopping = true;
  for (const child of children) if (running(child)) child.kill('SIGTERM');
  const left = () => children.filter(running).length;
  const wait = setInterval(() => {
    if (left() === 0) {
      clearInterval(wait);
      process.exit(code);
    }
  }, 200);
}
process.on('SIGINT', () => stopAll(0));
process.on('SIGTERM', () => stopAll(0));

/** Starts server `index` (0-based); resolves once it answers, with its port. */
function startServer(index) {
  const serverPort = port + 1 + index;
  // Each server stops when this script ends, however it ends: it watches the pipe on its stdin.
  const child = spawn(process.execPath, ['--enable-source-maps', '--import', exitWithParent, serverMain], {
    cwd: root,
    env: {
      ...serverEnv(),
      PORT: String(serverPort),
      DATABASE_URL: values.database,
      MQTT_URL: values.mqtt,
      MQTT_CONSUMER_ID: `cluster-${index + 1}`,
      MQTT_SHARE_GROUP: process.env.MQTT_SHARE_GROUP ?? 'sunward-cluster',
      // One directory for every process: files written by one are downloaded through another.
      DATA_DIR: process.env.DATA_DIR ?? join(root, 'data', 'cluster'),
      PUBLIC_URL: process.env.PUBLIC_URL ?? `http://localhost:${port}`,
      TRUST_PROXY: '127.0.0.1',
      SIMULATOR: index === 0 ? (process.env.SIMULATOR ?? 'on') : 'off',
      // Cameras register with one SIP server (5060 unless SIP_PORT says otherwise: a taken default moves aside).
      ...(index === 0 ? {} : { SIP_PORT: 'off' }),
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  children.push(child);
  const prefix = `[s${index + 1}] `;
  let ready;
  let started = false;
  const up = new Promise((resolve, reject) => {
    ready = resolve;
    child.once('exit', (code, signal) => {
      if (!stopping) {
        // One server stopping (killed, crashed) leaves the others serving: the proxy stops sending it requests, and
        // the others adopt its broker sessions after MQTT_TAKEOVER_S. Only a server that never started stops all.
        const at = ports.indexOf(serverPort);
        if (at >= 0) ports.splice(at, 1);
        if (!started || ports.length === 0) {
          console.error(`${prefix}exited (${code ?? signal}); stopping the cluster`);
          stopAll(1);
        } else console.error(`${prefix}exited (${code ?? signal}); ${ports.length} server(s) carry on`);
      }
      reject(new Error(`server ${index + 1} exited`));
    });
  });
  for (const stream of [child.stdout, child.stderr]) {
    let rest = '';
    stream.on('data', (chunk) => {
      const lines = (rest + chunk.toString()).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) {
        (stream === child.stderr ? process.stderr : process.stdout).write(`${prefix}${line}\n`);
        if (line.includes('is running at')) {
          started = true;
          ready(serverPort);
        }
      }
    });
  }
  return up;
}

/** Round robin over the servers; a server that does not answer is skipped for that request. */
function startProxy(ports) {
  let next = 0;
  const proxy = http.createServer((req, res) => {
    if (ports.length === 0) {
      res.writeHead(503, { 'content-type': 'text/plain' });
      return res.end('the servers are starting\n');
    }
    const attempt = (tries) => {
      const target = ports[next++ % ports.length];
      const forwarded = [req.headers['x-forwarded-for'], req.socket.remoteAddress].filter(Boolean).join(', ');
      const upstream = http.request(
        {
          host: '127.0.0.1',
          port: target,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, 'x-forwarded-for': forwarded, 'x-forwarded-host': req.headers.host ?? '' },
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', (error) => {
        // Nothing sent yet and another server to try: a stopped server is skipped.
        if (tries > 1 && !res.headersSent && error.code === 'ECONNREFUSED' && (req.method === 'GET' || req.method === 'HEAD'))
          return attempt(tries - 1);
        if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
        res.end(`no server answered: ${error.message}\n`);
      });
      res.on('close', () => upstream.destroy());
      req.pipe(upstream);
    };
    attempt(ports.length);
  });
  return new Promise((resolve) => {
    proxy.once('error', (error) => {
      console.error(`cluster: the proxy cannot listen on ${port}: ${error.message}`);
      process.exit(1);
    });
    proxy.listen(port, resolve);
  });
}

function banner(ports) {
  console.log(`\nSunward cluster: ${ports.length} server processes behind http://localhost:${port} (round robin)`);
  console.log(`  servers:  ${ports.map((p) => `http://localhost:${p}`).join('  ')}`);
  console.log(`  database: ${values.database.replace(/\/\/[^@]*@/, '//***@')}`);
  console.log(`  broker:   ${values.mqtt} (shared subscriptions)`);
  console.log('  Ctrl-C stops them all.\n');
}

ensureWebBuild();
ensureServerBuild();
mkdirSync(join(root, 'data'), { recursive: true });
await ensureDatabase(values.database);
// The proxy's port first: a taken port stops the script before any server starts.
await startProxy(ports);
ports.push(await startServer(0));
ports.push(...(await Promise.all(Array.from({ length: servers - 1 }, (_, i) => startServer(i + 1)))));
banner(ports);
