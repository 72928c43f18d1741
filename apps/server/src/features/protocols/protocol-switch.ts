import { Code } from '@sunward/contracts/codes';
import type { Language } from '@sunward/contracts/languages';
import type {
  ProtocolSwitchPreview,
  ProtocolSwitchResult,
  ProtocolSwitchRow,
  ProtocolSwitchSide,
  SwitchRowStatus,
} from '@sunward/contracts/protocol-switch';
import { decodeBlocks, encodeValues, numericPointIds } from '@sunward/protocol/codec';
import type { DecodedValue, ProtocolDefinition, RegisterPoint } from '@sunward/protocol/types';
import type { Database } from '../../db/client.js';
import type { RegistryEvents } from '../../ingest/registry-events.js';
import { ApiError } from '../../lib/envelope.js';
import type { AuthContext } from '../../plugins/auth.js';
import type { OperationLog } from '../audit/operation-log.js';
import { toDefinition } from './protocol-definition.js';
import { createProtocolsRepository } from './protocols.repository.js';

/*
 * Switching a device's protocol with a preview (issue 19, item 1; docs/decisions.md "Switching a device's
 * protocol"). The preview puts the device's latest reading back on the wire with the map that decoded it and
 * reads those registers with both maps; the switch moves the device to the candidate's current version.
 */

type Refusal = 'unknown' | 'disabled' | 'same' | 'family' | 'current';

/** The field message of a refused candidate (code 4 naming `protocolId`), in the ten languages. */
const REFUSALS: Record<Language, Record<Refusal, string>> = {
  en: {
    unknown: 'No such protocol',
    disabled: 'This protocol is disabled: enable it first',
    same: 'The device already uses this protocol',
    family: 'This protocol is for another device type',
    current: 'This version is already the current one',
  },
  cn: {
    current: '该版本已是当前版本',
    unknown: '协议不存在',
    disabled: '该协议已停用：请先启用',
    same: '设备已在使用该协议',
    family: '该协议属于其他设备类型',
  },
  vi: {
    unknown: 'Không có giao thức này',
    disabled: 'Giao thức này đã bị tắt: hãy bật trước',
    same: 'Thiết bị đã dùng giao thức này',
    family: 'Giao thức này dành cho loại thiết bị khác',
    current: 'Phiên bản này đã là phiên bản hiện tại',
  },
  es: {
    unknown: 'No existe ese protocolo',
    disabled: 'Este protocolo está desactivado: actívelo primero',
    same: 'El dispositivo ya usa este protocolo',
    family: 'Este protocolo es de otro tipo de dispositivo',
    current: 'Esta versión ya es la actual',
  },
  de: {
    unknown: 'Dieses Protokoll gibt es nicht',
    disabled: 'Dieses Protokoll ist deaktiviert: zuerst aktivieren',
    same: 'Das Gerät verwendet dieses Protokoll bereits',
    family: 'Dieses Protokoll gehört zu einem anderen Gerätetyp',
    current: 'Diese Version ist bereits die aktuelle',
  },
  cz: {
    unknown: 'Takový protokol neexistuje',
    disabled: 'Tento protokol je vypnutý: nejprve ho zapněte',
    same: 'Zařízení už tento protokol používá',
    family: 'Tento protokol je pro jiný typ zařízení',
    current: 'Tato verze už je aktuální',
  },
  po: {
    unknown: 'Nie ma takiego protokołu',
    disabled: 'Ten protokół jest wyłączony: najpierw go włącz',
    same: 'Urządzenie już używa tego protokołu',
    family: 'Ten protokół jest dla innego typu urządzenia',
    current: 'Ta wersja jest już bieżąca',
  },
  tr: {
    unknown: 'Böyle bir protokol yok',
    disabled: 'Bu protokol devre dışı: önce etkinleştirin',
    same: 'Cihaz zaten bu protokolü kullanıyor',
    family: 'Bu protokol başka bir cihaz türü için',
    current: 'Bu sürüm zaten geçerli sürüm',
  },
  el: {
    unknown: 'Δεν υπάρχει τέτοιο πρωτόκολλο',
    disabled: 'Αυτό το πρωτόκολλο είναι απενεργοποιημένο: ενεργοποιήστε το πρώτα',
    same: 'Η συσκευή χρησιμοποιεί ήδη αυτό το πρωτόκολλο',
    family: 'Αυτό το πρωτόκολλο είναι για άλλο τύπο συσκευής',
    current: 'Αυτή η έκδοση είναι ήδη η τρέχουσα',
  },
  pt: {
    unknown: 'Esse protocolo não existe',
    disabled: 'Este protocolo está desativado: ative-o primeiro',
    same: 'O dispositivo já usa este protocolo',
    family: 'Este protocolo é de outro tipo de dispositivo',
    current: 'Esta versão já é a atual',
  },
};

