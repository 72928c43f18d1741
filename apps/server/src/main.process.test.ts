import { type ChildProcess, spawn } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { chmodSync, closeSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

// The product's own entry point, as `npm start` runs it: printed login, restarts, logs, port errors.
const MAIN = fileURLToPath(new URL('./main.ts', import.meta.url));
const dataDirs: string[] = [];
afterAll(() => {
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

interface Started {
  child: ChildProcess;
  url: string;
  output: () => string;
}

function freshDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sunward-main-'));
  dataDirs.push(dir);
  return dir;
}

/** Starts main.ts and resolves once it says where it runs (or rejects with what it printed). */
function startMain(env: Record<string, string>): Promise<Started> {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    // No demo history: these tests look at start-up, not at 60 days of readings filling in behind it.
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: '0',
      MQTT_PORT: '0',
      MQTT_HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      SIMULATOR_HISTORY_DAYS: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    const timer = setInterval(() => {
      const match = /running at http:\/\/localhost:(\d+)/.exec(out);
      if (match) {
        clearInterval(timer);
        resolve({ child, url: `http://127.0.0.1:${match[1]}`, output: () => out });
      }
    }, 50);
    child.once('exit', (code) => {
      clearInterval(timer);
      reject(Object.assign(new Error(`exited ${code}`), { output: out, code }));
    });
  });
}

