import { LAYOUT_PANELS_MAX, type LayoutGroup } from '@sunward/contracts/plant-layout';
import { describe, expect, it } from 'vitest';
import { editorReducer, heatColour, initialState, isDirty, panelsInBox, refusalOf } from './layout-editor';

const group: LayoutGroup = {
  id: 'g1',
  name: 'A',
  inclinationDeg: 30,
  azimuthDeg: 180,
  panelRatedPowerW: 450,
  inverterSn: null,
  stringNo: null,
};

describe('layout editor', () => {
  it('adds panels on free grid places, moves them snapped, and undoes and redoes', () => {
    let s = initialState({ groups: [group], panels: [] });
    s = editorReducer(s, { type: 'addPanel', groupId: 'g1' });
    s = editorReducer(s, { type: 'addPanel', groupId: 'g1' });
    const [a, b] = s.doc.panels;
    expect(a && b && (a.x !== b.x || a.y !== b.y)).toBe(true);
    s = editorReducer(s, { type: 'move', ids: [a?.id ?? ''], dx: 47, dy: 7 });
    expect(s.doc.panels[0]?.x).toBe((a?.x ?? 0) + 40);
    expect(s.doc.panels[0]?.y).toBe(a?.y);
    expect(isDirty(s)).toBe(true);
    s = editorReducer(s, { type: 'undo' });
    expect(s.doc.panels[0]?.x).toBe(a?.x);
    s = editorReducer(s, { type: 'redo' });
    expect(s.doc.panels[0]?.x).toBe((a?.x ?? 0) + 40);
  });

  it('rotates and deletes the selection; a bound panel, its group and the 100th panel are refused', () => {
    let s = initialState({ groups: [group], panels: [] });
    s = editorReducer(s, { type: 'addPanel', groupId: 'g1' });
    const id = s.doc.panels[0]?.id ?? '';
    s = editorReducer(s, { type: 'select', ids: [id] });
    s = editorReducer(s, { type: 'rotate' });
    expect(s.doc.panels[0]?.rotation).toBe(90);
    s = editorReducer(s, { type: 'copy' });
    expect(s.doc.panels).toHaveLength(2);
    expect(s.doc.panels[1]?.x).toBeGreaterThan(s.doc.panels[0]?.x ?? 0);
    s = editorReducer(s, { type: 'undo' });
    s = editorReducer(s, { type: 'select', ids: [id] });
    s = editorReducer(s, { type: 'bind', id, optimizerSn: 'OP1' });
    expect(refusalOf(s, { type: 'delete' })).toBe('panelLocked');
    expect(refusalOf(s, { type: 'deleteGroup', id: 'g1' })).toBe('groupLocked');
    s = editorReducer(s, { type: 'bind', id, optimizerSn: null });
    s = editorReducer(s, { type: 'delete' });
    expect(s.doc.panels).toHaveLength(0);
    for (let i = 0; i < LAYOUT_PANELS_MAX; i++) s = editorReducer(s, { type: 'addPanel', groupId: 'g1' });
    expect(s.doc.panels).toHaveLength(LAYOUT_PANELS_MAX);
    expect(refusalOf(s, { type: 'addPanel', groupId: 'g1' })).toBe('tooMany');
    expect(editorReducer(s, { type: 'addPanel', groupId: 'g1' }).doc.panels).toHaveLength(LAYOUT_PANELS_MAX);
  });

  it('selects the panels a box touches and colours power in 10 % bands', () => {
    const panels = [
      { id: 'a', groupId: 'g1', x: 0, y: 0, rotation: 0 as const, optimizerSn: null },
      { id: 'b', groupId: 'g1', x: 200, y: 0, rotation: 0 as const, optimizerSn: null },
    ];
    expect(panelsInBox(panels, { x1: 10, y1: 10, x2: 100, y2: 100 })).toEqual(['a']);
    expect(heatColour(0.95)).not.toBe(heatColour(0.55));
    expect(heatColour(0.55)).toBe(heatColour(0.59));
    expect(heatColour(1.2)).toBe('#722ed1');
  });

  it('aligns a selection on an edge or its centre and spreads it evenly, each an undoable step', () => {
    const panel = (id: string, x: number, y: number, rotation: 0 | 90 = 0) => ({ id, groupId: 'g1', x, y, rotation, optimizerSn: null });
    // a, c portrait (40×80); b landscape (80×40).
    let s = initialState({ groups: [group], panels: [panel('a', 20, 100), panel('b', 100, 40, 90), panel('c', 400, 60)] });
    s = editorReducer(s, { type: 'select', ids: ['a', 'b', 'c'] });
    const pos = () => s.doc.panels.map((p) => [p.x, p.y]);
    s = editorReducer(s, { type: 'align', edge: 'top' });
    expect(pos()).toEqual([
      [20, 40],
      [100, 40],
      [400, 40],
    ]);
    s = editorReducer(s, { type: 'align', edge: 'bottom' });
    expect(pos()).toEqual([
      [20, 40],
      [100, 80],
      [400, 40],
    ]);
    s = editorReducer(s, { type: 'align', edge: 'left' });
    expect(pos().map(([x]) => x)).toEqual([20, 20, 20]);
    s = editorReducer(s, { type: 'undo' });
    s = editorReducer(s, { type: 'select', ids: ['a', 'b', 'c'] });
    s = editorReducer(s, { type: 'align', edge: 'right' });
    // Right edges at 440: portrait x 400, landscape x 360.
    expect(pos().map(([x]) => x)).toEqual([400, 360, 400]);
    s = editorReducer(s, { type: 'undo' });
    s = editorReducer(s, { type: 'select', ids: ['a', 'b', 'c'] });
    s = editorReducer(s, { type: 'align', edge: 'centre' });
    // Box 20–440, centre 230: portrait x 210, landscape x 190.
    expect(pos().map(([x]) => x)).toEqual([210, 190, 210]);
    s = editorReducer(s, { type: 'undo' });
    s = editorReducer(s, { type: 'select', ids: ['a', 'b', 'c'] });
    // Horizontal: a (20–60) and c (400–440) stay; gap (420 − 40 − 80 − 40) / 2 = 130, so b at 190.
    s = editorReducer(s, { type: 'distribute', axis: 'horizontal' });
    expect(pos().map(([x]) => x)).toEqual([20, 190, 400]);
    s = editorReducer(s, { type: 'undo' });
    expect(pos().map(([x]) => x)).toEqual([20, 100, 400]);
    // Vertical: a (0–80) and c (400–480) stay; gap (480 − 80 − 40 − 80) / 2 = 140, so b (landscape) at 220.
    s = initialState({ groups: [group], panels: [panel('a', 0, 0), panel('b', 100, 100, 90), panel('c', 200, 400)] });
    s = editorReducer(s, { type: 'select', ids: ['c', 'b', 'a'] });
    s = editorReducer(s, { type: 'distribute', axis: 'vertical' });
    expect(pos().map(([, y]) => y)).toEqual([0, 220, 400]);
    expect(s.past).toHaveLength(1);
    // Fewer than two (align) or three (distribute) panels: nothing changes and nothing goes on the undo stack.
    s = editorReducer(s, { type: 'select', ids: ['a', 'b'] });
    const before = s;
    s = editorReducer(s, { type: 'distribute', axis: 'horizontal' });
    expect(s.past).toHaveLength(before.past.length);
    s = editorReducer(s, { type: 'select', ids: ['a'] });
    s = editorReducer(s, { type: 'align', edge: 'left' });
    expect(s.past).toHaveLength(before.past.length);
  });
});
