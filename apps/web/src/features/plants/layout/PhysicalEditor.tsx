import {
  AlignCenterOutlined,
  AlignLeftOutlined,
  AlignRightOutlined,
  ColumnHeightOutlined,
  ColumnWidthOutlined,
  CopyOutlined,
  DeleteOutlined,
  PlusOutlined,
  RedoOutlined,
  RotateRightOutlined,
  SaveOutlined,
  UndoOutlined,
  VerticalAlignBottomOutlined,
  VerticalAlignTopOutlined,
  ZoomInOutlined,
  ZoomOutOutlined,
} from '@ant-design/icons';
import { Code } from '@sunward/contracts/codes';
import {
  LAYOUT_CANVAS,
  LAYOUT_GRID,
  LAYOUT_GROUPS_MAX,
  LAYOUT_PANELS_MAX,
  type LayoutDevice,
  type LayoutGroup,
  type LayoutPanel,
  type PhysicalLayout,
} from '@sunward/contracts/plant-layout';
import { formatPower } from '@sunward/contracts/units';
import { useMutation } from '@tanstack/react-query';
import { Alert, App, Button, Card, Empty, Form, Input, InputNumber, Progress, Select, Space, Tooltip, Typography } from 'antd';
import { type KeyboardEvent, type PointerEvent, type ReactNode, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiCallError } from '../../../lib/api-client';
import { saveLayout } from './api';
import {
  ALIGN_MIN,
  type AlignEdge,
  DISTRIBUTE_MIN,
  type DistributeAxis,
  type EditorAction,
  editorReducer,
  initialState,
  isDirty,
  newId,
  panelsInBox,
  type Refusal,
  refusalOf,
  snap,
} from './layout-editor';
import { RoofCanvas } from './RoofCanvas';

const GROUP_FILL = ['#1f3a5f', '#264653', '#3a3f7a', '#2f4f4f', '#4a3b5c', '#2b4c7e'];
const ZOOMS = [0.5, 0.75, 1, 1.25, 1.5];
const ALIGN_ICONS: Record<AlignEdge, ReactNode> = {
  left: <AlignLeftOutlined />,
  centre: <AlignCenterOutlined />,
  right: <AlignRightOutlined />,
  top: <VerticalAlignTopOutlined />,
  bottom: <VerticalAlignBottomOutlined />,
};
const DISTRIBUTE_ICONS: Record<DistributeAxis, ReactNode> = {
  horizontal: <ColumnWidthOutlined />,
  vertical: <ColumnHeightOutlined />,
};

type Drag =
  | { kind: 'move'; x: number; y: number; ids: string[]; dx: number; dy: number }
  | { kind: 'box'; x1: number; y1: number; x2: number; y2: number; add: boolean };

/**
 * The physical layout editor (spec 02 §2/§4/§5): panel groups with inclination, azimuth and rated power
 * wired to an inverter's string; panels dragged on a grid, rotated, multi-selected (shift, box), bound to
 * optimizers, deleted, with undo/redo and zoom. Saves over the version it loaded.
 */
