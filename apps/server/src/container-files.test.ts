import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

// No image can be pulled on the test machines, so the container files are checked as text: the compose file
// parses and its references hold, and the Dockerfile builds with the npm commands CI and `npm start` use.
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

interface ComposeService {
  build?: unknown;
  image?: string;
  environment?: Record<string, string>;
  volumes?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
}
interface ComposeFile {
  services: Record<string, ComposeService>;
  volumes: Record<string, unknown>;
}

/** Dockerfile instructions with their continuation lines joined; comments dropped. */
function instructions(text: string): { op: string; args: string }[] {
  return text
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const [op = '', ...rest] = line.split(/\s+/);
      return { op: op.toUpperCase(), args: rest.join(' ') };
    });
}

describe('compose.yaml', () => {
  const compose = parse(read('compose.yaml')) as ComposeFile;

  it('runs the server on PostgreSQL and Mosquitto of the same file, with the tested broker configuration', () => {
    const { server, postgres, mosquitto } = compose.services;
    if (!server || !postgres || !mosquitto) throw new Error('server, postgres and mosquitto services expected');
    expect(server.build).toBe('.');
    const env = server.environment ?? {};
    const database = new URL((env.DATABASE_URL ?? '').replace(/\$\{[^}]+\}/g, 'secret'));
    expect(database.hostname).toBe('postgres');
    expect(database.username).toBe(postgres.environment?.POSTGRES_USER);
    expect(database.pathname).toBe(`/${postgres.environment?.POSTGRES_DB}`);
    const broker = new URL((env.MQTT_URL ?? '').replace(/\$\{[^}]+\}/g, 'secret'));
    expect(broker.hostname).toBe('mosquitto');
    // The server logs in as the user the ACL gives the server's rights to.
    expect(read('docs/mosquitto.acl')).toMatch(new RegExp(`^user ${broker.username}$`, 'm'));
    expect(env.SIMULATOR).toBe('off');
    expect(server.depends_on?.postgres?.condition).toBe('service_healthy');
    expect(Object.keys(server.depends_on ?? {})).toContain('mosquitto');
  });

  it('mounts files that exist at the paths the broker configuration names, and declares every named volume', () => {
    const conf = read('docs/mosquitto.conf');
    const mounts = Object.values(compose.services).flatMap((service) => service.volumes ?? []);
    const targets = new Map(mounts.map((mount) => [mount.split(':')[1] ?? '', mount.split(':')[0] ?? '']));
    for (const mount of mounts) {
      const [source = ''] = mount.split(':');
      if (source.startsWith('.')) expect(existsSync(join(ROOT, source)), source).toBe(true);
      else expect(Object.keys(compose.volumes), source).toContain(source);
    }
    const named = (setting: string) => conf.match(new RegExp(`^${setting} (\\S+)$`, 'm'))?.[1] ?? '';
    expect(targets.get(named('acl_file'))).toBe('./docs/mosquitto.acl');
    expect(targets.get('/mosquitto/config/mosquitto.conf')).toBe('./docs/mosquitto.conf');
    const under = (path: string) => [...targets.keys()].some((target) => target !== '' && path.startsWith(target));
    expect(under(named('password_file'))).toBe(true);
    expect(under(named('persistence_location'))).toBe(true);
  });

  it('passes `docker compose config` where Docker Compose is installed', () => {
    const probe = spawnSync('docker', ['compose', 'version'], { encoding: 'utf8' });
    if (probe.status !== 0) return; // Not installed here: the checks above stand in for it.
    const result = spawnSync('docker', ['compose', '-f', join(ROOT, 'compose.yaml'), 'config', '--quiet'], {
      encoding: 'utf8',
      env: { ...process.env, POSTGRES_PASSWORD: 'x', MQTT_SERVER_PASSWORD: 'y' },
    });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });
});

describe('Dockerfile', () => {
  const steps = instructions(read('Dockerfile'));
  const runs = steps.filter((s) => s.op === 'RUN').map((s) => s.args);
  const ci = read('.ci/run');
  const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;

  it('builds with the npm commands CI and npm start use', () => {
    const ciInstall = ci.match(/^npm ci .*$/m)?.[0];
    expect(ciInstall).toBeDefined();
    expect(runs).toContain(ciInstall);
    expect(runs).toContain('npm run build');
    // npm start builds with the same script (scripts/start.mjs → scripts/build.mjs).
    expect(scripts.build).toBe('node scripts/build.mjs');
    for (const run of runs)
      for (const [, name] of run.matchAll(/npm run (\S+)/g)) expect(Object.keys(scripts), `npm run ${name}`).toContain(name);
  });

  it('is multi-stage and runs the compiled server as a non-root user with a readiness health check', () => {
    const froms = steps.filter((s) => s.op === 'FROM');
    expect(froms.length).toBeGreaterThanOrEqual(2);
    const finalStage = steps.slice(steps.lastIndexOf(froms[froms.length - 1] as { op: string; args: string }));
    const user = finalStage.filter((s) => s.op === 'USER').pop()?.args;
    expect(user).toBeDefined();
    expect(user).not.toMatch(/^(root|0)(:|$)/);
    expect(finalStage.find((s) => s.op === 'HEALTHCHECK')?.args).toContain('/api/health/ready');
    const cmd = finalStage.find((s) => s.op === 'CMD')?.args ?? '';
    expect(cmd).toContain('apps/server/dist/main.js');
    expect(cmd).not.toContain('tsx');
    // What the runtime stage copies is what npm run build makes.
    for (const copy of finalStage.filter((s) => s.op === 'COPY' && s.args.startsWith('--from=build')))
      expect(copy.args).toMatch(/apps\/(server|simulator|web)\/dist/);
  });

  it('gives the server the memory settings npm start gives it', async () => {
    // scripts/lib.mjs serverEnv: glibc's mmap threshold (docs/decisions.md "Memory under overload").
    const { serverEnv } = (await import(join(ROOT, 'scripts/lib.mjs'))) as { serverEnv: (env: object) => Record<string, string> };
    const fromStart = serverEnv({});
    const finalStage = steps.slice(steps.map((s) => s.op).lastIndexOf('FROM'));
    const env = finalStage
      .filter((s) => s.op === 'ENV')
      .map((s) => s.args)
      .join(' ');
    expect(fromStart.MALLOC_MMAP_THRESHOLD_).toBe('65536');
    expect(env).toContain(`MALLOC_MMAP_THRESHOLD_=${fromStart.MALLOC_MMAP_THRESHOLD_}`);
    // A value the operator set is kept.
    expect(serverEnv({ MALLOC_MMAP_THRESHOLD_: '131072' }).MALLOC_MMAP_THRESHOLD_).toBe('131072');
  });

  it('keeps dependencies and builds out of the build context', () => {
    const ignored = read('.dockerignore').split('\n');
    for (const entry of ['.git', '**/node_modules', '**/dist', 'data']) expect(ignored).toContain(entry);
  });
});
