import { z } from 'zod';

/**
 * OEM projects (spec 02 §3 OEM configuration, §5 rules; issue 24): a company's branded console at
 * <domain>.<BASE_DOMAIN> with its app name, logos, theme colour, store links, APKs and login image.
 */
export const OEM_LIMITS = {
  domainMax: 10,
  domainChangeDays: 30,
  nameMax: 64,
  appNameMax: 32,
  urlMax: 300,
  /** APK at most 300 MB; login image at most 2 MB; a logo at most 1 MB. */
  apkMaxBytes: 300 * 1024 * 1024,
  loginImageMaxBytes: 2 * 1024 * 1024,
  logoMaxBytes: 1024 * 1024,
} as const;

/** At most 10 lowercase letters and digits (spec 02 §5). */
export const OEM_DOMAIN = /^[a-z0-9]{1,10}$/;
/** x.x.x (spec 02 §5 APK version). */
export const APK_VERSION = /^\d{1,4}\.\d{1,4}\.\d{1,4}$/;
export const THEME_COLOUR = /^#[0-9A-Fa-f]{6}$/;

/**
 * The image slots and their sizes (spec 02 §5): company logo 220×58 and 58×58, OEM login logo 220×80 (PNG
 * only), system logo 220×60 down to 58×58; the login image any size up to 2 MB.
 */
export const OEM_IMAGE_SLOTS = {
  companyLogo: { width: 220, height: 58, pngOnly: false },
  companyIcon: { width: 58, height: 58, pngOnly: false },
  loginLogo: { width: 220, height: 80, pngOnly: true },
  systemLogo: { width: 220, height: 60, pngOnly: false },
  systemIcon: { width: 58, height: 58, pngOnly: false },
  loginImage: { width: undefined, height: undefined, pngOnly: false },
} as const;
export type OemImageSlot = keyof typeof OEM_IMAGE_SLOTS;
export const OEM_IMAGE_SLOT_NAMES = Object.keys(OEM_IMAGE_SLOTS) as OemImageSlot[];

export const OemApkSchema = z.object({
  id: z.number().int(),
  version: z.string(),
  size: z.number().int(),
  url: z.string(),
  createdAt: z.string(),
});
export type OemApk = z.infer<typeof OemApkSchema>;

export const OemProjectSchema = z.object({
  id: z.number().int(),
  companyId: z.number().int(),
  companyName: z.string(),
  customerName: z.string(),
  domain: z.string(),
  domainChangedAt: z.string(),
  /** When the domain may change again (30 days after the last change). */
  nextDomainChange: z.string(),
  appName: z.string(),
  themeColor: z.string(),
  iosUrl: z.string().nullable(),
  androidUrl: z.string().nullable(),
  images: z.partialRecord(z.enum(OEM_IMAGE_SLOT_NAMES as [OemImageSlot, ...OemImageSlot[]]), z.string()),
  apks: z.array(OemApkSchema),
  enabled: z.boolean(),
  updatedAt: z.string(),
});
export type OemProject = z.infer<typeof OemProjectSchema>;

const optionalUrl = z
  .string()
  .trim()
  .max(OEM_LIMITS.urlMax)
  .refine((v) => v === '' || /^https?:\/\/\S+$/.test(v), { message: 'validation.invalidFormat' })
  .optional();

export const OemFieldsSchema = z.object({
  companyId: z.number().int().positive(),
  customerName: z.string().trim().min(1).max(OEM_LIMITS.nameMax),
  /** Format checked by the service so a bad domain answers the spec's "domain format error". */
  domain: z.string().max(64),
  appName: z.string().trim().min(1).max(OEM_LIMITS.appNameMax),
  themeColor: z.string().regex(THEME_COLOUR),
  iosUrl: optionalUrl,
  androidUrl: optionalUrl,
});
export type OemFields = z.infer<typeof OemFieldsSchema>;

export const OemListSchema = z.array(OemProjectSchema);

/** The brand a page is drawn with: an OEM's on its domain, else the product's (oem false). */
export const BrandSchema = z.object({
  oem: z.boolean(),
  name: z.string(),
  themeColor: z.string().nullable(),
  images: z.partialRecord(z.enum(OEM_IMAGE_SLOT_NAMES as [OemImageSlot, ...OemImageSlot[]]), z.string()),
  iosUrl: z.string().nullable(),
  androidUrl: z.string().nullable(),
  apks: z.array(OemApkSchema),
});
export type Brand = z.infer<typeof BrandSchema>;

export function isOemDomain(value: string): boolean {
  return OEM_DOMAIN.test(value);
}

/** The first day the domain may change again. */
export function nextDomainChange(changedAt: Date): Date {
  return new Date(changedAt.getTime() + OEM_LIMITS.domainChangeDays * 86_400_000);
}
