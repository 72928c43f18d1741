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
});
