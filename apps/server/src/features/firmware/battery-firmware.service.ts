import type {
  BatteryFirmwareFields,
  BatteryFirmwareListQuery,
  BatteryFirmwarePage,
  BatteryFirmwareRow,
  BatteryFirmwareUploadFields,
  BatteryProductFields,
  BatteryProductListQuery,
  BatteryProductPage,
  BatteryTypeAdd,
  BatteryTypeCheckQuery,
  BatteryTypeNode,
} from '@sunward/contracts/battery-firmware';
import { Code } from '@sunward/contracts/codes';
import type { Language } from '@sunward/contracts/languages';
import { type MessageKey, translate } from '@sunward/contracts/messages';
import { isUniqueViolation } from '../../db/errors.js';
import { ApiError } from '../../lib/envelope.js';
import type { AuthContext } from '../../plugins/auth.js';
import type { OperationLog } from '../audit/operation-log.js';
import type { BatteryFirmwareRepository, BatteryProductRecord, BatteryTypeRecord } from './battery-firmware.repository.js';
import type { FirmwareRecord } from './firmware.repository.js';
import { type FirmwareService, present } from './firmware.service.js';

const invalid = (language: Language, field: string, key: MessageKey) =>
  new ApiError(Code.VALIDATION, {}, { errors: [{ field, message: translate(language, key) }] });

/**
 * The battery firmware library (issue 6): the two-level battery type tree, battery products and
 * battery images. Images go through the main library's upload pipeline (file checks, MD5, signature)
 * with type 'battery', the product's manufacturer and name, and the chosen type and product.
 */
