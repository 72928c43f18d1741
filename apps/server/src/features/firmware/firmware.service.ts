import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { Code } from '@sunward/contracts/codes';
import {
  FIRMWARE_FILE_NAME,
  type FirmwareCheckQuery,
  type FirmwareFields,
  type FirmwareListQuery,
  type FirmwarePage,
  type FirmwareRow,
  type FirmwareType,
  type FirmwareUploadFields,
  firmwareExtension,
} from '@sunward/contracts/firmware';
import { type FirmwareReleaseLog, type FirmwareReleaseQuery, groupReleasesByProduct } from '@sunward/contracts/firmware-releases';
import type { Language } from '@sunward/contracts/languages';
import { translate } from '@sunward/contracts/messages';
import { isUniqueViolation } from '../../db/errors.js';
import { ApiError } from '../../lib/envelope.js';
import type { AuthContext } from '../../plugins/auth.js';
import type { OperationLog } from '../audit/operation-log.js';
import type { FirmwareRecord, FirmwareRecordFields, FirmwareRepository } from './firmware.repository.js';
import { imageProblem } from './firmware-image.js';
import type { FirmwareSigner } from './firmware-signing.js';
import type { FirmwareStore } from './firmware-store.js';

const validation = (field: string, message: string) => new ApiError(Code.VALIDATION, {}, { errors: [{ field, message }] });

export function present({ storageKey: _key, batteryTypeId: _type, batteryProductId: _product, ...row }: FirmwareRecord): FirmwareRow {
  return row;
}

/**
 * The firmware library (issue 6): list, the uniqueness check, upload with every file check before
 * anything is kept, metadata edits, the enabled flag, deletion with the images, and the download.
 */
const IMAGE_LINK_SECRET = randomBytes(32);
const imageSignature = (id: number, exp: number) => createHmac('sha256', IMAGE_LINK_SECRET).update(`${id}.${exp}`).digest('hex');