export function PhysicalEditor(props: {
  plantId: number;
  layout: PhysicalLayout;
  devices: LayoutDevice[];
  locale: string;
  onDirty: (dirty: boolean) => void;
  onSaved: (layout: PhysicalLayout) => void;
  onReload: () => void;
}) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const { layout, devices, locale } = props;
  const [state, rawDispatch] = useReducer(editorReducer, { groups: layout.groups, panels: layout.panels }, initialState);
  const [version, setVersion] = useState(layout.version);
  const [zoomIndex, setZoomIndex] = useState(2);
  const [drag, setDrag] = useState<Drag | undefined>();
  const [activeGroup, setActiveGroup] = useState<string | undefined>(layout.groups[0]?.id);
  const svgRef = useRef<SVGSVGElement>(null);
  const dirty = isDirty(state);
  const { doc } = state;
  const selected = useMemo(() => new Set(state.selected), [state.selected]);
  const zoom = ZOOMS[zoomIndex] ?? 1;

  useEffect(() => props.onDirty(dirty), [dirty, props.onDirty]);

  const refusalText: Record<Refusal, string> = {
    tooMany: t('layout.tooMany', { max: LAYOUT_PANELS_MAX }),
    panelLocked: t('layout.panelLocked'),
    groupLocked: t('layout.groupLocked'),
  };
  const dispatch = (action: EditorAction) => {
    const refusal = refusalOf(state, action);
    if (refusal) {
      void message.warning(refusalText[refusal]);
      return;
    }
    rawDispatch(action);
  };

  const firstSelected = doc.panels.find((p) => selected.has(p.id));
  const group = doc.groups.find((g) => g.id === (firstSelected?.groupId ?? activeGroup)) ?? doc.groups[0];
  const inverters = devices.filter((d) => d.family !== 'optimizer');
  const optimizers = devices.filter((d) => d.family === 'optimizer');
  const boundTo = new Map(doc.panels.flatMap((p) => (p.optimizerSn ? [[p.optimizerSn, p.id] as const] : [])));
  const groupIndex = new Map(doc.groups.map((g, i) => [g.id, i]));

  const save = useMutation({
    mutationFn: () => saveLayout(props.plantId, { version, groups: doc.groups, panels: doc.panels }),
    onSuccess: (saved) => {
      setVersion(saved.version);
      rawDispatch({ type: 'saved', doc: { groups: saved.groups, panels: saved.panels } });
      void message.success(t('layout.saved', { version: saved.version }));
      props.onSaved(saved);
    },
    onError: (error) => {
      if (!(error instanceof ApiCallError)) return;
      if (error.code === Code.LAYOUT_VERSION_STALE)
        modal.confirm({
          title: error.message,
          okText: t('layout.reload'),
          cancelText: t('layout.stay'),
          onOk: props.onReload,
        });
      else void message.error(error.message);
    },
  });

  const addGroup = () => {
    if (doc.groups.length >= LAYOUT_GROUPS_MAX) return;
    const inverter = inverters[0];
    const g: LayoutGroup = {
      id: newId('g', doc.groups),
      name: `${String.fromCharCode(65 + (doc.groups.length % 26))}`,
      inclinationDeg: 30,
      azimuthDeg: 180,
      panelRatedPowerW: 450,
      inverterSn: inverter?.sn ?? null,
      stringNo: inverter ? Math.min(inverter.strings, doc.groups.filter((x) => x.inverterSn === inverter.sn).length + 1) : null,
    };
    dispatch({ type: 'addGroup', group: g });
    setActiveGroup(g.id);
  };

  /** Canvas units of a pointer event. */
  const point = (e: PointerEvent<SVGSVGElement>) => {
    const svg = svgRef.current;
    const matrix = svg?.getScreenCTM();
    if (!svg || !matrix) return { x: 0, y: 0 };
    const p = new DOMPoint(e.clientX, e.clientY).matrixTransform(matrix.inverse());
    return { x: p.x, y: p.y };
  };

  const onPointerDown = (e: PointerEvent<SVGSVGElement>) => {
    if (e.button !== 0) return;
    const target = (e.target as Element).closest('[data-panel]');
    const at = point(e);
    e.currentTarget.setPointerCapture?.(e.pointerId);
    if (target) {
      const id = target.getAttribute('data-panel') ?? '';
      if (e.shiftKey) {
        dispatch({ type: 'toggle', id });
        return;
      }
      const ids = selected.has(id) ? state.selected : [id];
      if (!selected.has(id)) dispatch({ type: 'select', ids });
      setDrag({ kind: 'move', x: at.x, y: at.y, ids, dx: 0, dy: 0 });
    } else setDrag({ kind: 'box', x1: at.x, y1: at.y, x2: at.x, y2: at.y, add: e.shiftKey });
  };
  const onPointerMove = (e: PointerEvent<SVGSVGElement>) => {
    if (!drag) return;
    const at = point(e);
    if (drag.kind === 'move') setDrag({ ...drag, dx: snap(at.x - drag.x), dy: snap(at.y - drag.y) });
    else setDrag({ ...drag, x2: at.x, y2: at.y });
  };
  const onPointerUp = () => {
    if (!drag) return;
    if (drag.kind === 'move') dispatch({ type: 'move', ids: drag.ids, dx: drag.dx, dy: drag.dy });
    else {
      const inBox = Math.abs(drag.x2 - drag.x1) + Math.abs(drag.y2 - drag.y1) > 4 ? panelsInBox(doc.panels, drag) : [];
      dispatch({ type: 'select', ids: drag.add ? [...new Set([...state.selected, ...inBox])] : inBox });
    }
    setDrag(undefined);
  };
  const onKeyDown = (e: KeyboardEvent<SVGSVGElement>) => {
    const step = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[e.key];
    const mod = e.ctrlKey || e.metaKey;
    if (step && state.selected.length > 0) {
      e.preventDefault();
      dispatch({ type: 'move', ids: state.selected, dx: (step[0] ?? 0) * LAYOUT_GRID, dy: (step[1] ?? 0) * LAYOUT_GRID });
    } else if (e.key === 'Delete' || e.key === 'Backspace') {
      e.preventDefault();
      if (state.selected.length > 0) dispatch({ type: 'delete' });
    } else if (e.key.toLowerCase() === 'r' && !mod) dispatch({ type: 'rotate' });
    else if (mod && e.key.toLowerCase() === 'z') {
      e.preventDefault();
      dispatch({ type: e.shiftKey ? 'redo' : 'undo' });
    } else if (mod && e.key.toLowerCase() === 'y') {
      e.preventDefault();
      dispatch({ type: 'redo' });
    } else if (mod && e.key.toLowerCase() === 'd') {
      e.preventDefault();
      dispatch({ type: 'copy' });
    } else if (mod && e.key.toLowerCase() === 'a') {
      e.preventDefault();
      dispatch({ type: 'select', ids: doc.panels.map((p) => p.id) });
    } else if (e.key === 'Escape') dispatch({ type: 'select', ids: [] });
    else if (e.key === '.' || e.key === ',') {
      // Keyboard selection: next or previous panel.
      if (doc.panels.length === 0) return;
      const at = firstSelected ? doc.panels.indexOf(firstSelected) : -1;
      const next = (at + (e.key === '.' ? 1 : -1) + doc.panels.length) % doc.panels.length;
      dispatch({ type: 'select', ids: [doc.panels[next]?.id ?? ''] });
    }
  };

  const fill = (p: LayoutPanel) => GROUP_FILL[(groupIndex.get(p.groupId) ?? 0) % GROUP_FILL.length] ?? '#1f3a5f';
  const label = (p: LayoutPanel) => `${doc.groups.find((g) => g.id === p.groupId)?.name ?? ''} ${p.optimizerSn ?? t('layout.noOptimizer')}`;
  const groupPanels = group ? doc.panels.filter((p) => p.groupId === group.id).length : 0;
  const single = state.selected.length === 1 ? firstSelected : undefined;

  return (
    <div className="sw-layout-editor" data-testid="physical-editor">
      <Space wrap className="sw-layout-toolbar">
        <Button icon={<PlusOutlined />} onClick={addGroup} data-testid="add-group" disabled={doc.groups.length >= LAYOUT_GROUPS_MAX}>
          {t('layout.addGroup')}
        </Button>
        <Button
          icon={<PlusOutlined />}
          onClick={() => group && dispatch({ type: 'addPanel', groupId: group.id })}
          disabled={!group}
          data-testid="add-panel"
        >
          {t('layout.addPanel')}
        </Button>
        <Tooltip title="R">
          <Button
            icon={<RotateRightOutlined />}
            onClick={() => dispatch({ type: 'rotate' })}
            disabled={selected.size === 0}
            data-testid="rotate"
          >
            {t('layout.rotate')}
          </Button>
        </Tooltip>
        <Tooltip title="Ctrl+D">
          <Button icon={<CopyOutlined />} onClick={() => dispatch({ type: 'copy' })} disabled={selected.size === 0} data-testid="copy">
            {t('layout.copy')}
          </Button>
        </Tooltip>
        <Space.Compact>
          {(Object.keys(ALIGN_ICONS) as AlignEdge[]).map((edge) => (
            <Tooltip key={edge} title={t(`layout.align.${edge}`)}>
              <Button
                icon={ALIGN_ICONS[edge]}
                aria-label={t(`layout.align.${edge}`)}
                onClick={() => dispatch({ type: 'align', edge })}
                disabled={selected.size < ALIGN_MIN}
                data-testid={`align-${edge}`}
              />
            </Tooltip>
          ))}
          {(Object.keys(DISTRIBUTE_ICONS) as DistributeAxis[]).map((axis) => (
            <Tooltip key={axis} title={t(`layout.distribute.${axis}`)}>
              <Button
                icon={DISTRIBUTE_ICONS[axis]}
                aria-label={t(`layout.distribute.${axis}`)}
                onClick={() => dispatch({ type: 'distribute', axis })}
                disabled={selected.size < DISTRIBUTE_MIN}
                data-testid={`distribute-${axis}`}
              />
            </Tooltip>
          ))}
        </Space.Compact>
        <Button
          icon={<DeleteOutlined />}
          danger
          onClick={() => dispatch({ type: 'delete' })}
          disabled={selected.size === 0}
          data-testid="delete"
        >
          {t('layout.delete')}
        </Button>
        <Tooltip title="Ctrl+Z">
          <Button icon={<UndoOutlined />} onClick={() => dispatch({ type: 'undo' })} disabled={state.past.length === 0} data-testid="undo">
            {t('layout.undo')}
          </Button>
        </Tooltip>
        <Tooltip title="Ctrl+Y">
          <Button
            icon={<RedoOutlined />}
            onClick={() => dispatch({ type: 'redo' })}
            disabled={state.future.length === 0}
            data-testid="redo"
          >
            {t('layout.redo')}
          </Button>
        </Tooltip>
        <Button
          icon={<ZoomOutOutlined />}
          aria-label={t('layout.zoomOut')}
          onClick={() => setZoomIndex((z) => Math.max(0, z - 1))}
          disabled={zoomIndex === 0}
        />
        <Typography.Text>{Math.round(zoom * 100)} %</Typography.Text>
        <Button
          icon={<ZoomInOutlined />}
          aria-label={t('layout.zoomIn')}
          onClick={() => setZoomIndex((z) => Math.min(ZOOMS.length - 1, z + 1))}
          disabled={zoomIndex === ZOOMS.length - 1}
        />
        <Button
          type="primary"
          icon={<SaveOutlined />}
          onClick={() => save.mutate()}
          loading={save.isPending}
          disabled={!dirty}
          data-testid="save-layout"
        >
          {t('layout.save')}
        </Button>
        <span className="sw-layout-count" data-testid="panel-count">
          <Progress
            type="circle"
            size={28}
            percent={Math.round((doc.panels.length / LAYOUT_PANELS_MAX) * 100)}
            showInfo={false}
            status={doc.panels.length >= LAYOUT_PANELS_MAX ? 'exception' : 'normal'}
          />{' '}
          {t('layout.panelsCount', { count: doc.panels.length, max: LAYOUT_PANELS_MAX })}
          {selected.size > 0 && ` · ${t('layout.selection', { count: selected.size })}`}
        </span>
      </Space>
      <div className="sw-layout-body">
        <div className="sw-layout-scroll">
          {doc.groups.length === 0 && <Alert type="info" showIcon title={t('layout.dragHint')} className="sw-layout-hint" />}
          <RoofCanvas
            svgRef={svgRef}
            interactive
            panels={doc.panels}
            groups={doc.groups}
            fill={fill}
            label={label}
            selected={selected}
            offset={drag?.kind === 'move' ? { ids: new Set(drag.ids), dx: drag.dx, dy: drag.dy } : undefined}
            box={drag?.kind === 'box' ? drag : undefined}
            zoom={zoom}
            size={{ w: LAYOUT_CANVAS.width, h: LAYOUT_CANVAS.height }}
            ariaLabel={t('layout.canvasLabel')}
            onPointerDown={onPointerDown}
            onPointerMove={onPointerMove}
            onPointerUp={onPointerUp}
            onKeyDown={onKeyDown}
          />
        </div>
        <div className="sw-layout-side">
          {group ? (
            <Card size="small" title={t('layout.group')} data-testid="group-card">
              <Form layout="vertical" size="small">
                <Form.Item label={t('layout.group')}>
                  <Select
                    value={group.id}
                    onChange={(id) => {
                      setActiveGroup(id);
                      dispatch({ type: 'select', ids: [] });
                    }}
                    options={doc.groups.map((g) => ({ value: g.id, label: g.name }))}
                    aria-label={t('layout.group')}
                  />
                </Form.Item>
                <Form.Item label={t('layout.groupName')} htmlFor="layout-group-name">
                  <Input
                    id="layout-group-name"
                    value={group.name}
                    maxLength={40}
                    onChange={(e) =>
                      e.target.value.trim() && dispatch({ type: 'updateGroup', id: group.id, changes: { name: e.target.value } })
                    }
                  />
                </Form.Item>
                <Space.Compact block>
                  <Form.Item label={t('layout.inclination')} htmlFor="layout-incl">
                    <InputNumber
                      id="layout-incl"
                      min={0}
                      max={90}
                      value={group.inclinationDeg}
                      onChange={(v) => v !== null && dispatch({ type: 'updateGroup', id: group.id, changes: { inclinationDeg: v } })}
                    />
                  </Form.Item>
                  <Form.Item label={t('layout.azimuth')} htmlFor="layout-azimuth">
                    <InputNumber
                      id="layout-azimuth"
                      min={0}
                      max={359}
                      value={group.azimuthDeg}
                      onChange={(v) => v !== null && dispatch({ type: 'updateGroup', id: group.id, changes: { azimuthDeg: v } })}
                    />
                  </Form.Item>
                </Space.Compact>
                <Form.Item
                  label={t('layout.ratedPower')}
                  htmlFor="layout-rated"
                  extra={t('layout.stringRated', { power: formatPower(group.panelRatedPowerW * groupPanels, locale) })}
                >
                  <InputNumber
                    id="layout-rated"
                    min={1}
                    max={2000}
                    value={group.panelRatedPowerW}
                    onChange={(v) =>
                      v !== null && v > 0 && dispatch({ type: 'updateGroup', id: group.id, changes: { panelRatedPowerW: v } })
                    }
                  />
                </Form.Item>
                <Form.Item label={t('layout.inverter')}>
                  <Select
                    aria-label={t('layout.inverter')}
                    value={group.inverterSn ?? ''}
                    onChange={(sn) =>
                      dispatch({
                        type: 'updateGroup',
                        id: group.id,
                        changes: { inverterSn: sn || null, stringNo: sn ? (group.stringNo ?? 1) : null },
                      })
                    }
                    options={[{ value: '', label: t('layout.none') }, ...inverters.map((d) => ({ value: d.sn, label: d.name }))]}
                  />
                </Form.Item>
                {group.inverterSn && (
                  <Form.Item label={t('layout.stringNo')} htmlFor="layout-string">
                    <InputNumber
                      id="layout-string"
                      min={1}
                      max={inverters.find((d) => d.sn === group.inverterSn)?.strings ?? 32}
                      value={group.stringNo}
                      onChange={(v) => v !== null && dispatch({ type: 'updateGroup', id: group.id, changes: { stringNo: v } })}
                    />
                  </Form.Item>
                )}
                <Button danger size="small" icon={<DeleteOutlined />} onClick={() => dispatch({ type: 'deleteGroup', id: group.id })}>
                  {t('layout.deleteGroup')}
                </Button>
              </Form>
            </Card>
          ) : (
            <Empty description={t('layout.dragHint')} />
          )}
          {single && (
            <Card size="small" title={t('layout.kind.panel')} data-testid="panel-card">
              <Form layout="vertical" size="small">
                <Form.Item label={t('layout.optimizer')}>
                  <Select
                    aria-label={t('layout.optimizer')}
                    data-testid="bind-optimizer"
                    value={single.optimizerSn ?? ''}
                    showSearch
                    onChange={(sn) => dispatch({ type: 'bind', id: single.id, optimizerSn: sn || null })}
                    options={[
                      { value: '', label: t('layout.noOptimizer') },
                      ...optimizers.map((o) => ({
                        value: o.sn,
                        label: boundTo.has(o.sn) && boundTo.get(o.sn) !== single.id ? `${o.name} ✓` : o.name,
                      })),
                    ]}
                  />
                </Form.Item>
              </Form>
            </Card>
          )}
        </div>
      </div>
    </div>
  );
}
