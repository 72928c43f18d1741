import {
  LAYOUT_CANVAS,
  LAYOUT_GRID,
  LAYOUT_PANELS_MAX,
  type LayoutGroup,
  type LayoutPanel,
  PANEL_LONG,
  PANEL_SHORT,
} from '@sunward/contracts/plant-layout';

/** The editor's document: what a save sends (less the version). */
export interface LayoutDoc {
  groups: LayoutGroup[];
  panels: LayoutPanel[];
}

/** The document with its undo and redo stacks and the selection (not part of the history). */
export interface EditorState {
  doc: LayoutDoc;
  past: LayoutDoc[];
  future: LayoutDoc[];
  selected: string[];
  /** The saved document, to tell unsaved changes. */
  saved: LayoutDoc;
}

const HISTORY_MAX = 100;

export const snap = (v: number) => Math.round(v / LAYOUT_GRID) * LAYOUT_GRID;

export function panelSize(p: Pick<LayoutPanel, 'rotation'>): { w: number; h: number } {
  return p.rotation === 0 ? { w: PANEL_SHORT, h: PANEL_LONG } : { w: PANEL_LONG, h: PANEL_SHORT };
}

const clampX = (x: number, w: number) => Math.max(0, Math.min(LAYOUT_CANVAS.width - w, x));
const clampY = (y: number, h: number) => Math.max(0, Math.min(LAYOUT_CANVAS.height - h, y));

export function initialState(doc: LayoutDoc): EditorState {
  return { doc, past: [], future: [], selected: [], saved: doc };
}

export function isDirty(state: EditorState): boolean {
  return JSON.stringify(state.doc) !== JSON.stringify(state.saved);
}

/** A change to the document: the old one goes on the undo stack, redo is cleared. */
function commit(state: EditorState, doc: LayoutDoc, selected = state.selected): EditorState {
  if (JSON.stringify(doc) === JSON.stringify(state.doc)) return { ...state, selected };
  return { ...state, doc, past: [...state.past, state.doc].slice(-HISTORY_MAX), future: [], selected };
}

let counter = 0;
/** A new id, unique within the document. */
export function newId(prefix: string, taken: readonly { id: string }[]): string {
  const ids = new Set(taken.map((t) => t.id));
  let id: string;
  do {
    counter += 1;
    id = `${prefix}${Date.now().toString(36)}${counter.toString(36)}`;
  } while (ids.has(id));
  return id;
}

/** The first free grid place for a panel of this rotation, scanning rows left to right. */
export function freeSpot(panels: readonly LayoutPanel[], rotation: 0 | 90): { x: number; y: number } {
  const { w, h } = panelSize({ rotation });
  const overlaps = (x: number, y: number) =>
    panels.some((p) => {
      const s = panelSize(p);
      return x < p.x + s.w && p.x < x + w && y < p.y + s.h && p.y < y + h;
    });
  for (let y = LAYOUT_GRID; y + h <= LAYOUT_CANVAS.height; y += LAYOUT_GRID)
    for (let x = LAYOUT_GRID; x + w <= LAYOUT_CANVAS.width; x += LAYOUT_GRID) if (!overlaps(x, y)) return { x, y };
  return { x: 0, y: 0 };
}

/** Where a multi-selection lines up: on the selection's outer edge, or on its horizontal centre. */
export type AlignEdge = 'left' | 'right' | 'top' | 'bottom' | 'centre';
export type DistributeAxis = 'horizontal' | 'vertical';

/** Panels needed: align lines up two or more, distribute spaces three or more (the outer two stay). */
export const ALIGN_MIN = 2;
export const DISTRIBUTE_MIN = 3;

/** The selection lined up on one edge (or centre) of its bounding box; positions exact, kept on the canvas. */
export function aligned(panels: readonly LayoutPanel[], ids: readonly string[], edge: AlignEdge): LayoutPanel[] {
  const chosen = panels.filter((p) => ids.includes(p.id));
  if (chosen.length < ALIGN_MIN) return [...panels];
  const left = Math.min(...chosen.map((p) => p.x));
  const right = Math.max(...chosen.map((p) => p.x + panelSize(p).w));
  const top = Math.min(...chosen.map((p) => p.y));
  const bottom = Math.max(...chosen.map((p) => p.y + panelSize(p).h));
  const place: Record<AlignEdge, (p: LayoutPanel, s: { w: number; h: number }) => LayoutPanel> = {
    left: (p) => ({ ...p, x: left }),
    right: (p, s) => ({ ...p, x: clampX(right - s.w, s.w) }),
    top: (p) => ({ ...p, y: top }),
    bottom: (p, s) => ({ ...p, y: clampY(bottom - s.h, s.h) }),
    centre: (p, s) => ({ ...p, x: clampX(Math.round((left + right - s.w) / 2), s.w) }),
  };
  return panels.map((p) => (ids.includes(p.id) ? place[edge](p, panelSize(p)) : p));
}

