import { createHash, randomBytes } from 'node:crypto';
import { Code } from '@sunward/contracts/codes';
import { DeviceStatus } from '@sunward/contracts/device-status';
import { addDays, localDayOf, localDayStart } from '@sunward/contracts/plant-energy';
import {
  LAYOUT_PANELS_MAX,
  type LayoutEditorData,
  type LayoutLink,
  type LayoutLive,
  type LogicalLayout,
  type LogicalPeriod,
  lockedGroupsRemoved,
  type PhysicalLayout,
  type PublicLayout,
  type SaveLayoutBody,
} from '@sunward/contracts/plant-layout';
import { protocolById } from '@sunward/protocol/maps/index';
import { ApiError } from '../../lib/envelope.js';
import type { AuthContext } from '../../plugins/auth.js';
import type { PlantAccess } from './plant-access.js';
import { invalidReferences, logicalTree, PV_FAMILIES, type TreeDevice } from './plant-layout.js';
import type { LayoutDeviceRow, PlantLayoutRepository } from './plant-layout.repository.js';

const STEP_MS = 15 * 60_000;
/** PV inputs of an inverter: its register map's string points (DCW1, DCW2, …). */
const inputsOf = (protocolId: string) => Math.max(1, protocolById(protocolId)?.points.filter((p) => /^DCW\d+$/.test(p.id)).length ?? 0);
const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** The plant layout: the physical editor's document, the logical tree, live colouring, the public link. */
export function createPlantLayoutService(deps: { repository: PlantLayoutRepository; access: PlantAccess; now?: () => number }) {
  const { repository, access } = deps;
  const now = deps.now ?? Date.now;

  async function plantOf(plantId: number) {
    const plant = await repository.plant(plantId);
    if (!plant) throw new ApiError(Code.PLANT_NOT_FOUND);
    return plant;
  }

  /** Period bounds in the plant's days: today, this month or this year (up to today), or a given one. */
  function periodDays(period: LogicalPeriod, timezone: string, date?: string): { from: string; to: string; label: string } | undefined {
    const today = localDayOf(now(), timezone);
    if (period === 'day') {
      const day = date && /^\d{4}-\d{2}-\d{2}$/.test(date) ? date : today;
      return { from: day, to: day, label: day };
    }
    if (period === 'month') {
      const month = date && /^\d{4}-\d{2}/.test(date) ? date.slice(0, 7) : today.slice(0, 7);
      return { from: `${month}-01`, to: `${month}-31`, label: month };
    }
    if (period === 'year') {
      const year = date && /^\d{4}/.test(date) ? date.slice(0, 4) : today.slice(0, 4);
      return { from: `${year}-01-01`, to: `${year}-12-31`, label: year };
    }
    return undefined;
  }

  async function logicalOf(
    plant: { id: number; name: string; timezone: string },
    period: LogicalPeriod,
    date?: string,
  ): Promise<LogicalLayout> {
    const [layout, devices] = await Promise.all([repository.physical(plant.id), repository.devices(plant.id)]);
    const days = periodDays(period, plant.timezone, date);
    const energy = days
      ? await repository.energyBetween(
          devices.map((d) => d.id),
          days.from,
          days.to,
        )
      : undefined;
    const periodValue = (d: LayoutDeviceRow): number | null => {
      if (period === 'power') return d.powerW;
      if (period === 'total') return d.lifetimeWh === null ? null : d.lifetimeWh / 1000;
      const wh = energy?.get(d.id);
      return wh === undefined ? (d.reported ? 0 : null) : wh / 1000;
    };
    const treeDevices: TreeDevice[] = devices.map((d) => ({
      sn: d.sn,
      family: d.family,
      name: d.name,
      ratedPowerW: d.ratedPowerW,
      value: periodValue(d),
      powerW: d.powerW,
      active: d.reported && d.status !== DeviceStatus.OFFLINE,
    }));
    const root = logicalTree({
      plantName: plant.name,
      period,
      devices: treeDevices,
      groups: layout.groups,
      panels: layout.panels,
      texts: {
        root: plant.name,
        unassigned: '',
        string: (no, group) => (no === null ? group : `#${no} ${group}`),
        panel: (group, index) => `${group}-${index}`,
      },
    });
    return { period, date: days?.label ?? null, root };
  }

  async function liveOf(plant: { id: number; timezone: string }, date?: string): Promise<LayoutLive> {
    const devices = (await repository.devices(plant.id)).filter((d) => d.family === 'optimizer');
    const today = localDayOf(now(), plant.timezone);
    const day = date && /^\d{4}-\d{2}-\d{2}$/.test(date) && date <= today ? date : today;
    const from = localDayStart(day, plant.timezone);
    const to = Math.min(localDayStart(addDays(day, 1), plant.timezone), now() + 1);
    const steps = await repository.powerSteps(devices, new Date(from), new Date(to), STEP_MS);
    const times: number[] = [];
    for (let t = from; t < to; t += STEP_MS) times.push(t);
    const snOf = new Map(devices.map((d) => [d.id, d.sn]));
    const series: Record<string, (number | null)[]> = {};
    for (const d of devices) series[d.sn] = times.map(() => null);
    for (const s of steps) {
      const sn = snOf.get(s.id);
      const index = Math.round((s.t - from) / STEP_MS);
      const row = sn ? series[sn] : undefined;
      if (row && index >= 0 && index < row.length) row[index] = s.w === null ? null : Math.round(s.w);
    }
    const latest = devices.map((d) => d.ts).filter((t): t is string => t !== null);
    return {
      date: day,
      timezone: plant.timezone,
      ts: latest.length > 0 ? (latest.sort().at(-1) ?? null) : null,
      power: Object.fromEntries(devices.map((d) => [d.sn, d.powerW === null ? null : Math.round(d.powerW)])),
      times,
      series,
    };
  }

  return {
    async editor(auth: AuthContext, plantId: number): Promise<LayoutEditorData> {
      const level = await access.require(auth, plantId, 'view');
      const [layout, devices] = await Promise.all([repository.physical(plantId), repository.devices(plantId)]);
      return {
        layout,
        devices: devices
          .filter((d) => d.family === 'optimizer' || PV_FAMILIES.includes(d.family))
          .map((d) => ({
            sn: d.sn,
            family: d.family,
            name: d.name,
            ratedPowerW: d.ratedPowerW,
            powerW: d.powerW,
            strings: PV_FAMILIES.includes(d.family) ? inputsOf(d.protocolId) : 1,
          })),
        canEdit: level === 'manage' && auth.permissions.has('station.edit') && !auth.readOnly,
      };
    },

    async physical(auth: AuthContext, plantId: number): Promise<PhysicalLayout> {
      await access.require(auth, plantId, 'view');
      return repository.physical(plantId);
    },

    /** Spec 02 §5 rules, then the optimistic version: refused saves change nothing. */
    async save(auth: AuthContext, plantId: number, body: SaveLayoutBody): Promise<PhysicalLayout> {
      await access.require(auth, plantId, 'manage');
      if (body.panels.length > LAYOUT_PANELS_MAX) throw new ApiError(Code.LAYOUT_TOO_MANY_PANELS, { max: LAYOUT_PANELS_MAX });
      const [current, devices] = await Promise.all([repository.physical(plantId), repository.devices(plantId)]);
      if (current.version !== body.version) throw new ApiError(Code.LAYOUT_VERSION_STALE, {}, { version: current.version });
      const problems = invalidReferences(body.groups, body.panels, devices);
      if (problems.length > 0) throw new ApiError(Code.LAYOUT_REFERENCE_INVALID, {}, { problems });
      const reported = new Set(devices.filter((d) => d.reported).map((d) => d.sn));
      const locked = lockedGroupsRemoved(current, body, reported);
      if (locked.length > 0) throw new ApiError(Code.LAYOUT_GROUP_LOCKED, {}, { groups: locked });
      const saved = await repository.savePhysical(plantId, body.version, { groups: body.groups, panels: body.panels });
      if (!saved) throw new ApiError(Code.LAYOUT_VERSION_STALE, {}, { version: (await repository.physical(plantId)).version });
      return repository.physical(plantId);
    },

    async logical(auth: AuthContext, plantId: number, period: LogicalPeriod, date?: string): Promise<LogicalLayout> {
      await access.require(auth, plantId, 'view');
      return logicalOf(await plantOf(plantId), period, date);
    },

    async live(auth: AuthContext, plantId: number, date?: string): Promise<LayoutLive> {
      await access.require(auth, plantId, 'view');
      return liveOf(await plantOf(plantId), date);
    },

    async link(auth: AuthContext, plantId: number): Promise<LayoutLink> {
      await access.require(auth, plantId, 'manage');
      const link = await repository.link(plantId);
      return { active: link !== undefined, createdAt: link?.createdAt ?? null };
    },

    /** A new link replaces the old one (which stops working); the token is answered this once. */
    async createLink(auth: AuthContext, plantId: number): Promise<LayoutLink> {
      await access.require(auth, plantId, 'manage');
      const token = randomBytes(24).toString('base64url');
      const createdAt = new Date(now()).toISOString();
      await repository.saveLink(plantId, hashToken(token), createdAt);
      return { active: true, createdAt, token };
    },

    async revokeLink(auth: AuthContext, plantId: number): Promise<LayoutLink> {
      await access.require(auth, plantId, 'manage');
      await repository.deleteLink(plantId);
      return { active: false, createdAt: null };
    },

    /** /plantLayout: read-only, by the link's token alone. */
    async publicView(token: string, period: LogicalPeriod, date?: string): Promise<PublicLayout> {
      const plantId = /^[\w-]{20,64}$/.test(token) ? await repository.plantOfToken(hashToken(token)) : undefined;
      if (plantId === undefined) throw new ApiError(Code.LAYOUT_LINK_INVALID);
      const plant = await plantOf(plantId);
      const [layout, live, logical] = await Promise.all([
        repository.physical(plantId),
        liveOf(plant, date),
        logicalOf(plant, period, date),
      ]);
      return { plantName: plant.name, timezone: plant.timezone, layout, live, logical };
    },
  };
}

export type PlantLayoutService = ReturnType<typeof createPlantLayoutService>;
