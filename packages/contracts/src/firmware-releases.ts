import { z } from 'zod';
import { FIRMWARE_TYPES } from './firmware.js';

/*
 * The public firmware release log (/firmwareLogging, no sign-in): what has been released, for which
 * product, when and with which changes. Only enabled records appear, and never their file, its hashes
 * or its signature: the log tells what exists, the signed-in library hands out images.
 */

export const FIRMWARE_RELEASE_LIMITS = { pageSizeMax: 50, productMax: 64 } as const;

export const FirmwareReleaseQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(FIRMWARE_RELEASE_LIMITS.pageSizeMax).default(20),
  /** Exact product name, from `products`. */
  product: z.string().trim().min(1).max(FIRMWARE_RELEASE_LIMITS.productMax).optional(),
});
export type FirmwareReleaseQuery = z.infer<typeof FirmwareReleaseQuerySchema>;

export const FirmwareReleaseSchema = z.object({
  id: z.number(),
  name: z.string(),
  type: z.enum(FIRMWARE_TYPES),
  product: z.string(),
  manufacturer: z.string(),
  swVersion: z.string(),
  hwVersion: z.string().nullable(),
  changeLog: z.string().nullable(),
  /** When the image was added to the library (ISO 8601, UTC). */
  releasedAt: z.string(),
});
export type FirmwareRelease = z.infer<typeof FirmwareReleaseSchema>;

export const FirmwareReleaseGroupSchema = z.object({ product: z.string(), releases: z.array(FirmwareReleaseSchema) });
export type FirmwareReleaseGroup = z.infer<typeof FirmwareReleaseGroupSchema>;

/** One page of releases (newest first, `total` counts releases), grouped by product; `products` names every product with a release. */
export const FirmwareReleaseLogSchema = z.object({
  total: z.number(),
  groups: z.array(FirmwareReleaseGroupSchema),
  products: z.array(z.string()),
});
export type FirmwareReleaseLog = z.infer<typeof FirmwareReleaseLogSchema>;

/**
 * Groups releases by product in the order of each product's newest release; within a product, newest
 * first. The input is the page as listed (newest first), so the first time a product is seen decides
 * its place.
 */
export function groupReleasesByProduct(releases: readonly FirmwareRelease[]): FirmwareReleaseGroup[] {
  const groups = new Map<string, FirmwareRelease[]>();
  for (const release of releases) {
    const group = groups.get(release.product);
    if (group) group.push(release);
    else groups.set(release.product, [release]);
  }
  return [...groups].map(([product, list]) => ({
    product,
    releases: [...list].sort((a, b) => b.releasedAt.localeCompare(a.releasedAt) || b.id - a.id),
  }));
}