/**
 * The selection spread evenly along an axis: the first and last (by position) stay, the others move so the
 * gaps between neighbours are equal (panels of either rotation).
 */
export function distributed(panels: readonly LayoutPanel[], ids: readonly string[], axis: DistributeAxis): LayoutPanel[] {
  const along = axis === 'horizontal' ? ('x' as const) : ('y' as const);
  const size = (p: LayoutPanel) => (axis === 'horizontal' ? panelSize(p).w : panelSize(p).h);
  const chosen = panels.filter((p) => ids.includes(p.id)).sort((a, b) => a[along] - b[along] || a.id.localeCompare(b.id));
  const first = chosen[0];
  const last = chosen.at(-1);
  if (chosen.length < DISTRIBUTE_MIN || !first || !last) return [...panels];
  const span = last[along] + size(last) - first[along];
  const gap = (span - chosen.reduce((a, p) => a + size(p), 0)) / (chosen.length - 1);
  const at = new Map<string, number>();
  let cursor = first[along];
  for (const p of chosen) {
    at.set(p.id, Math.round(cursor));
    cursor += size(p) + gap;
  }
  return panels.map((p) => {
    const v = at.get(p.id);
    return v === undefined || p.id === first.id || p.id === last.id ? p : { ...p, [along]: v };
  });
}

export type EditorAction =
  | { type: 'load'; doc: LayoutDoc }
  | { type: 'saved'; doc: LayoutDoc }
  | { type: 'select'; ids: string[] }
  | { type: 'toggle'; id: string }
  | { type: 'addGroup'; group: LayoutGroup }
  | { type: 'updateGroup'; id: string; changes: Partial<Omit<LayoutGroup, 'id'>> }
  | { type: 'deleteGroup'; id: string }
  | { type: 'addPanel'; groupId: string }
  | { type: 'move'; ids: string[]; dx: number; dy: number }
  | { type: 'rotate' }
  | { type: 'delete' }
  | { type: 'copy' }
  | { type: 'align'; edge: AlignEdge }
  | { type: 'distribute'; axis: DistributeAxis }
  | { type: 'bind'; id: string; optimizerSn: string | null }
  | { type: 'undo' }
  | { type: 'redo' };

/** Why an action was refused (the editor says so instead of changing anything). */
export type Refusal = 'tooMany' | 'panelLocked' | 'groupLocked';

export function refusalOf(state: EditorState, action: EditorAction): Refusal | undefined {
  if (action.type === 'addPanel' && state.doc.panels.length >= LAYOUT_PANELS_MAX) return 'tooMany';
  if (action.type === 'copy' && state.doc.panels.length + state.selected.length > LAYOUT_PANELS_MAX) return 'tooMany';
  if (action.type === 'delete' && state.doc.panels.some((p) => state.selected.includes(p.id) && p.optimizerSn !== null))
    return 'panelLocked';
  if (action.type === 'deleteGroup' && state.doc.panels.some((p) => p.groupId === action.id && p.optimizerSn !== null))
    return 'groupLocked';
  return undefined;
}