export function createFirmwareService(deps: {
  repository: FirmwareRepository;
  store: FirmwareStore;
  signer: FirmwareSigner;
  log: OperationLog;
  maxBytes: number;
}) {
  const { repository, store, signer, log, maxBytes } = deps;

  /** 4000 for a taken name, 4002 for a taken software version of the same type. */
  async function requireFree(fields: { name?: string; type?: string; swVersion?: string }, exceptId?: number): Promise<void> {
    const taken = await repository.taken({ ...fields, exceptId });
    if (fields.name !== undefined && taken.name) throw new ApiError(Code.FIRMWARE_NAME_DUPLICATE);
    if (fields.swVersion !== undefined && fields.type !== undefined && taken.version) throw new ApiError(Code.FIRMWARE_VERSION_DUPLICATE);
  }

  /**
   * Issue 24: the company an image is authorised for must exist; a platform administrator may pick any,
   * anyone else (should firmware management ever be granted below the platform) only their own company
   * or one below it. Code 4 on companyId otherwise, before anything is kept.
   */
  async function requireCompany(auth: AuthContext, language: Language, companyId: number | null | undefined): Promise<void> {
    if (companyId === undefined || companyId === null) return;
    const allowed =
      auth.roleKey === 'platform_admin'
        ? await repository.companyExists(companyId)
        : (await repository.companySubtree(auth.companyId)).has(companyId);
    if (!allowed) throw validation('companyId', translate(language, 'validation.firmwareCompany'));
  }

  async function requireRecord(id: number): Promise<FirmwareRecord> {
    const record = await repository.byId(id);
    if (!record) throw new ApiError(Code.NOT_FOUND);
    return record;
  }

  /**
   * Checks the file (name, type by name and by content, size, the stated MD5) and the uniqueness rules,
   * then stores the image, signs its SHA-256 and inserts the record; a refusal keeps nothing. Every
   * type's upload goes through here (the main library's and the battery library's).
   */
  async function createRecord(
    auth: AuthContext,
    language: Language,
    fields: FirmwareRecordFields & { fileName: string; md5: string },
    file: Buffer,
  ): Promise<FirmwareRecord> {
    await requireCompany(auth, language, fields.companyId);
    const extension = firmwareExtension(fields.fileName);
    if (!extension) throw validation('file', translate(language, 'validation.firmwareFileType'));
    if (!FIRMWARE_FILE_NAME.test(fields.fileName)) throw validation('fileName', translate(language, 'validation.firmwareFileName'));
    if (file.length > maxBytes)
      throw validation('file', translate(language, 'validation.firmwareSize', { max: Math.round((maxBytes / 1024 / 1024) * 10) / 10 }));
    const problem = imageProblem(file, extension);
    if (problem)
      throw validation(
        'file',
        problem.kind === 'empty'
          ? translate(language, 'validation.firmwareEmpty')
          : problem.kind === 'hex'
            ? translate(language, 'validation.firmwareHex', { line: problem.line })
            : problem.kind === 'binText'
              ? translate(language, 'validation.firmwareBinText')
              : translate(language, 'validation.firmwareBinFormat', { format: problem.format }),
      );
    const md5 = createHash('md5').update(file).digest('hex');
    if (md5 !== fields.md5.toLowerCase()) throw validation('md5', translate(language, 'validation.firmwareMd5'));
    await requireFree(fields);

    const digest = createHash('sha256').update(file).digest();
    const storageKey = await store.put(file, extension);
    let id: number;
    try {
      id = await repository.insert({
        ...fields,
        size: file.length,
        md5,
        sha256: digest.toString('hex'),
        signature: signer.sign(digest),
        storageKey,
        creatorId: auth.userId,
      });
    } catch (error) {
      await store.remove(storageKey);
      // Two uploads raced past the check: answer as the check would have.
      if (isUniqueViolation(error)) await requireFree(fields);
      throw error;
    }
    const { md5: _stated, ...request } = fields;
    await log.record(auth, {
      action: 'firmware.create',
      targetType: 'firmware',
      target: fields.name,
      request: { ...request, size: file.length, md5 },
      result: 'ok',
    });
    return requireRecord(id);
  }

  /** Edits a record's metadata (not its image) under the same uniqueness rules as an upload. */
  async function updateRecord(
    auth: AuthContext,
    before: FirmwareRecord,
    fields: FirmwareRecordFields,
    language: Language = 'en',
  ): Promise<FirmwareRecord> {
    await requireCompany(auth, language, fields.companyId);
    await requireFree(fields, before.id);
    try {
      await repository.update(before.id, fields);
    } catch (error) {
      if (isUniqueViolation(error)) await requireFree(fields, before.id);
      throw error;
    }
    await log.record(auth, { action: 'firmware.edit', targetType: 'firmware', target: before.name, request: fields, result: 'ok' });
    return requireRecord(before.id);
  }

  return {
    maxBytes,
    publicKeyPem: signer.publicKeyPem,

    async page(query: FirmwareListQuery): Promise<FirmwarePage> {
      const { infos, total } = await repository.page(query);
      return { infos: infos.map(present), total };
    },

    check: (query: FirmwareCheckQuery) =>
      requireFree({ name: query.name || undefined, type: query.type, swVersion: query.swVersion || undefined }, query.id),

    /** A gateway or inverter image of the main library (createRecord does the work). */
    upload: (auth: AuthContext, language: Language, fields: FirmwareUploadFields, file: Buffer): Promise<FirmwareRow> =>
      createRecord(auth, language, fields, file).then(present),

    /** Edits a main-library record; a battery image is not one (its own calls keep its type and product right). */
    async update(auth: AuthContext, language: Language, id: number, fields: FirmwareFields): Promise<FirmwareRow> {
      const before = await requireRecord(id);
      if (before.type === 'battery') throw new ApiError(Code.NOT_FOUND);
      return present(await updateRecord(auth, before, fields, language));
    },

    createRecord,
    updateRecord,
    requireRecord,

    /** One page of the public release log: enabled records only, grouped by product. */
    async releases(query: FirmwareReleaseQuery): Promise<FirmwareReleaseLog> {
      const { releases, total, products } = await repository.releases(query);
      return { total, groups: groupReleasesByProduct(releases), products };
    },

    async setEnabled(auth: AuthContext, id: number, enabled: boolean): Promise<void> {
      const record = await requireRecord(id);
      await repository.setEnabled(id, enabled);
      await log.record(auth, {
        action: enabled ? 'firmware.enable' : 'firmware.disable',
        targetType: 'firmware',
        target: record.name,
        request: { enabled },
        result: 'ok',
      });
    },

    /** Deletes the records, then their images (an image without a record is harmless; the reverse is not). */
    async remove(auth: AuthContext, ids: readonly number[]): Promise<number> {
      const records = await repository.byIds(ids);
      if (records.length === 0) throw new ApiError(Code.NOT_FOUND);
      await repository.remove(records.map((r) => r.id));
      for (const r of records) await store.remove(r.storageKey);
      await log.record(
        auth,
        records.map((r) => ({
          action: 'firmware.delete',
          targetType: 'firmware' as const,
          target: r.name,
          request: { id: r.id },
          result: 'ok' as const,
        })),
      );
      return records.length;
    },

    /** Enabled images of a type that install remotely: what an operator may pick for an upgrade. */
    async options(type: FirmwareType, auth: { roleKey: string; companyId: number | null }) {
      const rows = await repository.remoteOptions(type, pickerScope(auth));
      return rows.map((r) => ({ id: Number(r.id), name: r.name, product: r.product, swVersion: r.sw_version }));
    },

    /** A record as an upgrade needs it (undefined: no such record). */
    byId: (id: number) => repository.byId(id),
    /** Whether an upgrade by this caller may use the image: the pickers' rule, checked again by the server. */
    offeredTo: (id: number, auth: { roleKey: string; companyId: number | null }) => repository.offeredTo(id, pickerScope(auth)),
    byIds: (ids: readonly number[]) => repository.byIds(ids),
    /** The firmware versions the hardware list says a device model (brand, model) can run; null: any. */
    modelRange: (brand: string, model: string) => repository.modelFirmwareRange(brand, model),

    /**
     * A link a device can fetch the image from without a session: the record id and an expiry signed
     * with this process's secret (HMAC-SHA256), valid for an hour. The device checks the image's SHA-256
     * and signature before it applies it.
     */
    imagePath(id: number, now = Date.now()): string {
      const exp = Math.floor(now / 1000) + 3600;
      return `/api/v1/firmware/image/${id}?exp=${exp}&sig=${imageSignature(id, exp)}`;
    },

    async image(id: number, exp: number, sig: string, now = Date.now()): Promise<Buffer> {
      const expected = Buffer.from(imageSignature(id, exp));
      const given = Buffer.from(sig);
      if (exp * 1000 < now || expected.length !== given.length || !timingSafeEqual(expected, given)) throw new ApiError(Code.NOT_FOUND);
      const record = await requireRecord(id);
      const bytes = await store.get(record.storageKey);
      if (!bytes) throw new ApiError(Code.NOT_FOUND);
      return bytes;
    },

    async file(id: number): Promise<{ fileName: string; bytes: Buffer }> {
      const record = await requireRecord(id);
      const bytes = await store.get(record.storageKey);
      if (!bytes) throw new ApiError(Code.NOT_FOUND);
      return { fileName: record.fileName, bytes };
    },
  };
}

export type FirmwareService = ReturnType<typeof createFirmwareService>;

/** The company whose subtree's images a caller may pick (undefined: the platform administrator, every image). */
function pickerScope(auth: { roleKey: string; companyId: number | null }): number | null | undefined {
  return auth.roleKey === 'platform_admin' ? undefined : auth.companyId;
}
