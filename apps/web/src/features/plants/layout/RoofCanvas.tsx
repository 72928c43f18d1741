import { LAYOUT_CANVAS, LAYOUT_GRID, type LayoutGroup, type LayoutPanel } from '@sunward/contracts/plant-layout';
import type { KeyboardEvent, PointerEvent, ReactNode, Ref } from 'react';
import { panelSize } from './layout-editor';

/** The panels' bounding box with a margin, so a small roof is not lost in the whole canvas. */
export function extentOf(panels: readonly LayoutPanel[]): { w: number; h: number } {
  let w = 0;
  let h = 0;
  for (const p of panels) {
    const s = panelSize(p);
    w = Math.max(w, p.x + s.w);
    h = Math.max(h, p.y + s.h);
  }
  return {
    w: Math.min(LAYOUT_CANVAS.width, Math.max(600, w + 6 * LAYOUT_GRID)),
    h: Math.min(LAYOUT_CANVAS.height, Math.max(360, h + 4 * LAYOUT_GRID)),
  };
}

/**
 * The roof as SVG in canvas units: a grid, the panels (fill by the caller), selection outlines and an
 * optional box. The editor adds pointer and keyboard handling; the live view only fills and clicks.
 */
export function RoofCanvas(props: {
  panels: readonly LayoutPanel[];
  groups: readonly LayoutGroup[];
  fill: (p: LayoutPanel) => string;
  label: (p: LayoutPanel) => string;
  /** The 10 % band a live panel shows (data-band, for tests and tools). */
  band?: (p: LayoutPanel) => number | null;
  selected?: ReadonlySet<string>;
  offset?: { ids: ReadonlySet<string>; dx: number; dy: number };
  box?: { x1: number; y1: number; x2: number; y2: number } | undefined;
  zoom: number;
  size: { w: number; h: number };
  ariaLabel: string;
  interactive?: boolean;
  svgRef?: Ref<SVGSVGElement>;
  onPointerDown?: (e: PointerEvent<SVGSVGElement>) => void;
  onPointerMove?: (e: PointerEvent<SVGSVGElement>) => void;
  onPointerUp?: (e: PointerEvent<SVGSVGElement>) => void;
  onKeyDown?: (e: KeyboardEvent<SVGSVGElement>) => void;
  onPanelClick?: (p: LayoutPanel) => void;
  children?: ReactNode;
}) {
  const { panels, zoom, size } = props;
  const groupNames = new Map(props.groups.map((g) => [g.id, g.name]));
  return (
    <svg
      ref={props.svgRef}
      className="sw-layout-canvas"
      viewBox={`0 0 ${size.w} ${size.h}`}
      width={size.w * zoom}
      height={size.h * zoom}
      role={props.interactive ? 'application' : 'img'}
      aria-label={props.ariaLabel}
      tabIndex={props.interactive ? 0 : undefined}
      onPointerDown={props.onPointerDown}
      onPointerMove={props.onPointerMove}
      onPointerUp={props.onPointerUp}
      onKeyDown={props.onKeyDown}
      data-testid="roof-canvas"
    >
      <defs>
        <pattern id="sw-layout-grid" width={LAYOUT_GRID} height={LAYOUT_GRID} patternUnits="userSpaceOnUse">
          <path d={`M ${LAYOUT_GRID} 0 L 0 0 0 ${LAYOUT_GRID}`} fill="none" stroke="#e8e8e8" strokeWidth={1} />
        </pattern>
      </defs>
      <rect x={0} y={0} width={size.w} height={size.h} fill="url(#sw-layout-grid)" data-background="true" />
      {panels.map((p) => {
        const s = panelSize(p);
        const moving = props.offset?.ids.has(p.id);
        const x = p.x + (moving ? (props.offset?.dx ?? 0) : 0);
        const y = p.y + (moving ? (props.offset?.dy ?? 0) : 0);
        const selected = props.selected?.has(p.id) ?? false;
        return (
          // biome-ignore lint/a11y/noStaticElementInteractions: the canvas (role application) takes the keyboard; a click is a shortcut
          <g
            key={p.id}
            data-panel={p.id}
            data-optimizer={p.optimizerSn ?? ''}
            data-fill={props.fill(p)}
            data-band={props.band?.(p) ?? undefined}
            data-selected={selected ? 'true' : 'false'}
            onClick={props.onPanelClick ? () => props.onPanelClick?.(p) : undefined}
            className="sw-layout-panel"
          >
            <title>{props.label(p)}</title>
            <rect
              x={x + 1}
              y={y + 1}
              width={s.w - 2}
              height={s.h - 2}
              rx={3}
              fill={props.fill(p)}
              stroke={selected ? '#1677ff' : '#595959'}
              strokeWidth={selected ? 4 : 1}
            />
            <line x1={x + 1} y1={y + s.h / 2} x2={x + s.w - 1} y2={y + s.h / 2} stroke="rgba(255,255,255,0.55)" strokeWidth={1} />
            <text x={x + s.w / 2} y={y + s.h / 2 - 4} textAnchor="middle" fontSize={10} fill="#fff" pointerEvents="none">
              {(groupNames.get(p.groupId) ?? '').slice(0, 6)}
            </text>
          </g>
        );
      })}
      {props.box && (
        <rect
          x={Math.min(props.box.x1, props.box.x2)}
          y={Math.min(props.box.y1, props.box.y2)}
          width={Math.abs(props.box.x2 - props.box.x1)}
          height={Math.abs(props.box.y2 - props.box.y1)}
          fill="rgba(22,119,255,0.12)"
          stroke="#1677ff"
          strokeDasharray="6 4"
          data-testid="selection-box"
        />
      )}
      {props.children}
    </svg>
  );
}
