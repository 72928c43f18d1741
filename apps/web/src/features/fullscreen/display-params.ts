import { DISPLAY_LIMITS, DISPLAY_STYLES, type DisplayStyle } from '@sunward/contracts/fullscreen';

/** The display's three parts: fleet figures, map and alarms, energy flow and ranking. */
export const DISPLAY_PARTS = [1, 2, 3] as const;
export type DisplayPart = (typeof DISPLAY_PARTS)[number];

export interface DisplayParams {
  /** The display link's token (from the address's #key=…, never sent to the server in a URL), or null signed in. */
  token: string | null;
  style: DisplayStyle;
  /** The part a window of the "multiple screens" style shows. */
  screen: DisplayPart;
  /** Seconds per page in the "multiple pages" style. */
  seconds: number;
  flowPlantId: number | undefined;
}

function intIn(value: string | null, min: number, max: number, fallback: number): number {
  const n = value === null ? Number.NaN : Number(value);
  return Number.isInteger(n) && n >= min && n <= max ? n : fallback;
}

/** Reads the display's address: ?style=single|screens|pages&screen=1..3&seconds=N&plant=ID#key=TOKEN. */
export function readDisplayParams(search: string, hash: string): DisplayParams {
  const query = new URLSearchParams(search);
  const fragment = new URLSearchParams(hash.replace(/^#/, ''));
  const style = DISPLAY_STYLES.find((s) => s === query.get('style')) ?? 'single';
  const plant = intIn(query.get('plant'), 1, 2_147_483_647, 0);
  return {
    token: fragment.get('key') || null,
    style,
    screen: intIn(query.get('screen'), 1, DISPLAY_LIMITS.screens, 1) as DisplayPart,
    seconds: intIn(
      query.get('seconds'),
      DISPLAY_LIMITS.rotateSecondsMin,
      DISPLAY_LIMITS.rotateSecondsMax,
      DISPLAY_LIMITS.rotateSecondsDefault,
    ),
    flowPlantId: plant === 0 ? undefined : plant,
  };
}

/** The address of a display: a display link's token goes after #, so servers and proxies never log it. */
export function displayUrl(origin: string, options: { token?: string; style: DisplayStyle; screen?: number; seconds?: number }): string {
  const query = new URLSearchParams({ style: options.style });
  if (options.style === 'screens') query.set('screen', String(options.screen ?? 1));
  if (options.style === 'pages' && options.seconds !== undefined) query.set('seconds', String(options.seconds));
  return `${origin}/fullscreen?${query.toString()}${options.token ? `#key=${encodeURIComponent(options.token)}` : ''}`;
}

/** The stage is drawn at 1920×1080 and scaled to the window: 4K doubles it, 1366×768 shrinks it, never a scrollbar. */
export function stageScale(width: number, height: number): number {
  return Math.max(0.1, Math.min(width / 1920, height / 1080));
}
