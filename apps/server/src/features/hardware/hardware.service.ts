import { Code } from '@sunward/contracts/codes';
import type { HardwareKind, HardwareListQuery, HardwareModel, HardwarePage, HardwareSave, Products } from '@sunward/contracts/hardware';
import { BUILT_IN_PROTOCOLS } from '@sunward/protocol/maps/index';
import { SIMULATED_NAMEPLATE } from '@sunward/protocol/sample-values';
import { ApiError } from '../../lib/envelope.js';
import type { AuthContext } from '../../plugins/auth.js';
import type { HardwareRecord, HardwareRepository } from './hardware.repository.js';

function toModel(r: HardwareRecord): HardwareModel {
  return {
    id: r.id,
    manufacturer: r.manufacturer,
    model: r.model,
    kind: r.kind as HardwareKind,
    protocolIdentifier: r.protocolIdentifier,
    firmwareCompatible: r.firmwareCompatible,
    builtIn: r.builtIn,
    devices: r.devices,
    creator: r.creator,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

const fieldsOf = (body: HardwareSave) => ({
  manufacturer: body.manufacturer,
  model: body.model,
  kind: body.kind,
  protocolIdentifier: body.protocolIdentifier || null,
  firmwareCompatible: body.firmwareCompatible || null,
});

/**
 * The hardware list (issue 19): seeded on start with the models the shipped maps' devices name on their
 * nameplate (the simulator's devices: one model per device family, speaking that family's first map);
 * platform administrators add, edit and delete models. Products are the same models by brand.
 */
export function createHardwareService(deps: { repository: HardwareRepository }) {
  const { repository } = deps;
  return {
    /** Once: a seeded model an administrator deleted does not come back on the next start. */
    async seed(): Promise<void> {
      if (await repository.hasBuiltIn()) return;
      const seen = new Set<string>();
      for (const map of BUILT_IN_PROTOCOLS) {
        const model = SIMULATED_NAMEPLATE.model(map.family);
        if (seen.has(model)) continue;
        seen.add(model);
        await repository.insert({
          manufacturer: SIMULATED_NAMEPLATE.brand,
          model,
          kind: map.family,
          protocolIdentifier: map.id,
          firmwareCompatible: null,
          builtIn: true,
          createdBy: null,
        });
      }
    },

    async page(query: HardwareListQuery): Promise<HardwarePage> {
      const { rows, total } = await repository.page({ ...query, keyword: query.keyword || undefined });
      return { infos: rows.map(toModel), total };
    },

    async products(): Promise<Products> {
      const brands = new Map<string, Products[number]>();
      for (const row of await repository.all()) {
        const key = row.manufacturer.toLowerCase();
        const brand = brands.get(key) ?? { manufacturer: row.manufacturer, models: [] };
        brand.models.push({ id: row.id, model: row.model, kind: row.kind as HardwareKind });
        brands.set(key, brand);
      }
      return [...brands.values()];
    },

    async create(auth: AuthContext, body: HardwareSave): Promise<HardwareModel> {
      const id = await repository.insert({ ...fieldsOf(body), builtIn: false, createdBy: auth.userId });
      if (id === null) throw new ApiError(Code.HARDWARE_MODEL_EXISTS);
      const row = await repository.byId(id);
      if (!row) throw new ApiError(Code.NOT_FOUND);
      return toModel(row);
    },

    async update(id: number, body: HardwareSave): Promise<HardwareModel> {
      const result = await repository.update(id, fieldsOf(body));
      if (result === 'missing') throw new ApiError(Code.NOT_FOUND);
      if (result === 'taken') throw new ApiError(Code.HARDWARE_MODEL_EXISTS);
      const row = await repository.byId(id);
      if (!row) throw new ApiError(Code.NOT_FOUND);
      return toModel(row);
    },

    async remove(id: number): Promise<void> {
      if (!(await repository.remove(id))) throw new ApiError(Code.NOT_FOUND);
    },
  };
}

export type HardwareService = ReturnType<typeof createHardwareService>;
