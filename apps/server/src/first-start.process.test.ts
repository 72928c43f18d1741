import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

// Issue 17: a first start that cannot lock anyone out. Ports are bound before anything is written; a taken
// default port is replaced by a free one and said so; the administrator tool sets a new password.
const MAIN = fileURLToPath(new URL('./main.ts', import.meta.url));
const ADMIN_CLI = fileURLToPath(new URL('./admin-cli.ts', import.meta.url));
const dirs: string[] = [];
const blockers: Server[] = [];
afterAll(() => {
  for (const blocker of blockers) blocker.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function freshDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sunward-first-'));
  dirs.push(dir);
  return dir;
}

/** Holds `port` on 127.0.0.1 and 0.0.0.0-style wildcard binds alike; true if it was free and is now ours, false if someone else has it. */
function occupy(port: number): Promise<boolean> {
  const blocker = createServer();
  return new Promise((resolve) => {
    blocker.once('error', () => resolve(false));
    blocker.listen(port, () => {
      blockers.push(blocker);
      resolve(true);
    });
  });
}

function bareEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'warn', SIMULATOR: 'off', ...extra };
  for (const name of ['PORT', 'MQTT_PORT', 'ADMIN_PASSWORD', 'DATABASE_URL', 'MQTT_URL', 'HOST', 'MQTT_HOST'])
    if (!(name in extra)) delete env[name];
  return env;
}

interface Started {
  child: ChildProcess;
  output: () => string;
  url: string;
}

function startMain(env: Record<string, string>): Promise<Started> {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], { env: bareEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const add = (chunk: Buffer) => {
    out += chunk.toString();
  };
  child.stdout?.on('data', add);
  child.stderr?.on('data', add);
  return new Promise((resolve, reject) => {
    const timer = setInterval(() => {
      const match = /running at http:\/\/localhost:(\d+)/.exec(out);
      if (match) {
        clearInterval(timer);
        resolve({ child, output: () => out, url: `http://127.0.0.1:${match[1]}` });
      }
    }, 50);
    child.once('exit', (code) => {
      clearInterval(timer);
      reject(Object.assign(new Error(`exited ${code}: ${out}`), { output: out, code }));
    });
  });
}

function failedStart(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return startMain(env).then(
    async (started) => {
      await stop(started.child);
      throw new Error(`started although it should not: ${started.output()}`);
    },
    (error: { output: string; code: number | null }) => ({ code: error.code, output: error.output.trim() }),
  );
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

async function signIn(url: string, account: string, password: string): Promise<number> {
  const response = await fetch(`${url}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'password', username: account, password }),
  });
  return ((await response.json()) as { code: number }).code;
}

function admin(args: string[], env: Record<string, string>) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', ADMIN_CLI, ...args], {
    env: bareEnv(env),
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { code: result.status, out: result.stdout, err: result.stderr.trim() };
}

describe('first start', () => {
  it('with 8080 and 1883 taken and no PORT/MQTT_PORT set, takes free ports, says so, prints the login and signs in', async () => {
    // Taken here by whoever has them (1883: the machine's Mosquitto), or by this test.
    await occupy(8080);
    await occupy(1883);
    const dataDir = freshDir();
    const started = await startMain({ DATA_DIR: dataDir, ADMIN_ACCOUNT: 'owner@example.com' });
    const out = started.output();
    expect(out).toMatch(/Port 8080 is in use, so Sunward took \d+ \(set PORT to choose\)\./);
    expect(out).toMatch(/MQTT port 1883 is in use \(another broker\?\), so the embedded broker took \d+ \(set MQTT_PORT to choose\)\./);
    expect(started.url).not.toMatch(/:8080$/);
    const password = /password: (\S+)/.exec(out)?.[1] ?? '';
    expect(password).toMatch(/^[A-Za-z0-9]{20}$/);
    expect(await signIn(started.url, 'owner@example.com', password)).toBe(0);
    await stop(started.child);
  }, 150_000);

  it('an explicit PORT or MQTT_PORT that is taken stops with one line naming it, and writes nothing', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    blockers.push(blocker);
    const address = blocker.address();
    const taken = typeof address === 'object' && address ? address.port : 0;
    const parent = freshDir();
    const dataDir = join(parent, 'data');

    const http = await failedStart({ DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: String(taken), MQTT_PORT: '0' });
    expect(http.code).toBe(1);
    expect(http.output.split('\n').at(-1)).toBe(
      `Port ${taken} is already in use: set PORT to a free port (e.g. PORT=${taken + 1} npm start).`,
    );

    const mqtt = await failedStart({ DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: '0', MQTT_HOST: '127.0.0.1', MQTT_PORT: String(taken) });
    expect(mqtt.code).toBe(1);
    expect(mqtt.output.split('\n').at(-1)).toBe(
      `Port ${taken} is already in use: set MQTT_PORT to a free port (e.g. MQTT_PORT=${taken + 1} npm start).`,
    );
    // No DATA_DIR, no database, no administrator: the next start is a first start again.
    expect(existsSync(dataDir)).toBe(false);
    expect(readdirSync(parent)).toEqual([]);
  }, 120_000);

  it('npm run admin -- reset-password and create: a way back in with the server stopped', async () => {
    const dataDir = freshDir();
    const env = { DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: '0', MQTT_HOST: '127.0.0.1', MQTT_PORT: '0' };
    // Created before any start: the tool makes the database; the first start then finds an administrator.
    const created = admin(['create', '--account', 'ops@example.com'], env);
    expect(created.err).toBe('');
    expect(created.code).toBe(0);
    const opsPassword = /password: (\S+)/.exec(created.out)?.[1] ?? '';
    expect(opsPassword).toMatch(/^[A-Za-z0-9]{20}$/);
    // The rest of the tool's refusals and the generated reset are in admin-accounts.api.test.ts (no process each).
    const chosen = admin(['reset-password', '--account', 'OPS@example.com'], { ...env, ADMIN_PASSWORD: 'Chosen-Pass-2026' });
    expect(chosen.code).toBe(0);
    expect(chosen.out).toContain('the one set in ADMIN_PASSWORD');
    expect(chosen.out).not.toContain('Chosen-Pass-2026');
    expect(admin(['rename'], env).code).toBe(2);

    const started = await startMain(env);
    expect(started.output()).not.toContain('password:');
    expect(await signIn(started.url, 'ops@example.com', opsPassword)).toBe(102);
    expect(await signIn(started.url, 'ops@example.com', 'Chosen-Pass-2026')).toBe(0);
    // While the server has the embedded database open, the tool refuses to touch it.
    const busy = admin(['reset-password', '--account', 'ops@example.com'], env);
    expect(busy.code).toBe(1);
    expect(busy.err).toMatch(/^The server \(process \d+\) is using the database in DATA_DIR .*: stop it first/);
    await stop(started.child);
  }, 240_000);
});