export function editorReducer(state: EditorState, action: EditorAction): EditorState {
  if (refusalOf(state, action)) return state;
  const { doc } = state;
  switch (action.type) {
    case 'load':
      return initialState(action.doc);
    case 'saved':
      return { ...state, doc: action.doc, saved: action.doc };
    case 'select':
      return { ...state, selected: action.ids };
    case 'toggle':
      return {
        ...state,
        selected: state.selected.includes(action.id) ? state.selected.filter((s) => s !== action.id) : [...state.selected, action.id],
      };
    case 'addGroup':
      return commit(state, { ...doc, groups: [...doc.groups, action.group] });
    case 'updateGroup':
      return commit(state, { ...doc, groups: doc.groups.map((g) => (g.id === action.id ? { ...g, ...action.changes } : g)) });
    case 'deleteGroup':
      return commit(
        state,
        { groups: doc.groups.filter((g) => g.id !== action.id), panels: doc.panels.filter((p) => p.groupId !== action.id) },
        [],
      );
    case 'addPanel': {
      const group = doc.groups.find((g) => g.id === action.groupId);
      if (!group) return state;
      const id = newId('p', doc.panels);
      const spot = freeSpot(doc.panels, 0);
      const panel: LayoutPanel = { id, groupId: group.id, x: spot.x, y: spot.y, rotation: 0, optimizerSn: null };
      return commit(state, { ...doc, panels: [...doc.panels, panel] }, [id]);
    }
    case 'move': {
      if (action.dx === 0 && action.dy === 0) return state;
      const moving = new Set(action.ids);
      return commit(state, {
        ...doc,
        panels: doc.panels.map((p) => {
          if (!moving.has(p.id)) return p;
          const s = panelSize(p);
          return { ...p, x: clampX(snap(p.x + action.dx), s.w), y: clampY(snap(p.y + action.dy), s.h) };
        }),
      });
    }
    case 'rotate':
      return commit(state, {
        ...doc,
        panels: doc.panels.map((p) => {
          if (!state.selected.includes(p.id)) return p;
          const rotation = p.rotation === 0 ? 90 : 0;
          const s = panelSize({ rotation });
          return { ...p, rotation, x: clampX(p.x, s.w), y: clampY(p.y, s.h) };
        }),
      });
    case 'delete':
      return commit(state, { ...doc, panels: doc.panels.filter((p) => !state.selected.includes(p.id)) }, []);
    case 'copy': {
      // Copies of the selection (without optimizers) to the right of it; the copies become the selection.
      const chosen = doc.panels.filter((p) => state.selected.includes(p.id));
      if (chosen.length === 0) return state;
      const left = Math.min(...chosen.map((p) => p.x));
      const right = Math.max(...chosen.map((p) => p.x + panelSize(p).w));
      const dx = right - left + LAYOUT_GRID;
      const taken = [...doc.panels];
      const copies = chosen.map((p) => {
        const s = panelSize(p);
        const copy: LayoutPanel = { ...p, id: newId('p', taken), x: clampX(p.x + dx, s.w), optimizerSn: null };
        taken.push(copy);
        return copy;
      });
      return commit(
        state,
        { ...doc, panels: [...doc.panels, ...copies] },
        copies.map((c) => c.id),
      );
    }
    case 'align':
      return commit(state, { ...doc, panels: aligned(doc.panels, state.selected, action.edge) });
    case 'distribute':
      return commit(state, { ...doc, panels: distributed(doc.panels, state.selected, action.axis) });
    case 'bind':
      return commit(state, {
        ...doc,
        panels: doc.panels.map((p) =>
          p.id === action.id
            ? { ...p, optimizerSn: action.optimizerSn }
            : p.optimizerSn === action.optimizerSn && action.optimizerSn
              ? { ...p, optimizerSn: null }
              : p,
        ),
      });
    case 'undo': {
      const previous = state.past.at(-1);
      if (!previous) return state;
      return { ...state, doc: previous, past: state.past.slice(0, -1), future: [state.doc, ...state.future], selected: [] };
    }
    case 'redo': {
      const next = state.future[0];
      if (!next) return state;
      return { ...state, doc: next, past: [...state.past, state.doc], future: state.future.slice(1), selected: [] };
    }
  }
}

/** Panels inside a box (canvas units), for box selection. */
export function panelsInBox(panels: readonly LayoutPanel[], box: { x1: number; y1: number; x2: number; y2: number }): string[] {
  const left = Math.min(box.x1, box.x2);
  const right = Math.max(box.x1, box.x2);
  const top = Math.min(box.y1, box.y2);
  const bottom = Math.max(box.y1, box.y2);
  return panels
    .filter((p) => {
      const s = panelSize(p);
      return p.x < right && p.x + s.w > left && p.y < bottom && p.y + s.h > top;
    })
    .map((p) => p.id);
}

/** Heat colour of a share of rated power (0–1+), in 10 % bands: red (low) through amber to green; violet above 100 %. */
export function heatColour(share: number | null): string {
  if (share === null || !Number.isFinite(share)) return '#d9d9d9';
  if (share > 1) return '#722ed1';
  const band = Math.min(9, Math.max(0, Math.floor(share * 10)));
  return HEAT[band] ?? '#d9d9d9';
}

/** Ten bands, 0–10 % … 90–100 %. */
export const HEAT = ['#a8071a', '#cf1322', '#f5222d', '#fa541c', '#fa8c16', '#faad14', '#d4b106', '#7cb305', '#389e0d', '#237804'];
