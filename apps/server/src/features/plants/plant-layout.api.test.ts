import { Code } from '@sunward/contracts/codes';
import type {
  LayoutEditorData,
  LayoutGroup,
  LayoutLink,
  LayoutLive,
  LayoutPanel,
  LogicalLayout,
  LogicalNode,
  PhysicalLayout,
  PublicLayout,
} from '@sunward/contracts/plant-layout';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devices } from '../../db/schema.js';
import { apiClient, createPlant, signedInUser } from '../../test/api.js';
import { call } from '../../test/client.js';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { connectTestGateway, type TestGateway } from '../../test/test-gateway.js';

let server: TestServer;
let owner: string;
let plantId: number;
let gateway: TestGateway;
const { get, post } = apiClient(
  () => server.app,
  () => owner,
);

const OPTIMIZERS = ['LYOP000001', 'LYOP000002', 'LYOP000003'];
const group = (id: string, extra: Partial<LayoutGroup> = {}): LayoutGroup => ({
  id,
  name: `Roof ${id}`,
  inclinationDeg: 30,
  azimuthDeg: 180,
  panelRatedPowerW: 400,
  inverterSn: 'LYIN000001',
  stringNo: 1,
  ...extra,
});
const panel = (id: string, groupId: string, i: number, optimizerSn: string | null = null): LayoutPanel => ({
  id,
  groupId,
  x: 40 * i,
  y: 0,
  rotation: 0,
  optimizerSn,
});

beforeAll(async () => {
  server = await startTestServer();
  const companyId = await server.createCompany(`Layout ${Date.now()}`);
  owner = (await signedInUser(server, 'company_admin', companyId)).token;
  const plant = await createPlant(server, owner, { name: 'Layout Roof' }, companyId);
  plantId = plant.id;
  await server.database.db.insert(devices).values([
    { sn: 'LYIN000001', protocolId: 'sunspec-inverter-1p', family: 'inverter', plantId, gatewayId: plant.gateway.id, ratedPowerW: 5000 },
    ...OPTIMIZERS.map((sn) => ({
      sn,
      protocolId: 'sunspec-optimizer',
      family: 'optimizer',
      plantId,
      gatewayId: plant.gateway.id,
      ratedPowerW: 450,
    })),
  ]);
  await server.telemetry.pipeline.reloadDevices();
  gateway = await connectTestGateway(server.telemetry.mqttPort, plant.gateway.sn, plant.gateway.key);
  const now = Date.now();
  for (const minutesAgo of [20, 0])
    await gateway.report(now - minutesAgo * 60_000 - 1000, [
      { sn: 'LYIN000001', proto: 'sunspec-inverter-1p', values: { W: 1000, WH: 100_000, St: 4 } },
      { sn: 'LYOP000001', proto: 'sunspec-optimizer', values: { DCW: 360, OutW: 356, DCSt: 4, DCWH: 5000 } },
      // The shaded panel's optimizer.
      { sn: 'LYOP000002', proto: 'sunspec-optimizer', values: { DCW: 180, OutW: 178, DCSt: 4, DCWH: 3000 } },
      // A panel rated too low: its optimizer gives more than the panel's rating.
      { sn: 'LYOP000003', proto: 'sunspec-optimizer', values: { DCW: 420, OutW: 416, DCSt: 4, DCWH: 6000 } },
    ]);
  await server.telemetry.pipeline.drain();
});

afterAll(async () => {
  await gateway?.close();
  await server?.close();
});

function find(node: LogicalNode, key: string): LogicalNode | undefined {
  if (node.key === key) return node;
  for (const child of node.children) {
    const hit = find(child, key);
    if (hit) return hit;
  }
  return undefined;
}

