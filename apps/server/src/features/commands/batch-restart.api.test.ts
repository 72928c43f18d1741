import type { ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import type { SimulatedFleet } from '@sunward/contracts/simulated-fleet';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { devices } from '../../db/schema.js';
import { apiClient } from '../../test/api.js';
import { multipartBody } from '../../test/client.js';
import { freePort, spawnSimulator, startFleetServer } from '../../test/fleet.js';
import { ADMIN, type TestServer } from '../../test/harness.js';

// A batch task survives its server: a restart in the middle of an upgrade wave loses no item, a task in
// progress resumes and a delayed one still fires. The gateways reconnect to the same broker port.
let server: TestServer;
let fleet: SimulatedFleet;
let simulator: ChildProcess;

let token = '';
// The session is in the database: the token signed in before the restart still works after it.
const { get, post } = apiClient(
  () => server.app,
  () => token,
);

type Task = { task: { status: string }; items: { sn: string; status: string; message: string | null }[] };

const inverters = () =>
  fleet.gateways
    .filter((g) => !g.spare)
    .slice(0, 3)
    .flatMap((g) => g.devices.filter((d) => d.family === 'inverter' || d.family === 'hybrid_inverter').map((d) => d.sn));

beforeAll(async () => {
  const mqttPort = await freePort();
  // The HTTP port stays too: image links handed out before the restart still lead to the server.
  ({
    server,
    fleet,
    adminToken: token,
  } = await startFleetServer(11, {
    // Generous: a loaded CI machine once took over 5 s for a device's reply just after the restart.
    COMMAND_TIMEOUT_S: '30',
    MQTT_PORT: String(mqttPort),
    PORT: String(await freePort()),
  }));
  // Slow upgrades (10 steps of a second) so the restart falls in the middle of one.
  simulator = spawnSimulator(fleet, fleet.gateways.filter((g) => !g.spare).slice(0, 3), { upgradeStepMs: 1000 });
  await vi.waitFor(
    async () => {
      const rows = await server.database.db.select({ sn: devices.sn, status: devices.status }).from(devices);
      const online = new Set(rows.filter((d) => d.status === 1).map((d) => d.sn));
      if (!inverters().every((sn) => online.has(sn)))
        throw new Error(`not all inverters report yet: ${JSON.stringify(rows.filter((r) => inverters().includes(r.sn)))}`);
    },
    { timeout: 45_000, interval: 300 },
  );
}, 120_000);

// Closing drains the restarted server's jobs and broker: on a busy machine that took over a minute once.
afterAll(async () => {
  simulator?.kill('SIGTERM');
  await server?.close();
}, 240_000);

describe('batch tasks across a server restart', { timeout: 240_000 }, () => {
  it('resumes a task in progress and still fires a delayed one; every item ends successful', async () => {
    const bytes = randomBytes(4096);
    bytes[0] = 0;
    const fields = {
      name: 'Restart-proof',
      manufacturer: 'Sunward',
      product: 'SW-INV',
      swVersion: '6.0.1',
      type: 'inverter',
      mode: 'remote',
      fileName: 'restart.bin',
      md5: createHash('md5').update(bytes).digest('hex'),
    };
    const { payload, contentType } = multipartBody(fields, { name: fields.fileName, bytes });
    const upload = await server.app.inject({
      method: 'POST',
      url: '/api/v1/firmware',
      headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
      payload,
    });
    const firmId = (upload.json() as { data: { id: number } }).data.id;
    await post(`/api/v1/firmware/${firmId}/enable`, { enabled: true });

    const sns = inverters();
    expect(sns.length).toBeGreaterThanOrEqual(3);
    const [first, ...rest] = sns;
    const running = await post<{ id: number }>('/api/v1/tasks', { name: 'Now', firmId, sns: rest, password: ADMIN.password });
    const delayed = await post<{ id: number }>('/api/v1/tasks', {
      name: 'In a few seconds',
      firmId,
      sns: [first],
      runAt: new Date(Date.now() + 6_000).toISOString(),
      password: ADMIN.password,
    });
    expect(running.code).toBe(0);
    expect(delayed.code).toBe(0);

    // Restart while items are upgrading: a device has fetched and checked its image and is part-way through.
    await vi.waitFor(
      async () => {
        const progress = await Promise.all(
          rest.map(async (sn) => (await get<{ progress: number } | null>(`/api/v1/inverter/${sn}/upgrade/progress`)).data?.progress ?? 0),
        );
        if (!progress.some((p) => p > 0 && p < 100)) throw new Error(`no upgrade part-way yet: ${progress.join(',')}`);
      },
      // A loaded CI machine took over 40 s to start the first wave's upgrades once.
      { timeout: 90_000, interval: 200 },
    );
    server = await server.restart();

    for (const id of [running.data.id, delayed.data.id])
      await vi.waitFor(
        async () => {
          const t = (await get<Task>(`/api/v1/tasks/${id}`)).data;
          if (t.task.status !== 'done') throw new Error(`task ${id} ${t.task.status}: ${JSON.stringify(t.items)}`);
        },
        { timeout: 60_000, interval: 300 },
      );
    const items = [
      ...(await get<Task>(`/api/v1/tasks/${running.data.id}`)).data.items,
      ...(await get<Task>(`/api/v1/tasks/${delayed.data.id}`)).data.items,
    ];
    expect(items.filter((i) => i.status !== 'successful')).toEqual([]);
    expect(items.map((i) => i.sn).sort()).toEqual([...sns].sort());
  });
});
