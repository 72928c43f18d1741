import { Code } from '@sunward/contracts/codes';
import type { Language } from '@sunward/contracts/languages';
import { translate } from '@sunward/contracts/messages';
import type { ProtocolRestorePreview } from '@sunward/contracts/protocol-switch';
import {
  type DEVICE_FAMILIES,
  type DraftProblem,
  PROTOCOL_IMPORT_MAX_BYTES,
  type ProtocolContent,
  type ProtocolDetail,
  type ProtocolFile,
  ProtocolFileSchema,
  type ProtocolListQuery,
  type ProtocolPage,
  type ProtocolRow,
  type ProtocolSave,
  type ProtocolVersion,
  type ProtocolVersionRow,
  protocolDraftProblems,
} from '@sunward/contracts/protocols';
import { numericPointIds } from '@sunward/protocol/codec';
import type { DecodedValue } from '@sunward/protocol/types';
import type { z } from 'zod';
import { isUniqueViolation } from '../../db/errors.js';
import { ApiError } from '../../lib/envelope.js';
import type { AuthContext } from '../../plugins/auth.js';
import { storageOrderAfter, toDefinition } from './protocol-definition.js';
import { createProtocolScripts } from './protocol-scripts.service.js';
import type { ProtocolStore } from './protocol-store.js';
import { refused, switchDiff } from './protocol-switch.js';
import type { ProtocolRecord, ProtocolsRepository, VersionRecord } from './protocols.repository.js';
import { draftFromSunspec, type SunspecDraft, SunspecModelSchema } from './sunspec-import.js';

type Family = (typeof DEVICE_FAMILIES)[number];

function fieldErrors(language: Language, problems: readonly DraftProblem[], prefix = ''): ApiError {
  return new ApiError(
    Code.VALIDATION,
    {},
    {
      errors: problems.map((p) => ({
        field: `${prefix}${p.field}`,
        message: translate(language, `protocol.${p.key}`, p.params),
      })),
    },
  );
}

/** Zod's issues as the envelope's field errors (an import file is checked here, not by the route). */
function zodErrors(error: z.ZodError, prefix: string): ApiError {
  return new ApiError(
    Code.VALIDATION,
    {},
    {
      errors: error.issues
        .slice(0, 20)
        .map((i) => ({ field: [prefix, ...i.path.map(String)].filter(Boolean).join('.'), message: i.message })),
    },
  );
}