describe('plant layout', () => {
  it('starts empty at version 0 with the plant’s optimizers and inverter to bind', async () => {
    const editor = await get<LayoutEditorData>(`/api/v1/plant/${plantId}/physical/layout`);
    expect(editor.code).toBe(0);
    expect(editor.data.layout).toMatchObject({ version: 0, groups: [], panels: [] });
    expect(editor.data.canEdit).toBe(true);
    expect(editor.data.devices.map((d) => d.sn).sort()).toEqual(['LYIN000001', ...OPTIMIZERS]);
  });

  it('saves with a version; a save over a newer version is refused with 4300 and changes nothing', async () => {
    const first = await post<PhysicalLayout>(`/api/v1/plant/${plantId}/layout/physical`, {
      version: 0,
      groups: [group('g1'), group('g2', { panelRatedPowerW: 350, stringNo: 2 })],
      panels: [
        panel('p1', 'g1', 0, 'LYOP000001'),
        panel('p2', 'g1', 1, 'LYOP000002'),
        panel('p3', 'g2', 2, 'LYOP000003'),
        panel('p4', 'g2', 3),
      ],
    });
    expect(first.code).toBe(0);
    expect(first.data.version).toBe(1);
    // A second editor that loaded version 0 saves later.
    const stale = await post(`/api/v1/plant/${plantId}/layout/physical`, { version: 0, groups: [], panels: [] });
    expect(stale.code).toBe(Code.LAYOUT_VERSION_STALE);
    expect(stale.message).toMatch(/saved this layout/);
    const again = await get<PhysicalLayout>(`/api/v1/plant/${plantId}/layout/physical`);
    expect(again.data.version).toBe(1);
    expect(again.data.panels).toHaveLength(4);
  });

  it('refuses the 100th panel (4301), references outside the plant (4304), and a group holding bound reporting panels (4302)', async () => {
    const many = Array.from({ length: 100 }, (_, i) => panel(`m${i}`, 'g1', i % 40));
    const tooMany = await post(`/api/v1/plant/${plantId}/layout/physical`, { version: 1, groups: [group('g1')], panels: many });
    expect(tooMany.code).toBe(Code.LAYOUT_TOO_MANY_PANELS);
    const ninetyNine = await post<PhysicalLayout>(`/api/v1/plant/${plantId}/layout/physical`, {
      version: 1,
      groups: [group('g1'), group('g2', { panelRatedPowerW: 350, stringNo: 2 })],
      panels: [
        panel('p1', 'g1', 0, 'LYOP000001'),
        panel('p2', 'g1', 1, 'LYOP000002'),
        panel('p3', 'g2', 2, 'LYOP000003'),
        ...many.slice(0, 96).map((p) => ({ ...p, groupId: 'g2' })),
      ],
    });
    expect(ninetyNine.code).toBe(0);
    expect(ninetyNine.data.panels).toHaveLength(99);

    const foreign = await post(`/api/v1/plant/${plantId}/layout/physical`, {
      version: 2,
      groups: [group('g1')],
      panels: [panel('p1', 'g1', 0, 'NOTMINE001')],
    });
    expect(foreign.code).toBe(Code.LAYOUT_REFERENCE_INVALID);
    const twice = await post(`/api/v1/plant/${plantId}/layout/physical`, {
      version: 2,
      groups: [group('g1')],
      panels: [panel('p1', 'g1', 0, 'LYOP000001'), panel('p2', 'g1', 1, 'LYOP000001')],
    });
    expect(twice.code).toBe(Code.LAYOUT_REFERENCE_INVALID);

    // g1 holds panels bound to reporting optimizers: deleting it is refused.
    const locked = await post(`/api/v1/plant/${plantId}/layout/physical`, {
      version: 2,
      groups: [group('g2', { panelRatedPowerW: 350, stringNo: 2 })],
      panels: [panel('p3', 'g2', 2, 'LYOP000003')],
    });
    expect(locked.code).toBe(Code.LAYOUT_GROUP_LOCKED);
    expect((await get<PhysicalLayout>(`/api/v1/plant/${plantId}/layout/physical`)).data.version).toBe(2);

    // Unbinding first, then deleting the group, is allowed.
    const unbound = await post<PhysicalLayout>(`/api/v1/plant/${plantId}/layout/physical`, {
      version: 2,
      groups: [group('g1'), group('g2', { panelRatedPowerW: 350, stringNo: 2 })],
      panels: [panel('p1', 'g1', 0), panel('p2', 'g1', 1), panel('p3', 'g2', 2, 'LYOP000003')],
    });
    expect(unbound.code).toBe(0);
    const deleted = await post<PhysicalLayout>(`/api/v1/plant/${plantId}/layout/physical`, {
      version: 3,
      groups: [group('g2', { panelRatedPowerW: 350, stringNo: 2 })],
      panels: [panel('p3', 'g2', 2, 'LYOP000003')],
    });
    expect(deleted.code).toBe(0);
    // Back to the roof of the logical test.
    const restored = await post<PhysicalLayout>(`/api/v1/plant/${plantId}/layout/physical`, {
      version: 4,
      groups: [group('g1'), group('g2', { panelRatedPowerW: 350, stringNo: 2 })],
      panels: [
        panel('p1', 'g1', 0, 'LYOP000001'),
        panel('p2', 'g1', 1, 'LYOP000002'),
        panel('p3', 'g2', 2, 'LYOP000003'),
        panel('p4', 'g2', 3),
      ],
    });
    expect(restored.data.version).toBe(5);
  });

  it('builds the logical tree with power, efficiency against rated power and the period’s energy', async () => {
    const power = await get<LogicalLayout>(`/api/v1/plant/${plantId}/logical/layout/power`);
    expect(power.code).toBe(0);
    const root = power.data.root;
    expect(root.kind).toBe('root');
    const inverter = find(root, 'inverter:LYIN000001');
    expect(inverter?.value).toBe(1000);
    expect(inverter?.efficiencyPct).toBe(20);
    // Its strings and the inputs the layout leaves out add up to what it measured (the tree reconciles).
    const parts = (inverter?.children ?? []).reduce((total, child) => total + (child.value ?? 0), 0);
    expect(parts).toBeCloseTo(1000, 0);
    expect(inverter?.children.some((c) => c.kind === 'other')).toBe(true);
    const string1 = find(root, 'string:g1');
    expect(string1?.kind).toBe('tandem');
    expect(string1?.value).toBe(356 + 178);
    const shaded = find(root, 'optimizer:LYOP000002');
    expect(shaded?.efficiencyPct).toBeCloseTo(44.5, 1);
    expect(shaded?.children[0]?.kind).toBe('panel');
    // 416 W on a panel rated 350 W: above 100 %, a wrong installed capacity.
    expect(find(root, 'optimizer:LYOP000003')?.efficiencyPct).toBeGreaterThan(100);
    expect(find(root, 'panel:p4')?.value).toBeNull();

    const day = await get<LogicalLayout>(`/api/v1/plant/${plantId}/logical/layout/day`);
    expect(day.data.root.unit).toBe('kWh');
    expect(day.data.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const total = await get<LogicalLayout>(`/api/v1/plant/${plantId}/logical/layout/total`);
    expect(find(total.data.root, 'optimizer:LYOP000001')?.value).toBe(5);
  });

  it('answers each optimizer’s power now and over the day', async () => {
    const live = await get<LayoutLive>(`/api/v1/plant/${plantId}/physical/layout/live`);
    expect(live.code).toBe(0);
    expect(live.data.power.LYOP000002).toBe(178);
    expect(live.data.times.length).toBeGreaterThan(0);
    const series = live.data.series.LYOP000001 ?? [];
    expect(series.some((w) => w === 356)).toBe(true);
  });

  it('keeps other tenants and guests out, and lets only a manager save', async () => {
    const otherCompany = await server.createCompany(`Other ${Date.now()}`);
    const stranger = (await signedInUser(server, 'company_admin', otherCompany)).token;
    for (const path of ['physical/layout', 'layout/physical', 'logical/layout/power', 'physical/layout/live', 'layout/link']) {
      const answer = await get(`/api/v1/plant/${plantId}/${path}`, stranger);
      expect([Code.PLANT_NOT_FOUND, Code.NO_PERMISSION], path).toContain(answer.code);
    }
    const save = await post(`/api/v1/plant/${plantId}/layout/physical`, { version: 5, groups: [], panels: [] }, stranger);
    expect([Code.PLANT_NOT_FOUND, Code.NO_PERMISSION]).toContain(save.code);
    const link = await post(`/api/v1/plant/${plantId}/layout/link`, {}, stranger);
    expect([Code.PLANT_NOT_FOUND, Code.NO_PERMISSION]).toContain(link.code);
    expect((await get<PhysicalLayout>(`/api/v1/plant/${plantId}/layout/physical`)).data.version).toBe(5);
  });

  it('opens the layout read-only through a public link until it is revoked', async () => {
    expect((await get<LayoutLink>(`/api/v1/plant/${plantId}/layout/link`)).data.active).toBe(false);
    const created = await post<LayoutLink>(`/api/v1/plant/${plantId}/layout/link`);
    const token = created.data.token ?? '';
    expect(token.length).toBeGreaterThan(20);
    const view = (await call<PublicLayout>(server.app, 'GET', `/api/v1/public/layout/${token}`)).body;
    expect(view.code).toBe(0);
    expect(view.data.plantName).toBe('Layout Roof');
    expect(view.data.layout.panels).toHaveLength(4);
    expect(view.data.live.power.LYOP000002).toBe(178);
    // No write goes through the token.
    const status = await get<LayoutLink>(`/api/v1/plant/${plantId}/layout/link`);
    expect(status.data).toMatchObject({ active: true });
    expect(status.data.token).toBeUndefined();
    await post(`/api/v1/plant/${plantId}/layout/link/revoke`);
    const revoked = (await call(server.app, 'GET', `/api/v1/public/layout/${token}`)).body;
    expect(revoked.code).toBe(Code.LAYOUT_LINK_INVALID);
    const guessed = (await call(server.app, 'GET', `/api/v1/public/layout/${'x'.repeat(32)}`)).body;
    expect(guessed.code).toBe(Code.LAYOUT_LINK_INVALID);
  });
});
