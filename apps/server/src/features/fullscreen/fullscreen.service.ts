import { Code } from '@sunward/contracts/codes';
import type { EventFilter, EventPage } from '@sunward/contracts/events';
import {
  DISPLAY_LIMITS,
  type DisplayCompany,
  type DisplayData,
  type DisplayDataQuery,
  type DisplayLinkCreate,
  type DisplayLinkCreated,
  type DisplayLinkRow,
  type DisplayPlant,
} from '@sunward/contracts/fullscreen';
import type { Language } from '@sunward/contracts/languages';
import type { PermissionKey } from '@sunward/contracts/permissions';
import { localDayOf } from '@sunward/contracts/plant-energy';
import {
  type BenefitFactors,
  type EnergyFlow,
  environmentalBenefits,
  type PlantRow,
  type PlantStatusCount,
} from '@sunward/contracts/plants';
import { ApiError } from '../../lib/envelope.js';
import type { AuthContext } from '../../plugins/auth.js';
import { hashToken, newToken } from '../auth/tokens.js';
import type { PlantAccess } from '../plants/plant-access.js';
import type { PlantsRepository } from '../plants/plants.repository.js';
import type { DisplayLinkRecord, FullscreenRepository } from './fullscreen.repository.js';

const DAY_MS = 86_400_000;
const PLATFORM_ADMIN = 'platform_admin';
/** A display refreshes often and several windows show one scope: its figures are shared for this long. */
const CACHE_MS = 10_000;
/** Last use is written at most this often per link (each display window refreshes every few seconds). */
const TOUCH_MS = 60_000;
/** Event pages asked at once for the alarms of a link's chosen plants. */
const CONCURRENCY = 4;
/** Every plant the viewer sees is on the display (the list's own query, one page). */
const ALL_PLANTS = 1_000_000;
/** Companies a platform administrator's picker offers at once (a keyword narrows them). */
const COMPANY_OPTIONS = 50;
/** Active alarms are shown whenever they opened. */
const ALARMS_SINCE = '2000-01-01';

/**
 * Who is looking: a signed-in user (everything they see), or a display link acting for its creator with
 * the creator's access of now, narrowed to the link's plants. `plantIds` null means everything `auth` sees.
 */
export interface Viewer {
  key: string;
  auth: AuthContext;
  plantIds: ReadonlySet<number> | null;
  title: string | null;
}

export interface FullscreenDeps {
  repository: FullscreenRepository;
  plants: Pick<PlantsRepository, 'list' | 'mapMarkers'>;
  access: Pick<PlantAccess, 'levels'>;
  /** The plant overview's energy flow (plant-energy service) of the plant the display shows. */
  energy: { flow(plantId: number): Promise<EnergyFlow> };
  /** The event list's service: active alarms in the viewer's language. */
  events: { list(auth: AuthContext, q: EventFilter & { page: number; size: number }, language: Language): Promise<EventPage> };
  /** The creator's permissions now (role grants, company keys only inside a company), as sign-in computes them. */
  permissionsOf(roleId: number, inCompany: boolean): Promise<ReadonlySet<PermissionKey>>;
  benefitFactors: BenefitFactors;
  now?: () => number;
}

async function mapLimited<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

const sum = (values: readonly (number | null)[]) => values.reduce<number>((a, v) => a + (v ?? 0), 0);

/** Status counts of spec 01 §4 from the plant list's statuses. */
export function statusCountsOf(rows: readonly { status: number }[]): PlantStatusCount {
  const of = (status: number) => rows.filter((r) => r.status === status).length;
  return { total: rows.length, normal: of(1), offline: of(2), warning: of(3), fault: of(4), upgrading: of(5), protect: of(6) };
}