function toRow(
  r: ProtocolRecord & Pick<VersionRecord, 'protocolVersion' | 'configurationVersion' | 'definition'> & { devices: number },
): ProtocolRow {
  return {
    id: r.id,
    identifier: r.identifier,
    code: r.code,
    name: r.name,
    manufacturer: r.manufacturer,
    family: r.family as Family,
    protocolVersion: r.protocolVersion,
    configurationVersion: r.configurationVersion,
    enabled: r.enabled,
    builtIn: r.builtIn,
    currentVersion: r.currentVersion,
    registers: r.definition.points.length,
    devices: r.devices,
    creator: r.creator,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

function contentOf(v: VersionRecord): ProtocolContent {
  const { storageOrder: _order, ...content } = v.definition;
  return content;
}

function versionRow(v: VersionRecord): ProtocolVersionRow {
  return {
    version: v.version,
    protocolVersion: v.protocolVersion,
    configurationVersion: v.configurationVersion,
    note: v.note,
    creator: v.creator,
    createdAt: v.createdAt.toISOString(),
    registers: v.definition.points.length,
  };
}

/**
 * Protocols as data (spec 02 §3, §5; issue 19): list, detail, create, a new version per edit, enable,
 * delete while unused, JSON export and import, SunSpec model drafts. Every change reloads the decoder's
 * maps (protocol-store.ts). Only platform administrators reach these (routes: system.protocol*).
 */
export function createProtocolsService(deps: { repository: ProtocolsRepository; store: ProtocolStore }) {
  const { repository, store } = deps;

  function check(language: Language, body: Pick<ProtocolSave, 'content'>): void {
    const problems = protocolDraftProblems(body.content);
    if (problems.length > 0) throw fieldErrors(language, problems, 'content.');
  }

  async function requireProtocol(id: number) {
    const row = await repository.byId(id);
    if (!row) throw new ApiError(Code.NOT_FOUND);
    return row;
  }

  async function requireVersions(id: number): Promise<VersionRecord[]> {
    const versions = await repository.versions(id);
    if (versions.length === 0) throw new ApiError(Code.NOT_FOUND);
    return versions;
  }

  async function refuseClash(identifier: string, code: string, exceptId?: number): Promise<void> {
    const clash = await repository.findClash(identifier, code, exceptId);
    if (clash === 'identifier') throw new ApiError(Code.PROTOCOL_IDENTIFIER_EXISTS);
    if (clash === 'code') throw new ApiError(Code.PROTOCOL_CODE_EXISTS);
  }

  async function detail(id: number): Promise<ProtocolDetail> {
    const row = await requireProtocol(id);
    const current = (await requireVersions(id)).find((v) => v.version === row.currentVersion);
    if (!current) throw new ApiError(Code.NOT_FOUND);
    return { ...toRow({ ...row, ...current }), content: contentOf(current) };
  }

  async function create(auth: AuthContext, language: Language, body: ProtocolSave): Promise<ProtocolDetail> {
    check(language, body);
    await refuseClash(body.identifier, body.code);
    let id: number;
    try {
      id = await repository.create(
        {
          identifier: body.identifier,
          code: body.code,
          name: body.name,
          manufacturer: body.manufacturer,
          family: body.family,
          builtIn: false,
        },
        {
          protocolVersion: body.protocolVersion,
          configurationVersion: body.configurationVersion,
          definition: { ...body.content, storageOrder: storageOrderAfter(undefined, body.content) },
          note: body.note ?? null,
          createdBy: auth.userId,
        },
      );
    } catch (error) {
      // Two administrators saving the same identifier or code at once: the database decides.
      if (isUniqueViolation(error)) await refuseClash(body.identifier, body.code);
      throw error;
    }
    await store.reload();
    return detail(id);
  }

  async function update(auth: AuthContext, language: Language, id: number, body: ProtocolSave): Promise<ProtocolDetail> {
    check(language, body);
    const row = await requireProtocol(id);
    await refuseClash(row.identifier, body.code, id);
    const versions = await requireVersions(id);
    const previous = versions.find((v) => v.version === row.currentVersion) ?? versions[0];
    const next = await repository.addVersion(
      id,
      { code: body.code, name: body.name, manufacturer: body.manufacturer, family: body.family },
      {
        protocolVersion: body.protocolVersion,
        configurationVersion: body.configurationVersion,
        definition: { ...body.content, storageOrder: storageOrderAfter(previous?.definition.storageOrder, body.content) },
        note: body.note ?? null,
        createdBy: auth.userId,
      },
      body.baseVersion,
    );
    if (next === null) throw new ApiError(Code.PROTOCOL_VERSION_STALE);
    await store.reload();
    return detail(id);
  }

  /** The protocol, its current version and the version named (404 when it has none such). */
  async function versionPair(id: number, version: number) {
    const row = await requireProtocol(id);
    const versions = await requireVersions(id);
    const current = versions.find((v) => v.version === row.currentVersion);
    const target = versions.find((v) => v.version === version);
    if (!current || !target) throw new ApiError(Code.NOT_FOUND);
    return { row, current, target };
  }

  return {
    ...createProtocolScripts({ repository, store }),

    /**
     * What every device of the protocol would read differently with another of its versions: the latest reading
     * of its device that reported last, read with the current version and with that one (nothing changes).
     */
    async restorePreview(id: number, version: number): Promise<ProtocolRestorePreview> {
      const { row, current, target } = await versionPair(id, version);
      const from = toDefinition({ ...row, protocolVersion: current.protocolVersion, definition: current.definition });
      const to = toDefinition({ ...row, protocolVersion: target.protocolVersion, definition: target.definition });
      const latest = await repository.latestDeviceOf(row.identifier);
      let last: Record<string, DecodedValue> | null = null;
      if (latest) {
        last = {};
        // Storage order is append-only across versions: the current version's order reads every reading.
        const ids = numericPointIds(from);
        for (let i = 0; i < ids.length; i++) {
          const value = latest.values[i];
          const point = ids[i];
          if (point && value !== undefined && Number.isFinite(value)) last[point] = value;
        }
      }
      const side = (v: VersionRecord) => ({
        id: row.id,
        identifier: row.identifier,
        name: row.name,
        version: v.version,
        protocolVersion: v.protocolVersion,
      });
      return {
        sn: latest?.sn ?? null,
        devices: row.devices,
        from: side(current),
        to: side(target),
        readingAt: latest?.readingAt.toISOString() ?? null,
        ...switchDiff(from, to, last),
      };
    },

    /**
     * Moves every device of the protocol to another of its versions: its content saved as a new current version
     * (append-only storage order, so every stored reading still reads). 4205 when another was saved since
     * `baseVersion`; the current version itself is refused (4 naming `version`).
     */
    async restore(auth: AuthContext, language: Language, id: number, version: number, baseVersion: number): Promise<{ version: number }> {
      const { row, current, target } = await versionPair(id, version);
      if (target.version === current.version) throw refused(language, 'current', 'version');
      const content = contentOf(target);
      const next = await repository.addVersion(
        id,
        { code: row.code, name: row.name, manufacturer: row.manufacturer, family: row.family },
        {
          protocolVersion: target.protocolVersion,
          configurationVersion: target.configurationVersion,
          definition: { ...content, storageOrder: storageOrderAfter(current.definition.storageOrder, content) },
          note: `Restored from v${target.version}`,
          createdBy: auth.userId,
        },
        baseVersion,
      );
      if (next === null) throw new ApiError(Code.PROTOCOL_VERSION_STALE);
      await store.reload();
      return { version: next };
    },

    async page(query: ProtocolListQuery): Promise<ProtocolPage> {
      const { rows, total } = await repository.page({
        keyword: query.keyword || undefined,
        family: query.family,
        enabled: query.enabled === undefined ? undefined : query.enabled === 'true',
        page: query.page,
        size: query.size,
      });
      return { infos: rows.map(toRow), total };
    },

    detail,
    create,
    update,

    async versions(id: number): Promise<ProtocolVersionRow[]> {
      await requireProtocol(id);
      return (await requireVersions(id)).map(versionRow);
    },

    async version(id: number, version: number): Promise<ProtocolVersion> {
      const found = (await requireVersions(id)).find((v) => v.version === version);
      if (!found) throw new ApiError(Code.NOT_FOUND);
      return { ...versionRow(found), content: contentOf(found) };
    },

    async setEnabled(id: number, enabled: boolean): Promise<void> {
      if (!(await repository.setEnabled(id, enabled))) throw new ApiError(Code.NOT_FOUND);
      await store.reload();
    },

    async remove(id: number): Promise<void> {
      const row = await requireProtocol(id);
      if (row.builtIn) throw new ApiError(Code.PROTOCOL_BUILT_IN);
      const result = await repository.remove(id);
      if (result === 'missing') throw new ApiError(Code.NOT_FOUND);
      if (result === 'in_use') throw new ApiError(Code.PROTOCOL_IN_USE, { count: (await requireProtocol(id)).devices });
      await store.reload();
    },

    async exportFile(id: number): Promise<{ fileName: string; file: ProtocolFile }> {
      const d = await detail(id);
      return {
        fileName: `protocol-${d.identifier}-v${d.currentVersion}.json`,
        file: {
          format: 'sunward-protocol',
          formatVersion: 1,
          protocol: {
            identifier: d.identifier,
            code: d.code,
            name: d.name,
            manufacturer: d.manufacturer,
            family: d.family,
            protocolVersion: d.protocolVersion,
            configurationVersion: d.configurationVersion,
            content: d.content,
          },
        },
      };
    },

    /**
     * A protocol file: a new protocol, or a new version of the protocol with the same identifier. Over
     * 10 MB is refused unread (4204); not a protocol file, 4206; a bad field, code 4 naming it.
     */
    async importFile(auth: AuthContext, language: Language, bytes: number, body: unknown): Promise<ProtocolDetail> {
      if (bytes > PROTOCOL_IMPORT_MAX_BYTES) throw new ApiError(Code.PROTOCOL_IMPORT_TOO_LARGE);
      const format = (body as { format?: unknown } | null)?.format;
      if (format !== 'sunward-protocol') throw new ApiError(Code.PROTOCOL_FILE_INVALID);
      const parsed = ProtocolFileSchema.safeParse(body);
      if (!parsed.success) throw zodErrors(parsed.error, '');
      const save: ProtocolSave = { ...parsed.data.protocol, note: 'Imported' };
      const existing = (await repository.page({ keyword: save.identifier, page: 1, size: 100 })).rows.find(
        (r) => r.identifier === save.identifier,
      );
      return existing ? update(auth, language, existing.id, save) : create(auth, language, save);
    },

    /** A SunSpec model file as a draft for the editor (nothing stored). */
    sunspecDraft(bytes: number, body: unknown, start: number, family?: Family): SunspecDraft {
      if (bytes > PROTOCOL_IMPORT_MAX_BYTES) throw new ApiError(Code.PROTOCOL_IMPORT_TOO_LARGE);
      const parsed = SunspecModelSchema.safeParse(body);
      if (!parsed.success) throw new ApiError(Code.PROTOCOL_FILE_INVALID);
      return draftFromSunspec(parsed.data, { start, family });
    },
  };
}

export type ProtocolsService = ReturnType<typeof createProtocolsService>;