/** A start that is expected to fail: what it printed and its exit code (undefined if it started). */
function failedStart(env: Record<string, string>): Promise<{ output: string; code: number } | undefined> {
  return startMain(env).then(
    () => undefined,
    (error: { output: string; code: number }) => error,
  );
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

async function signIn(url: string, account: string, password: string) {
  const response = await fetch(`${url}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'password', username: account, password }),
  });
  return (await response.json()) as { code: number; data: { access_token: string } };
}

/** Fields of /proc/<pid>/stat after the command name: state, ppid, … (Linux). */
function procStat(pid: number): { state: string; ppid: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const [state = '', ppid = '0'] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state, ppid: Number(ppid) };
  } catch {
    return undefined;
  }
}

/** A process that still runs (a zombie waiting for its reaper has ended). */
function running(pid: number): boolean {
  const stat = procStat(pid);
  return stat !== undefined && stat.state !== 'Z' && stat.state !== 'X';
}

/** Process ids whose command line contains `text` (Linux /proc). */
function processesRunning(text: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ').includes(text) && running(Number(entry)))
        found.push(Number(entry));
    } catch {
      // It ended while we looked.
    }
  }
  return found;
}

async function until<T>(what: string, probe: () => T | undefined | false, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('npm start (main.ts)', () => {
  it('prints a generated admin password once, and keeps data across a restart', async () => {
    const dataDir = freshDataDir();
    const first = await startMain({ DATA_DIR: dataDir, ADMIN_ACCOUNT: 'root@example.com', ADMIN_PASSWORD: '' });
    const password = /password: (\S+)/.exec(first.output())?.[1];
    expect(password).toMatch(/^[A-Za-z0-9]{20}$/);
    expect(first.output()).toContain('account:  root@example.com');
    expect((await signIn(first.url, 'root@example.com', password ?? '')).code).toBe(0);
    await stop(first.child);

    const second = await startMain({ DATA_DIR: dataDir, ADMIN_ACCOUNT: 'root@example.com', ADMIN_PASSWORD: '' });
    expect(second.output()).not.toContain('password:');
    expect((await signIn(second.url, 'root@example.com', password ?? '')).code).toBe(0);
    await stop(second.child);
  }, 60_000);

  it('logs JSON lines with request ids, and never a password or token', async () => {
    const started = await startMain({ DATA_DIR: freshDataDir(), ADMIN_PASSWORD: 'Secret-Admin-Pw-1' });
    const wrong = await signIn(started.url, 'admin', 'Wrong-Secret-Pw-9');
    expect(wrong.code).toBe(102);
    const right = await signIn(started.url, 'admin', 'Secret-Admin-Pw-1');
    await fetch(`${started.url}/api/v1/user`, { headers: { authorization: `Bearer ${right.data.access_token}` } });
    await stop(started.child);
    const log = started.output();
    expect(log).not.toContain('Secret-Admin-Pw-1');
    expect(log).not.toContain('Wrong-Secret-Pw-9');
    expect(log).not.toContain(right.data.access_token);
    const lines = log
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.some((l) => l.event === 'sign_in' && l.outcome === 'wrong_credentials' && l.account === 'admin')).toBe(true);
    expect(lines.some((l) => l.event === 'sign_in' && l.outcome === 'success')).toBe(true);
    expect(lines.filter((l) => l.msg === 'request completed').every((l) => typeof l.reqId === 'string')).toBe(true);
  }, 60_000);

  it('stops with a one-line message naming PORT when the port is taken', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const address = blocker.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const failure = await failedStart({ DATA_DIR: freshDataDir(), PORT: String(port) });
    blocker.close();
    expect(failure?.code).toBe(1);
    expect(failure?.output.trim().split('\n').at(-1)).toBe(
      `Port ${port} is already in use: set PORT to a free port (e.g. PORT=${port + 1} npm start).`,
    );
  }, 60_000);

  it('names SIP_PORT, not PORT, when an explicit SIP port is taken', async () => {
    const blocker = createSocket('udp4');
    await new Promise<void>((resolve) => blocker.bind(0, '0.0.0.0', resolve));
    const port = blocker.address().port;
    const failure = await failedStart({ DATA_DIR: freshDataDir(), SIP_PORT: String(port), SIMULATOR: 'off' });
    blocker.close();
    expect(failure?.code).toBe(1);
    expect(failure?.output.trim().split('\n').at(-1)).toBe(
      `Port ${port} is already in use: set SIP_PORT to a free port (e.g. SIP_PORT=${port + 1} npm start).`,
    );
  }, 60_000);

  it.skipIf(process.platform !== 'linux')(
    'leaves no simulator behind when the server is killed with kill -9',
    async () => {
      const dataDir = freshDataDir();
      // Output to a file, not a pipe: an orphan must not die only because nobody reads its output any more.
      const log = openSync(join(dataDir, 'out.log'), 'w');
      const server = spawn(process.execPath, ['--import', 'tsx', MAIN], {
        env: {
          ...process.env,
          DATA_DIR: dataDir,
          HOST: '127.0.0.1',
          PORT: '0',
          MQTT_PORT: '0',
          MQTT_HOST: '127.0.0.1',
          SIMULATOR: 'on',
          SIMULATOR_HISTORY_DAYS: '0',
        },
        stdio: ['ignore', log, log],
      });
      closeSync(log);
      const serverPid = server.pid ?? 0;
      // The simulator child is started once the demo fleet is provisioned; it is the one reading this DATA_DIR's fleet.
      const simulatorPid = await until(
        'the simulator to start',
        () => processesRunning(join(dataDir, 'demo-fleet.json')).find((pid) => procStat(pid)?.ppid === serverPid),
        90_000,
      );
      const exited = new Promise((resolve) => server.once('exit', resolve));
      process.kill(serverPid, 'SIGKILL');
      await exited;
      try {
        await until('the simulator to stop', () => !running(simulatorPid), 20_000);
        expect(processesRunning(join(dataDir, 'demo-fleet.json'))).toEqual([]);
      } finally {
        // A failure must not leave the orphan playing gateways for the rest of the run.
        for (const pid of processesRunning(join(dataDir, 'demo-fleet.json'))) process.kill(pid, 'SIGKILL');
      }
    },
    150_000,
  );

  describe('a DATA_DIR it cannot use stops the start with one line naming DATA_DIR and the path, and leaves no database', () => {
    /** Runs main.ts to its exit; as root, as the user nobody (root writes through read-only modes). */
    function failedStart(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
      const asRoot = process.getuid?.() === 0;
      const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
        env: {
          ...process.env,
          HOST: '127.0.0.1',
          PORT: '0',
          MQTT_PORT: '0',
          MQTT_HOST: '127.0.0.1',
          SIMULATOR: 'off',
          HOME: tmpdir(),
          ...env,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
        ...(asRoot ? { uid: 65534, gid: 65534 } : {}),
      });
      let output = '';
      child.stdout?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
      });
      child.stderr?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
      });
      return new Promise((resolve) => child.once('close', (code) => resolve({ code, output: output.trim() })));
    }

    it('a read-only DATA_DIR, and one that cannot be created under it', async () => {
      const dir = freshDataDir();
      chmodSync(dir, 0o555);
      const readOnly = await failedStart({ DATA_DIR: dir });
      expect(readOnly.code).toBe(1);
      expect(readOnly.output).toMatch(
        new RegExp(`^DATA_DIR ${dir} is not writable \\((permission denied, EACCES|read-only file system, EROFS)\\): set DATA_DIR`),
      );
      expect(readOnly.output.split('\n')).toHaveLength(1);
      expect(readdirSync(dir)).toEqual([]);

      const below = join(dir, 'data');
      const uncreatable = await failedStart({ DATA_DIR: below });
      expect(uncreatable.code).toBe(1);
      expect(uncreatable.output).toMatch(new RegExp(`^DATA_DIR ${below} cannot be created \\(`));
      expect(readdirSync(dir)).toEqual([]);
    }, 120_000);

    it('a full DATA_DIR (less free space than DATA_DIR_MIN_FREE_MB)', async () => {
      const dir = freshDataDir();
      chmodSync(dir, 0o777);
      const full = await failedStart({ DATA_DIR: dir, DATA_DIR_MIN_FREE_MB: '999999999' });
      expect(full.code).toBe(1);
      expect(full.output).toMatch(new RegExp(`^DATA_DIR ${dir} has only \\d+ MB free, below DATA_DIR_MIN_FREE_MB \\(999999999 MB\\)`));
      expect(full.output.split('\n')).toHaveLength(1);
      expect(readdirSync(dir)).toEqual([]);
    }, 60_000);

    it('a half-made database from an earlier failed first start', async () => {
      const dir = freshDataDir();
      chmodSync(dir, 0o777);
      mkdirSync(join(dir, 'pg'), { mode: 0o777 });
      writeFileSync(join(dir, 'pg', 'postgresql.conf'), '');
      const half = await failedStart({ DATA_DIR: dir });
      expect(half.code).toBe(1);
      expect(half.output).toBe(`DATA_DIR ${join(dir, 'pg')} is not a complete database (no PG_VERSION): move it away to start afresh.`);
      // What a killed first start of this version leaves (pg.partial-<pid>) is cleared and the start succeeds.
      rmSync(join(dir, 'pg'), { recursive: true });
      mkdirSync(join(dir, 'pg.partial-1'));
      const started = await startMain({ DATA_DIR: dir, SIMULATOR: 'off' });
      await stop(started.child);
      expect(readdirSync(dir).filter((f) => f.startsWith('pg'))).toEqual(['pg']);
    }, 150_000);
  });

  it('refuses an invalid setting by name', async () => {
    const failure = await startMain({ DATA_DIR: freshDataDir(), PORT: 'eighty' }).then(
      () => undefined,
      (error: { output: string; code: number }) => error,
    );
    expect(failure?.code).toBe(2);
    expect(failure?.output).toContain('Setting PORT is invalid');
  }, 30_000);
});