/** Best and worst plants by today's specific yield; a plant is in at most one of the two lists. */
export function rankBySpecificYield<T extends { id: number; specificYield: number | null }>(plants: readonly T[], size: number) {
  const ranked = plants
    .filter((p) => p.specificYield !== null)
    .sort((a, b) => (b.specificYield ?? 0) - (a.specificYield ?? 0) || a.id - b.id);
  const top = ranked.slice(0, size);
  const bottom = ranked.slice(top.length).reverse().slice(0, size);
  return { top, bottom };
}

export function linkState(link: Pick<DisplayLinkRecord, 'revokedAt' | 'expiresAt'>, now: number): DisplayLinkRow['state'] {
  if (link.revokedAt) return 'revoked';
  return link.expiresAt.getTime() <= now ? 'expired' : 'active';
}

export function createFullscreenService(deps: FullscreenDeps) {
  const { repository, plants, access, energy, events, permissionsOf, benefitFactors } = deps;
  const now = deps.now ?? Date.now;
  const cache = new Map<string, { at: number; data: Promise<DisplayData> }>();
  const touched = new Map<number, number>();

  async function present(links: readonly DisplayLinkRecord[]): Promise<DisplayLinkRow[]> {
    const [names, companyNames] = await Promise.all([
      repository.plantNames([...new Set(links.flatMap((l) => l.plantIds))]),
      repository.companyNames([...new Set(links.flatMap((l) => (l.companyId === null ? [] : [l.companyId])))]),
    ]);
    const t = now();
    return links.map((l) => ({
      id: l.id,
      name: l.name,
      scope: l.scope,
      companyId: l.companyId,
      companyName: l.companyId === null ? null : (companyNames.get(l.companyId) ?? null),
      plantIds: l.plantIds,
      plantNames: l.plantIds.flatMap((id) => names.get(id) ?? []),
      createdBy: l.createdByAccount,
      createdAt: l.createdAt.toISOString(),
      expiresAt: l.expiresAt.toISOString(),
      revokedAt: l.revokedAt?.toISOString() ?? null,
      lastUsedAt: l.lastUsedAt?.toISOString() ?? null,
      state: linkState(l, t),
    }));
  }

  /** Active alarms of the viewer's plants, newest first: one query, or one per chosen plant. */
  async function alarms(viewer: Viewer, language: Language): Promise<DisplayData['alarms']> {
    const size = DISPLAY_LIMITS.alarmRows;
    const base = { status: 'active' as const, from: ALARMS_SINCE, page: 1, size };
    if (viewer.plantIds === null) return events.list(viewer.auth, base, language);
    const pages = await mapLimited([...viewer.plantIds], CONCURRENCY, (plantId) =>
      events.list(viewer.auth, { ...base, plantId }, language),
    );
    const infos = pages
      .flatMap((p) => p.infos)
      .sort((a, b) => b.openedAt.localeCompare(a.openedAt) || b.id - a.id)
      .slice(0, size);
    return { total: sum(pages.map((p) => p.total)), infos };
  }

  async function compute(viewer: Viewer, query: DisplayDataQuery, language: Language): Promise<DisplayData> {
    const [page, markers] = await Promise.all([
      plants.list(viewer.auth, {}, 1, ALL_PLANTS, 'powerW', 'desc'),
      plants.mapMarkers(viewer.auth, {}),
    ]);
    const rows: PlantRow[] = viewer.plantIds === null ? page.records : page.records.filter((r) => viewer.plantIds?.has(r.id));
    const where = new Map(markers.map(([id, latitude, longitude]) => [id, { latitude, longitude }]));
    const displayPlants: DisplayPlant[] = rows.map((r) => ({
      id: r.id,
      name: r.name,
      status: r.status,
      latitude: where.get(r.id)?.latitude ?? 0,
      longitude: where.get(r.id)?.longitude ?? 0,
      capacityKwp: r.capacityKwp,
      powerW: r.powerW,
      energyTodayWh: r.energyTodayWh,
      specificYield: r.specificYield,
    }));
    const flowPlant = rows.find((r) => r.id === query.flowPlantId) ?? rows[0];
    // Month and year: one query over the daily rollup, each plant up to its local today as its overview counts.
    const at = now();
    const [periods, alarmPage, flow] = await Promise.all([
      repository.periodSums(new Map(rows.map((r) => [r.id, localDayOf(at, r.timezone)]))),
      alarms(viewer, language),
      flowPlant ? energy.flow(flowPlant.id) : Promise.resolve(null),
    ]);
    const energyTotalWh = sum(rows.map((r) => r.energyTotalWh));
    const benefits = environmentalBenefits(energyTotalWh / 1000, benefitFactors);
    const { top, bottom } = rankBySpecificYield(displayPlants, DISPLAY_LIMITS.rankSize);
    return {
      generatedAt: new Date(at).toISOString(),
      title: viewer.title,
      kpi: {
        plantCount: rows.length,
        capacityKwp: sum(rows.map((r) => r.capacityKwp)),
        powerW: sum(rows.map((r) => r.powerW)),
        energyTodayWh: sum(rows.map((r) => r.energyTodayWh)),
        energyMonthWh: periods.monthWh,
        energyYearWh: periods.yearWh,
        energyTotalWh,
        co2Kg: benefits.co2Kg,
        trees: benefits.trees,
      },
      statusCounts: statusCountsOf(rows),
      plants: displayPlants,
      top,
      bottom,
      alarms: alarmPage,
      flow: flowPlant && flow ? { plantId: flowPlant.id, plantName: flowPlant.name, flow } : null,
    };
  }

  return {
    async create(auth: AuthContext, input: DisplayLinkCreate): Promise<DisplayLinkCreated> {
      let companyId: number | null = null;
      let plantIds: number[] = [];
      if (input.scope === 'company') {
        // A company's display is made by its members for their company, or by a platform administrator for any
        // company they name; anyone else picks plants.
        const own = input.companyId === undefined || input.companyId === auth.companyId;
        if (own && auth.companyId === null) throw new ApiError(Code.NO_PERMISSION);
        if (!own && auth.roleKey !== PLATFORM_ADMIN) throw new ApiError(Code.NO_PERMISSION);
        companyId = own ? auth.companyId : (input.companyId ?? null);
        if (companyId === null || !(await repository.companyNames([companyId])).has(companyId)) throw new ApiError(Code.NOT_FOUND);
      } else {
        plantIds = [...new Set(input.plantIds)];
        const levels = await access.levels(auth, plantIds);
        const missing = plantIds.find((id) => !levels.has(id));
        if (missing !== undefined) throw new ApiError(Code.PLANT_NOT_FOUND);
      }
      const at = now();
      if ((await repository.activeCount(auth.userId, new Date(at))) >= DISPLAY_LIMITS.linksPerUserMax)
        throw new ApiError(Code.DISPLAY_LINK_LIMIT, { max: DISPLAY_LIMITS.linksPerUserMax });
      const token = newToken();
      const id = await repository.insert({
        name: input.name,
        tokenHash: hashToken(token),
        createdBy: auth.userId,
        scope: input.scope,
        companyId,
        plantIds,
        expiresAt: new Date(at + input.expiresInDays * DAY_MS),
      });
      const record = await repository.byId(id);
      if (!record) throw new ApiError(Code.DISPLAY_LINK_INVALID);
      const [link] = await present([record]);
      if (!link) throw new ApiError(Code.DISPLAY_LINK_INVALID);
      return { link, token };
    },

    /** The companies a platform administrator may make a company display for; 700 for anyone else. */
    async companies(auth: AuthContext, keyword: string | undefined): Promise<DisplayCompany[]> {
      if (auth.roleKey !== PLATFORM_ADMIN) throw new ApiError(Code.NO_PERMISSION);
      return repository.companies(keyword, COMPANY_OPTIONS);
    },

    async list(auth: AuthContext): Promise<DisplayLinkRow[]> {
      return present(await repository.list(auth.userId, auth.companyId));
    },

    /** The creator revokes, or a member of the company a company display belongs to; others see 4310. */
    async revoke(auth: AuthContext, id: number): Promise<void> {
      const link = await repository.byId(id);
      const mayRevoke = link && (link.createdBy === auth.userId || (link.companyId !== null && link.companyId === auth.companyId));
      if (!link || !mayRevoke) throw new ApiError(Code.DISPLAY_LINK_INVALID);
      await repository.revoke(id, new Date(now()));
    },

    signedIn(auth: AuthContext): Viewer {
      return { key: `user:${auth.userId}`, auth, plantIds: null, title: null };
    },

    /**
     * The viewer behind a display token, checked at every use: the link exists and is not revoked (4310) nor
     * expired (4311); its creator is still enabled, still may view plants, still in the company of a company
     * link (or still a platform administrator, who may make one for any company), and still sees at least one
     * of its chosen plants (4310 otherwise). Last use is recorded.
     */
    async byToken(token: string, ip: string): Promise<Viewer> {
      const link = token ? await repository.byTokenHash(hashToken(token)) : undefined;
      if (!link || link.revokedAt) throw new ApiError(Code.DISPLAY_LINK_INVALID);
      const at = now();
      if (link.expiresAt.getTime() <= at) throw new ApiError(Code.DISPLAY_LINK_EXPIRED);
      const creator = await repository.creator(link.createdBy);
      if (!creator || creator.disabled) throw new ApiError(Code.DISPLAY_LINK_INVALID);
      const permissions = await permissionsOf(creator.roleId, creator.companyId !== null);
      if (!permissions.has('station.view')) throw new ApiError(Code.DISPLAY_LINK_INVALID);
      const auth: AuthContext = {
        userId: creator.userId,
        sessionId: `display-link:${link.id}`,
        account: creator.account,
        roleId: creator.roleId,
        roleKey: creator.roleKey,
        companyId: creator.companyId,
        readOnly: true,
        permissions,
        ip,
      };
      let viewer: Viewer;
      if (link.scope === 'company') {
        const mayShow = creator.companyId === link.companyId || creator.roleKey === PLATFORM_ADMIN;
        if (link.companyId === null || !mayShow) throw new ApiError(Code.DISPLAY_LINK_INVALID);
        // Exactly the company's plants (each of which its member sees), not the creator's other shares.
        viewer = {
          key: `link:${link.id}`,
          auth: { ...auth, userId: 0, roleKey: 'display_link', companyId: link.companyId },
          plantIds: null,
          title: link.name,
        };
      } else {
        const levels = await access.levels(auth, link.plantIds);
        const visible = new Set(link.plantIds.filter((id) => levels.has(id)));
        if (visible.size === 0) throw new ApiError(Code.DISPLAY_LINK_INVALID);
        viewer = { key: `link:${link.id}`, auth, plantIds: visible, title: link.name };
      }
      if (at - (touched.get(link.id) ?? 0) >= TOUCH_MS) {
        touched.set(link.id, at);
        await repository.touch(link.id, new Date(at));
      }
      return viewer;
    },

    /** The display's figures, shared for CACHE_MS between windows of one viewer (the three screens). */
    async data(viewer: Viewer, query: DisplayDataQuery, language: Language): Promise<DisplayData> {
      const key = `${viewer.key}:${[...(viewer.plantIds ?? [])].join(',')}:${query.flowPlantId ?? ''}:${language}`;
      const at = now();
      const hit = cache.get(key);
      if (hit && at - hit.at < CACHE_MS) return hit.data;
      if (cache.size > 500) cache.clear();
      const data = compute(viewer, query, language);
      cache.set(key, { at, data });
      data.catch(() => cache.delete(key));
      return data;
    },
  };
}

export type FullscreenService = ReturnType<typeof createFullscreenService>;