export function refused(language: Language, why: Refusal, field = 'protocolId'): ApiError {
  return new ApiError(Code.VALIDATION, {}, { errors: [{ field, message: REFUSALS[language][why] }] });
}

const same = (a: DecodedValue | null, b: DecodedValue | null): boolean =>
  typeof a === 'number' && typeof b === 'number' ? Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a)) : a === b;

const readable = (p: RegisterPoint) => p.operation !== 'w';

/** Registers per function code that a map's readable points cover, as `fc:address` keys. */
function coverage(points: readonly RegisterPoint[]): Set<string> {
  const keys = new Set<string>();
  for (const p of points.filter(readable)) for (let a = p.address; a < p.address + p.count; a++) keys.add(`${p.functionCode}:${a}`);
  return keys;
}

/**
 * What the switch would change for one reading (`last`: decoded values by point id, null before any reading).
 * Pure: the registers are the ones `from` gives those values (exact for what `from` reads), read with both maps.
 */
export function switchDiff(
  from: ProtocolDefinition,
  to: ProtocolDefinition,
  last: Readonly<Record<string, DecodedValue>> | null,
): { rows: ProtocolSwitchRow[]; uncovered: ProtocolSwitchPreview['uncovered'] } {
  const blocks = last ? encodeValues(from, { ...last }) : [];
  const before = last ? decodeBlocks(from, blocks).values : {};
  const after = last ? decodeBlocks(to, blocks).values : {};
  const fromPoints = new Map(from.points.filter(readable).map((p) => [p.id, p]));
  const toPoints = new Map(to.points.filter(readable).map((p) => [p.id, p]));
  const rows: ProtocolSwitchRow[] = [];
  for (const id of new Set([...fromPoints.keys(), ...toPoints.keys()])) {
    const a = fromPoints.get(id);
    const b = toPoints.get(id);
    const valueBefore = before[id] ?? null;
    const valueAfter = after[id] ?? null;
    let status: SwitchRowStatus;
    if (!b) status = 'removed';
    else if (last && valueAfter === null && valueBefore !== null) status = 'no_data';
    else if (!a) status = last && valueAfter === null ? 'no_data' : 'added';
    else if (!last) {
      // No reading: the two definitions of the point are compared.
      const shape = (p: RegisterPoint) =>
        JSON.stringify([p.functionCode, p.address, p.count, p.type, p.scale, p.base, p.unit, p.scaleFactorPoint]);
      status = shape(a) === shape(b) ? 'same' : 'changed';
    } else status = same(valueBefore, valueAfter) && (a.unit ?? null) === (b.unit ?? null) ? 'same' : 'changed';
    // A point both maps have that this reading did not carry: nothing to compare.
    if (last && a && b && valueBefore === null && valueAfter === null) continue;
    rows.push({
      id,
      label: (b ?? a)?.label ?? { en: id, zh: id },
      before: valueBefore,
      unitBefore: a?.unit ?? null,
      after: valueAfter,
      unitAfter: b?.unit ?? null,
      status,
    });
  }
  // Registers the current map reads that the candidate reads nothing from, as ranges.
  const target = coverage(to.points);
  const missing = [...coverage(from.points)]
    .filter((k) => !target.has(k))
    .map((k) => k.split(':').map(Number) as [number, number])
    .sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  const uncovered: ProtocolSwitchPreview['uncovered'] = [];
  for (const [functionCode, address] of missing) {
    const previous = uncovered.at(-1);
    if (previous && previous.functionCode === functionCode && previous.address + previous.count === address) previous.count++;
    else uncovered.push({ functionCode, address, count: 1 });
  }
  return { rows, uncovered };
}