export function createBatteryFirmwareService(deps: {
  repository: BatteryFirmwareRepository;
  firmware: FirmwareService;
  log: OperationLog;
}) {
  const { repository, firmware, log } = deps;

  const record = (auth: AuthContext, action: string, target: string, request: unknown) =>
    log.record(auth, { action, targetType: 'firmware', target, request, result: 'ok' });

  async function requireType(id: number): Promise<BatteryTypeRecord> {
    const type = await repository.typeById(id);
    if (!type) throw new ApiError(Code.NOT_FOUND);
    return type;
  }

  /** 4004 when a sibling already has the name. */
  async function requireFreeTypeName(name: string, parentId: number | null, exceptId?: number): Promise<void> {
    if (await repository.typeNameTaken(name, parentId, exceptId)) throw new ApiError(Code.BATTERY_TYPE_NAME_EXISTS);
  }

  /** The type a product or image is for: it must exist and be a secondary label. */
  async function requireSecondary(language: Language, id: number): Promise<BatteryTypeRecord> {
    const type = await repository.typeById(id);
    if (!type) throw invalid(language, 'batteryTypeId', 'validation.batteryUnknown');
    if (type.parentId === null) throw invalid(language, 'batteryTypeId', 'validation.batterySecondaryType');
    return type;
  }

  async function requireFreeProductName(name: string, exceptId?: number): Promise<void> {
    if (await repository.productNameTaken(name, exceptId)) throw new ApiError(Code.BATTERY_PRODUCT_NAME_EXISTS);
  }

  async function requireProduct(id: number): Promise<BatteryProductRecord> {
    const product = await repository.productById(id);
    if (!product) throw new ApiError(Code.NOT_FOUND);
    return product;
  }

  /** An image's type and product: both exist, the type is secondary and the product is of that type. */
  async function resolveImageLinks(language: Language, fields: BatteryFirmwareFields): Promise<BatteryProductRecord> {
    await requireSecondary(language, fields.batteryTypeId);
    const product = await repository.productById(fields.batteryProductId);
    if (!product) throw invalid(language, 'batteryProductId', 'validation.batteryUnknown');
    if (product.batteryTypeId !== fields.batteryTypeId) throw invalid(language, 'batteryProductId', 'validation.batteryProductType');
    return product;
  }

  const recordFields = <F extends BatteryFirmwareFields>(fields: F, product: BatteryProductRecord) => ({
    ...fields,
    type: 'battery' as const,
    manufacturer: product.manufacturer,
    product: product.name,
  });

  async function requireImage(id: number): Promise<FirmwareRecord> {
    const image = await firmware.requireRecord(id);
    if (image.type !== 'battery') throw new ApiError(Code.NOT_FOUND);
    return image;
  }

  async function presentImages(images: readonly FirmwareRecord[]): Promise<BatteryFirmwareRow[]> {
    const links = await repository.firmwareLinks(images.map((i) => i.id));
    return images.flatMap((image) => {
      const link = links.get(image.id);
      if (!link) return [];
      const { id, name, model } = link.batteryProduct;
      return [{ ...present(image), type: 'battery' as const, batteryType: link.batteryType, batteryProduct: { id, name, model } }];
    });
  }

  async function presentImage(image: FirmwareRecord): Promise<BatteryFirmwareRow> {
    const [row] = await presentImages([image]);
    if (!row) throw new ApiError(Code.NOT_FOUND);
    return row;
  }

  return {
    // ---- types ----

    tree: (): Promise<BatteryTypeNode[]> => repository.tree(),

    /** The form's live check: a primary's name among primaries, a secondary's under its primary. */
    checkTypeName: (query: BatteryTypeCheckQuery) => requireFreeTypeName(query.name, query.parentId ?? null, query.id),

    /** A primary (no parentId) or a secondary under the primary parentId (4005 when that is not a primary). */
    async addType(auth: AuthContext, language: Language, input: BatteryTypeAdd): Promise<{ id: number }> {
      const parentId = input.parentId ?? null;
      if (parentId !== null) {
        const parent = await repository.typeById(parentId);
        if (!parent) throw invalid(language, 'parentId', 'validation.batteryUnknown');
        if (parent.parentId !== null) throw new ApiError(Code.BATTERY_TYPE_NOT_PRIMARY);
      }
      await requireFreeTypeName(input.name, parentId);
      let id: number;
      try {
        id = await repository.insertType(input.name, parentId);
      } catch (error) {
        // Two adds raced past the check: answer as the check would have.
        if (isUniqueViolation(error)) throw new ApiError(Code.BATTERY_TYPE_NAME_EXISTS);
        throw error;
      }
      await record(auth, 'firmware.batteryType.add', input.name, { name: input.name, parentId });
      return { id };
    },

    async editType(auth: AuthContext, id: number, name: string): Promise<void> {
      const type = await requireType(id);
      await requireFreeTypeName(name, type.parentId, id);
      try {
        await repository.renameType(id, name);
      } catch (error) {
        if (isUniqueViolation(error)) throw new ApiError(Code.BATTERY_TYPE_NAME_EXISTS);
        throw error;
      }
      await record(auth, 'firmware.batteryType.edit', type.name, { id, name });
    },

    /**
     * Moves a type under the primary parentId: 4005 when the target is the type itself or not a primary,
     * 4003 when the type has subtypes (the tree has two levels), 4004 when the target already has a
     * subtype of the same name. Moving to the current parent changes nothing.
     */
    async moveType(auth: AuthContext, language: Language, id: number, parentId: number): Promise<void> {
      const type = await requireType(id);
      if (parentId === id) throw new ApiError(Code.BATTERY_TYPE_NOT_PRIMARY);
      const target = await repository.typeById(parentId);
      if (!target) throw invalid(language, 'parentId', 'validation.batteryUnknown');
      if (target.parentId !== null) throw new ApiError(Code.BATTERY_TYPE_NOT_PRIMARY);
      if (type.parentId === parentId) return;
      if ((await repository.typeUsage(id)).children > 0) throw new ApiError(Code.BATTERY_TYPE_HAS_SUBTYPES);
      await requireFreeTypeName(type.name, parentId, id);
      try {
        await repository.moveType(id, parentId);
      } catch (error) {
        if (isUniqueViolation(error)) throw new ApiError(Code.BATTERY_TYPE_NAME_EXISTS);
        throw error;
      }
      await record(auth, 'firmware.batteryType.move', type.name, { id, from: type.parentId, to: parentId });
    },

    /** 4003 while the type has subtypes, 4006 while products or images use it. */
    async deleteType(auth: AuthContext, id: number): Promise<void> {
      const type = await requireType(id);
      const usage = await repository.typeUsage(id);
      if (usage.children > 0) throw new ApiError(Code.BATTERY_TYPE_HAS_SUBTYPES);
      if (usage.products > 0 || usage.firmware > 0) throw new ApiError(Code.BATTERY_TYPE_IN_USE);
      await repository.removeType(id);
      await record(auth, 'firmware.batteryType.delete', type.name, { id });
    },

    // ---- products ----

    products: (query: BatteryProductListQuery): Promise<BatteryProductPage> => repository.products(query),

    checkProductName: (name: string, exceptId?: number) => requireFreeProductName(name, exceptId),

    async createProduct(auth: AuthContext, language: Language, fields: BatteryProductFields): Promise<{ id: number }> {
      await requireSecondary(language, fields.batteryTypeId);
      await requireFreeProductName(fields.name);
      let id: number;
      try {
        id = await repository.insertProduct(fields);
      } catch (error) {
        if (isUniqueViolation(error)) throw new ApiError(Code.BATTERY_PRODUCT_NAME_EXISTS);
        throw error;
      }
      await record(auth, 'firmware.batteryProduct.add', fields.name, fields);
      return { id };
    },

    /** Also moves the product's images to its new type and name (they always match their product). */
    async updateProduct(auth: AuthContext, language: Language, id: number, fields: BatteryProductFields): Promise<void> {
      const before = await requireProduct(id);
      await requireSecondary(language, fields.batteryTypeId);
      await requireFreeProductName(fields.name, id);
      try {
        await repository.updateProduct(id, fields);
      } catch (error) {
        if (isUniqueViolation(error)) throw new ApiError(Code.BATTERY_PRODUCT_NAME_EXISTS);
        throw error;
      }
      await record(auth, 'firmware.batteryProduct.edit', before.name, fields);
    },

    /** 4008 while battery images name the product. */
    async deleteProduct(auth: AuthContext, id: number): Promise<void> {
      const product = await requireProduct(id);
      if ((await repository.productFirmwareCount(id)) > 0) throw new ApiError(Code.BATTERY_PRODUCT_IN_USE);
      await repository.removeProduct(id);
      await record(auth, 'firmware.batteryProduct.delete', product.name, { id });
    },

    // ---- images ----

    async firmwarePage(query: BatteryFirmwareListQuery): Promise<BatteryFirmwarePage> {
      const { ids, total } = await repository.firmwarePage(query);
      const byId = new Map((await firmware.byIds(ids)).map((image) => [image.id, image]));
      const images = ids.flatMap((id) => byId.get(id) ?? []);
      return { infos: await presentImages(images), total };
    },

    detail: async (id: number): Promise<BatteryFirmwareRow> => presentImage(await requireImage(id)),

    /** Checks the type and product, then the main pipeline checks and stores the file; a refusal keeps nothing. */
    async save(auth: AuthContext, language: Language, fields: BatteryFirmwareUploadFields, file: Buffer): Promise<BatteryFirmwareRow> {
      const product = await resolveImageLinks(language, fields);
      return presentImage(await firmware.createRecord(auth, language, recordFields(fields, product), file));
    },

    async update(auth: AuthContext, language: Language, id: number, fields: BatteryFirmwareFields): Promise<BatteryFirmwareRow> {
      const before = await requireImage(id);
      const product = await resolveImageLinks(language, fields);
      return presentImage(await firmware.updateRecord(auth, before, recordFields(fields, product)));
    },

    async setEnabled(auth: AuthContext, id: number, enabled: boolean): Promise<void> {
      await requireImage(id);
      await firmware.setEnabled(auth, id, enabled);
    },

    async remove(auth: AuthContext, id: number): Promise<void> {
      await requireImage(id);
      await firmware.remove(auth, [id]);
    },

    async file(id: number): Promise<{ fileName: string; bytes: Buffer }> {
      await requireImage(id);
      return firmware.file(id);
    },
  };
}

export type BatteryFirmwareService = ReturnType<typeof createBatteryFirmwareService>;
