/**
 * WCAG 2.2 contrast arithmetic on #rrggbb colours: the theme derives every text colour it sets from these, so
 * a company's own theme colour still reads at AA (4.5:1) wherever the console writes with it.
 */

type Rgb = readonly [number, number, number];

function parse(hex: string): Rgb {
  const value = hex.replace('#', '');
  const full = value.length === 3 ? [...value].map((c) => c + c).join('') : value.slice(0, 6);
  const n = Number.parseInt(full, 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

function format([r, g, b]: Rgb): string {
  return `#${[r, g, b].map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`;
}

/** Relative luminance (WCAG 2.2, 1.4.3). */
export function luminance(hex: string): number {
  const [r, g, b] = parse(hex).map((c) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as unknown as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** `color` moved `weight` (0–1) of the way towards `other`. */
export function mix(color: string, other: string, weight: number): string {
  const a = parse(color);
  const b = parse(other);
  return format([0, 1, 2].map((i) => (a[i] ?? 0) + ((b[i] ?? 0) - (a[i] ?? 0)) * weight) as unknown as Rgb);
}

/**
 * The colour closest to `color` that reaches `ratio` against `background`: unchanged when it already does,
 * else darkened (on a light background) or lightened (on a dark one) step by step.
 */
export function readableOn(color: string, background: string, ratio = 4.5): string {
  const towards = luminance(background) > 0.18 ? '#000000' : '#ffffff';
  for (let step = 0; step <= 40; step++) {
    const candidate = mix(color, towards, step / 40);
    if (contrastRatio(candidate, background) >= ratio) return candidate;
  }
  return towards;
}