/**
 * Where each point of the new storage order comes from in the old one: the 1-based index into a stored values
 * array, or null for a point the old protocol does not have (stored as NaN, an absent point). The switch rewrites
 * the device's readings and averages with it, so its history reads by point under the new protocol.
 */
export function historyMapping(fromOrder: readonly string[], toOrder: readonly string[]): (number | null)[] {
  const at = new Map(fromOrder.map((id, i) => [id, i + 1]));
  return toOrder.map((id) => at.get(id) ?? null);
}

/** The preview and the switch; SQL in protocols.repository.ts. Platform administrators only (route access). */
export function createProtocolSwitch(deps: {
  db: Database;
  /** The ingest reloads its device cache before the switch answers. */
  registry: Pick<RegistryEvents, 'changed'>;
  log: OperationLog;
  /** The password again, under the shared secret throttle (708 wrong, 135 once wrong too often): the commands'. */
  confirmPassword: (auth: AuthContext, password: string | undefined) => Promise<void>;
}) {
  const repository = createProtocolsRepository(deps.db);

  const side = (p: { id: number; identifier: string; name: string; version: number; protocolVersion: string }): ProtocolSwitchSide => ({
    id: p.id,
    identifier: p.identifier,
    name: p.name,
    version: p.version,
    protocolVersion: p.protocolVersion,
  });

  async function load(auth: AuthContext, language: Language, sn: string, protocolId: number) {
    const device = await repository.switchDevice(auth, sn);
    if (!device) throw new ApiError(Code.DEVICE_NOT_FOUND);
    const from = await repository.protocolVersion({ identifier: device.protocolId }, device.version);
    const to = await repository.protocolVersion({ id: protocolId });
    if (!from) throw new ApiError(Code.NOT_FOUND);
    if (!to) throw refused(language, 'unknown');
    if (!to.enabled) throw refused(language, 'disabled');
    if (to.identifier === device.protocolId) throw refused(language, 'same');
    if (to.family !== device.family) throw refused(language, 'family');
    return { device, from, to };
  }

  async function apply(
    auth: AuthContext,
    language: Language,
    sn: string,
    protocolId: number,
    password: string,
  ): Promise<ProtocolSwitchResult> {
    const { device, from, to } = await load(auth, language, sn, protocolId);
    await deps.confirmPassword(auth, password);
    const moved = await repository.moveDevice({
      deviceId: device.id,
      userId: auth.userId,
      from: { identifier: device.protocolId, version: from.version, order: from.definition.storageOrder },
      to: { id: to.id, identifier: to.identifier, version: to.version, order: to.definition.storageOrder },
      mapping: historyMapping(from.definition.storageOrder, to.definition.storageOrder),
    });
    // Changed since it was read (another administrator switched it, the protocol was disabled): checked again.
    if (!moved) return apply(auth, language, sn, protocolId, password);
    await deps.registry.changed();
    await deps.log.record(auth, {
      action: 'device.protocol',
      targetType: 'device',
      target: device.sn,
      plantId: device.plantId,
      request: {
        from: { protocol: from.identifier, version: from.version },
        to: { protocol: to.identifier, version: moved.version },
        readingsCarried: moved.readings,
      },
      result: 'ok',
    });
    return { sn: device.sn, protocolId: moved.identifier, protocolVersion: moved.version, readingsCarried: moved.readings };
  }

  return {
    apply,

    async preview(auth: AuthContext, language: Language, sn: string, protocolId: number): Promise<ProtocolSwitchPreview> {
      const { device, from, to } = await load(auth, language, sn, protocolId);
      const fromMap = toDefinition(from);
      let last: Record<string, DecodedValue> | null = null;
      if (device.values && device.readingAt) {
        last = {};
        const ids = numericPointIds(fromMap);
        for (let i = 0; i < ids.length; i++) {
          const value = device.values[i];
          const id = ids[i];
          if (id && value !== undefined && value !== null && Number.isFinite(value)) last[id] = value;
        }
      }
      return {
        sn: device.sn,
        from: side(from),
        to: side(to),
        readingAt: device.readingAt?.toISOString() ?? null,
        ...switchDiff(fromMap, toDefinition(to), last),
      };
    },
  };
}

export type ProtocolSwitch = ReturnType<typeof createProtocolSwitch>;
