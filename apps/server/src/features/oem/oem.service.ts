import type { Readable } from 'node:stream';
import { Code } from '@sunward/contracts/codes';
import type { Language } from '@sunward/contracts/languages';
import { translate } from '@sunward/contracts/messages';
import {
  APK_VERSION,
  type Brand,
  isOemDomain,
  nextDomainChange,
  OEM_IMAGE_SLOTS,
  OEM_LIMITS,
  type OemApk,
  type OemFields,
  type OemImageSlot,
  type OemProject,
} from '@sunward/contracts/oem';
import { ApiError } from '../../lib/envelope.js';
import { type ApkRecord, type OemRecord, type OemRepository, type OemWrite, uniqueConstraint } from './oem.repository.js';
import type { OemFileStore } from './oem-files.js';
import { isApk, sniffImage } from './oem-files.js';

const refuse = (field: string, message: string) => new ApiError(Code.VALIDATION, {}, { errors: [{ field, message }] });

export const imageUrl = (name: string) => `/api/v1/oem/files/${name}`;
export const apkUrl = (file: string) => `/api/v1/oem/apk/${file}`;

const toApk = (a: ApkRecord): OemApk => ({
  id: a.id,
  version: a.version,
  size: a.size,
  url: apkUrl(a.file),
  createdAt: a.createdAt.toISOString(),
});

const imageUrls = (images: OemRecord['images']): Partial<Record<OemImageSlot, string>> =>
  Object.fromEntries(Object.entries(images).map(([slot, name]) => [slot, imageUrl(name)]));

/** The brand a disabled or unknown OEM domain gets: none, the page says "not available". */
export type BrandAnswer = { kind: 'default' } | { kind: 'oem'; brand: Brand; companyId: number } | { kind: 'unavailable' };

/**
 * OEM projects (spec 02 §3, §5; issue 24): platform administrators create, edit, enable and disable them;
 * logos and the login image are checked by content and size, APKs by content, version and size; a
 * project's domain may change once every 30 days.
 */
