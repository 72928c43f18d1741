/*
 * Whether a firmware image fits a device (spec 02 §3 Firmware "software version (compatible)" and the
 * hardware version; issue 6 staged rollout). A compatible range is the library's field, e.g.
 * ">=1.2.0 <2.0.0", "1.x", "^2.4", "~2.4.1", "2.4.1 || 2.5.*": comparators joined by spaces or commas
 * must all hold; alternatives joined by "||" any one.
 */

/** Parts of a version: numbers where numeric, else lower-case text (1.10.0 after 1.9.0; V2 as 2). */
function parts(version: string): (number | string)[] {
  return version
    .trim()
    .replace(/^[vV]/, '')
    .split(/[.\-_]/)
    .filter((p) => p !== '')
    .map((p) => (/^\d+$/.test(p) ? Number(p) : p.toLowerCase()));
}

/** Negative, zero or positive as a is before, equal to or after b; missing parts count as 0. */
export function compareVersions(a: string, b: string): number {
  const pa = parts(a);
  const pb = parts(b);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = pa[i] ?? 0;
    const y = pb[i] ?? 0;
    if (x === y) continue;
    if (typeof x === 'number' && typeof y === 'number') return x - y;
    return String(x) < String(y) ? -1 : 1;
  }
  return 0;
}

const WILDCARD = /^[xX*]$/;

/** "1.x", "2.4.*": equal on the parts before the first wildcard. */
function matchesWildcard(version: string, pattern: string): boolean {
  const want = pattern.replace(/^[vV]/, '').split('.');
  const have = parts(version);
  for (let i = 0; i < want.length; i++) {
    const w = want[i] ?? '';
    if (WILDCARD.test(w)) return true;
    const h = have[i];
    if (h === undefined || String(h) !== (/^\d+$/.test(w) ? String(Number(w)) : w.toLowerCase())) return false;
  }
  return have.length <= want.length || have.slice(want.length).every((p) => p === 0);
}

function satisfiesComparator(version: string, comparator: string): boolean | undefined {
  const m = /^(>=|<=|>|<|=|\^|~)?\s*([vV]?[A-Za-z0-9._\-*]+)$/.exec(comparator);
  if (!m) return undefined;
  const [, op = '=', target = ''] = m;
  if (target.split('.').some((p) => WILDCARD.test(p))) return op === '=' ? matchesWildcard(version, target) : undefined;
  const c = compareVersions(version, target);
  switch (op) {
    case '>=':
      return c >= 0;
    case '<=':
      return c <= 0;
    case '>':
      return c > 0;
    case '<':
      return c < 0;
    case '^': {
      // Same major (same minor when the major is 0), not below the target.
      const [major = 0, minor = 0] = parts(target);
      const [vMajor = 0, vMinor = 0] = parts(version);
      return c >= 0 && vMajor === major && (major !== 0 || vMinor === minor);
    }
    case '~': {
      const [major = 0, minor = 0] = parts(target);
      const [vMajor = 0, vMinor = 0] = parts(version);
      return c >= 0 && vMajor === major && vMinor === minor;
    }
    default:
      return c === 0;
  }
}

/**
 * Whether `version` lies in `range`; undefined when the range cannot be read (the library's pattern lets
 * through strings no comparator makes sense of), which callers treat as "cannot tell".
 */
export function versionInRange(version: string, range: string): boolean | undefined {
  let unreadable = false;
  for (const alternative of range.split('||')) {
    const comparators = alternative
      .replace(/(>=|<=|>|<|=|\^|~)\s+/g, '$1')
      .split(/[\s,]+/)
      .filter(Boolean);
    if (comparators.length === 0) continue;
    const results = comparators.map((c) => satisfiesComparator(version, c));
    if (results.some((r) => r === undefined)) {
      unreadable = true;
      continue;
    }
    if (results.every(Boolean)) return true;
  }
  return unreadable ? undefined : false;
}

export type CompatibilityVerdict = { fits: true } | { fits: false; reason: 'hardware' | 'software' };

/**
 * An image fits a device unless it names a hardware version the device does not have, or a compatible
 * software range its current version lies outside. What the device has not reported cannot be held
 * against it: the device itself checks again before it applies the image.
 */
export function firmwareFits(
  image: { hwVersion: string | null; swCompatible: string | null },
  device: { hwVersion: string | null; firmwareVersion: string | null },
): CompatibilityVerdict {
  if (image.hwVersion && device.hwVersion && image.hwVersion.toLowerCase() !== device.hwVersion.toLowerCase())
    return { fits: false, reason: 'hardware' };
  if (image.swCompatible && device.firmwareVersion && versionInRange(device.firmwareVersion, image.swCompatible) === false)
    return { fits: false, reason: 'software' };
  return { fits: true };
}
