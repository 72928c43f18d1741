import type { OemImageSlot } from '@sunward/contracts/oem';
import { and, asc, desc, eq, ilike, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { companies, companyCustomers, oemApks, oemProjects, users } from '../../db/schema.js';
import { inCompanySubtree } from '../../lib/company-tree.js';

export type OemImages = Partial<Record<OemImageSlot, string>>;

export interface OemRecord {
  id: number;
  companyId: number;
  companyName: string;
  customerName: string;
  domain: string;
  domainChangedAt: Date;
  appName: string;
  themeColor: string;
  iosUrl: string | null;
  androidUrl: string | null;
  images: OemImages;
  enabled: boolean;
  updatedAt: Date;
}

export interface ApkRecord {
  id: number;
  oemId: number;
  version: string;
  file: string;
  size: number;
  createdAt: Date;
}

export interface OemWrite {
  companyId: number;
  customerName: string;
  domain: string;
  appName: string;
  themeColor: string;
  iosUrl: string | null;
  androidUrl: string | null;
}

const columns = {
  id: oemProjects.id,
  companyId: oemProjects.companyId,
  companyName: companies.name,
  customerName: oemProjects.customerName,
  domain: oemProjects.domain,
  domainChangedAt: oemProjects.domainChangedAt,
  appName: oemProjects.appName,
  themeColor: oemProjects.themeColor,
  iosUrl: oemProjects.iosUrl,
  androidUrl: oemProjects.androidUrl,
  images: oemProjects.images,
  enabled: oemProjects.enabled,
  updatedAt: oemProjects.updatedAt,
};

const toRecord = (r: Omit<OemRecord, 'images'> & { images: unknown }): OemRecord => ({ ...r, images: r.images as OemImages });

/** Which unique constraint a failed insert or update hit, if any. */
export function uniqueConstraint(error: unknown): string | undefined {
  const e = error as { code?: string; constraint?: string; cause?: { code?: string; constraint?: string } } | null;
  const source = e?.code === '23505' ? e : e?.cause?.code === '23505' ? e.cause : undefined;
  return source ? (source.constraint ?? 'unknown') : undefined;
}

/** All SQL of OEM projects and their APKs. */
export function createOemRepository(db: Database) {
  const select = () => db.select(columns).from(oemProjects).innerJoin(companies, eq(companies.id, oemProjects.companyId));
  return {
    async all(): Promise<OemRecord[]> {
      return (await select().orderBy(asc(oemProjects.domain))).map(toRecord);
    },
    async byId(id: number): Promise<OemRecord | undefined> {
      const [row] = await select().where(eq(oemProjects.id, id));
      return row ? toRecord(row) : undefined;
    },
    async byDomain(domain: string): Promise<OemRecord | undefined> {
      const [row] = await select().where(eq(oemProjects.domain, domain));
      return row ? toRecord(row) : undefined;
    },
    /** Companies an OEM project may be made for (name search), for the project form. */
    async companies(keyword: string | undefined): Promise<{ id: number; name: string }[]> {
      const like = keyword ? `%${keyword.replace(/[\\%_]/g, '\\$&')}%` : undefined;
      return db
        .select({ id: companies.id, name: companies.name })
        .from(companies)
        .where(like ? ilike(companies.name, like) : undefined)
        .orderBy(asc(companies.name))
        .limit(50);
    },
    async companyExists(companyId: number): Promise<boolean> {
      const [row] = await db.select({ id: companies.id }).from(companies).where(eq(companies.id, companyId));
      return row !== undefined;
    },
    async insert(fields: OemWrite): Promise<number> {
      const [row] = await db
        .insert(oemProjects)
        .values({ ...fields, images: {} })
        .returning({ id: oemProjects.id });
      if (!row) throw new Error('OEM project not inserted');
      return row.id;
    },
    async update(id: number, fields: OemWrite, domainChanged: boolean): Promise<void> {
      await db
        .update(oemProjects)
        .set({ ...fields, ...(domainChanged ? { domainChangedAt: new Date() } : {}), updatedAt: new Date() })
        .where(eq(oemProjects.id, id));
    },
    async setEnabled(id: number, enabled: boolean): Promise<void> {
      await db.update(oemProjects).set({ enabled, updatedAt: new Date() }).where(eq(oemProjects.id, id));
    },
    async setImage(id: number, slot: OemImageSlot, name: string): Promise<void> {
      await db
        .update(oemProjects)
        .set({ images: sql`${oemProjects.images} || ${JSON.stringify({ [slot]: name })}::jsonb`, updatedAt: new Date() })
        .where(eq(oemProjects.id, id));
    },
    async apks(oemId: number): Promise<ApkRecord[]> {
      return db
        .select({
          id: oemApks.id,
          oemId: oemApks.oemId,
          version: oemApks.version,
          file: oemApks.file,
          size: oemApks.size,
          createdAt: oemApks.createdAt,
        })
        .from(oemApks)
        .where(eq(oemApks.oemId, oemId))
        .orderBy(desc(oemApks.createdAt), desc(oemApks.id));
    },
    /** Stores an APK; false when the version or the very file already exists for this OEM. */
    async insertApk(apk: { oemId: number; version: string; file: string; size: number; sha256: string }): Promise<boolean> {
      try {
        await db.insert(oemApks).values(apk);
        return true;
      } catch (error) {
        if (uniqueConstraint(error)) return false;
        throw error;
      }
    },
    async apkByFile(file: string): Promise<(ApkRecord & { domain: string; enabled: boolean }) | undefined> {
      const [row] = await db
        .select({
          id: oemApks.id,
          oemId: oemApks.oemId,
          version: oemApks.version,
          file: oemApks.file,
          size: oemApks.size,
          createdAt: oemApks.createdAt,
          domain: oemProjects.domain,
          enabled: oemProjects.enabled,
        })
        .from(oemApks)
        .innerJoin(oemProjects, eq(oemProjects.id, oemApks.oemId))
        .where(eq(oemApks.file, file));
      return row;
    },
    async removeApk(oemId: number, apkId: number): Promise<ApkRecord | undefined> {
      const [row] = await db
        .delete(oemApks)
        .where(and(eq(oemApks.oemId, oemId), eq(oemApks.id, apkId)))
        .returning({
          id: oemApks.id,
          oemId: oemApks.oemId,
          version: oemApks.version,
          file: oemApks.file,
          size: oemApks.size,
          createdAt: oemApks.createdAt,
        });
      return row;
    },
    /** Whether an account belongs to the company's tree: one of its members or one of its customers. */
    async inCompanyTree(userId: number, companyId: number): Promise<boolean> {
      // A member of the OEM's company or of any company below it in the channel hierarchy (issue 24).
      const [member] = await db
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.id, userId), inCompanySubtree(sql`${users.companyId}`, companyId)));
      if (member) return true;
      const [customer] = await db
        .select({ id: companyCustomers.id })
        .from(companyCustomers)
        .where(and(eq(companyCustomers.userId, userId), eq(companyCustomers.companyId, companyId)));
      return customer !== undefined;
    },
  };
}

export type OemRepository = ReturnType<typeof createOemRepository>;