export function createOemService(deps: { repository: OemRepository; files: OemFileStore; baseDomain: string | undefined }) {
  const { repository, files } = deps;

  async function requireProject(id: number): Promise<OemRecord> {
    const row = await repository.byId(id);
    if (!row) throw new ApiError(Code.NOT_FOUND);
    return row;
  }

  async function project(row: OemRecord): Promise<OemProject> {
    return {
      id: row.id,
      companyId: row.companyId,
      companyName: row.companyName,
      customerName: row.customerName,
      domain: row.domain,
      domainChangedAt: row.domainChangedAt.toISOString(),
      nextDomainChange: nextDomainChange(row.domainChangedAt).toISOString(),
      appName: row.appName,
      themeColor: row.themeColor,
      iosUrl: row.iosUrl,
      androidUrl: row.androidUrl,
      images: imageUrls(row.images),
      apks: (await repository.apks(row.id)).map(toApk),
      enabled: row.enabled,
      updatedAt: row.updatedAt.toISOString(),
    };
  }

  function write(fields: OemFields): OemWrite {
    if (!isOemDomain(fields.domain)) throw new ApiError(Code.OEM_DOMAIN_FORMAT);
    return {
      companyId: fields.companyId,
      customerName: fields.customerName.trim(),
      domain: fields.domain,
      appName: fields.appName.trim(),
      themeColor: fields.themeColor.toUpperCase(),
      iosUrl: fields.iosUrl?.trim() || null,
      androidUrl: fields.androidUrl?.trim() || null,
    };
  }

  function uniqueRefusal(error: unknown): never {
    const constraint = uniqueConstraint(error);
    if (constraint?.includes('domain')) throw new ApiError(Code.OEM_DOMAIN_EXISTS);
    if (constraint?.includes('company')) throw new ApiError(Code.OEM_COMPANY_TAKEN);
    throw error;
  }

  async function checkFree(values: OemWrite, id?: number): Promise<void> {
    const sameDomain = await repository.byDomain(values.domain);
    if (sameDomain && sameDomain.id !== id) throw new ApiError(Code.OEM_DOMAIN_EXISTS);
    if (!(await repository.companyExists(values.companyId))) throw new ApiError(Code.NOT_FOUND);
    const taken = (await repository.all()).find((p) => p.companyId === values.companyId && p.id !== id);
    if (taken) throw new ApiError(Code.OEM_COMPANY_TAKEN);
  }

  return {
    async list(): Promise<OemProject[]> {
      return Promise.all((await repository.all()).map(project));
    },

    async byId(id: number): Promise<OemProject> {
      return project(await requireProject(id));
    },

    async create(fields: OemFields): Promise<OemProject> {
      const values = write(fields);
      await checkFree(values);
      const id = await repository.insert(values).catch(uniqueRefusal);
      return project(await requireProject(id));
    },

    /** Edits a project; a new domain only 30 days after the last change (5005 with the date it is allowed). */
    async update(language: Language, id: number, fields: OemFields): Promise<OemProject> {
      const before = await requireProject(id);
      const values = write(fields);
      const domainChanged = values.domain !== before.domain;
      if (domainChanged) {
        const next = nextDomainChange(before.domainChangedAt);
        if (Date.now() < next.getTime())
          throw new ApiError(
            Code.OEM_DOMAIN_CHANGE_TOO_SOON,
            { date: next.toLocaleDateString(language === 'cn' ? 'zh-CN' : 'en-GB', { dateStyle: 'long', timeZone: 'UTC' }) },
            { nextChange: next.toISOString() },
          );
      }
      await checkFree(values, id);
      await repository.update(id, values, domainChanged).catch(uniqueRefusal);
      return project(await requireProject(id));
    },

    async setEnabled(id: number, enabled: boolean): Promise<OemProject> {
      await requireProject(id);
      await repository.setEnabled(id, enabled);
      return project(await requireProject(id));
    },

    /** A logo or the login image, judged by its bytes: PNG or JPEG (login logo PNG only), its exact size, its weight. */
    async uploadImage(language: Language, id: number, slot: OemImageSlot, bytes: Buffer): Promise<OemProject> {
      const before = await requireProject(id);
      const rule = OEM_IMAGE_SLOTS[slot];
      const max = slot === 'loginImage' ? OEM_LIMITS.loginImageMaxBytes : OEM_LIMITS.logoMaxBytes;
      if (bytes.length === 0) throw refuse(slot, translate(language, 'validation.required'));
      if (bytes.length > max) throw refuse(slot, translate(language, 'validation.oemFileTooLarge', { max: max / 1024 / 1024 }));
      const image = sniffImage(bytes);
      if (!image || (rule.pngOnly && image.type !== 'png'))
        throw refuse(slot, translate(language, rule.pngOnly ? 'validation.oemPngOnly' : 'validation.oemImageType'));
      if (rule.width !== undefined && (image.width !== rule.width || image.height !== rule.height))
        throw refuse(
          slot,
          translate(language, 'validation.oemImageSize', {
            width: rule.width,
            height: rule.height,
            actual: `${image.width}×${image.height}`,
          }),
        );
      const name = await files.saveImage(bytes, image.type);
      await repository.setImage(id, slot, name);
      const old = before.images[slot];
      if (old) await files.removeImage(old);
      return project(await requireProject(id));
    },

    /** An APK streamed to disk: version x.x.x, at most 300 MB, a real Android package, version and file new (5004). */
    async uploadApk(language: Language, id: number, version: string, stream: Readable): Promise<OemProject> {
      await requireProject(id);
      if (!APK_VERSION.test(version)) {
        stream.resume();
        throw refuse('version', translate(language, 'validation.oemApkVersion'));
      }
      if ((await repository.apks(id)).some((a) => a.version === version)) {
        stream.resume();
        throw new ApiError(Code.OEM_APK_EXISTS);
      }
      const received = await files.receiveApk(stream, OEM_LIMITS.apkMaxBytes);
      if (received === 'tooLarge')
        throw refuse('file', translate(language, 'validation.oemFileTooLarge', { max: OEM_LIMITS.apkMaxBytes / 1024 / 1024 }));
      if (received.size === 0 || !(await isApk(received.path))) {
        await files.dropTemp(received.path);
        throw refuse('file', translate(language, 'validation.oemApk'));
      }
      const stored = await repository.insertApk({ oemId: id, version, file: received.name, size: received.size, sha256: received.sha256 });
      if (!stored) {
        await files.dropTemp(received.path);
        throw new ApiError(Code.OEM_APK_EXISTS);
      }
      await files.keepApk(received);
      return project(await requireProject(id));
    },

    async removeApk(id: number, apkId: number): Promise<OemProject> {
      await requireProject(id);
      const removed = await repository.removeApk(id, apkId);
      if (!removed) throw new ApiError(Code.NOT_FOUND);
      await files.removeApk(removed.file);
      return project(await requireProject(id));
    },

    /** The OEM domain a host names (<domain>.<BASE_DOMAIN>), or undefined for any other host. */
    domainOf(host: string | undefined): string | undefined {
      const base = deps.baseDomain;
      if (!base || !host) return undefined;
      const name = host.toLowerCase().replace(/:\d+$/, '');
      if (!name.endsWith(`.${base}`)) return undefined;
      const sub = name.slice(0, -(base.length + 1));
      return sub.includes('.') ? undefined : sub;
    },

    /** The brand of a host: an enabled OEM's, unavailable for a disabled or unknown OEM domain, else the default. */
    async brandOf(host: string | undefined): Promise<BrandAnswer> {
      const domain = this.domainOf(host);
      if (domain === undefined) return { kind: 'default' };
      const row = await repository.byDomain(domain);
      if (!row?.enabled) return { kind: 'unavailable' };
      return {
        kind: 'oem',
        companyId: row.companyId,
        brand: {
          oem: true,
          name: row.appName,
          themeColor: row.themeColor,
          images: imageUrls(row.images),
          iosUrl: row.iosUrl,
          androidUrl: row.androidUrl,
          apks: (await repository.apks(row.id)).map(toApk),
        },
      };
    },

    /** Sign-in on an OEM domain admits only accounts of its company's tree (5007). */
    async admitSignIn(host: string | undefined, userId: number): Promise<void> {
      const answer = await this.brandOf(host);
      if (answer.kind === 'unavailable') throw new ApiError(Code.NOT_FOUND);
      if (answer.kind === 'oem' && !(await repository.inCompanyTree(userId, answer.companyId)))
        throw new ApiError(Code.OEM_ACCOUNT_OUTSIDE);
    },

    companies: repository.companies,
    readImage: files.readImage,
    apkFile: files.apk,
    apkByFile: repository.apkByFile,
  };
}

export type OemService = ReturnType<typeof createOemService>;
