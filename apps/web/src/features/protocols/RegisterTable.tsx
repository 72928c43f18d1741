import { ArrowDownOutlined, ArrowUpOutlined, CopyOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { DATA_TYPES, OPERATIONS, POINT_ROLES, POINT_SECTIONS, type RegisterPointDraft, TYPE_REGISTERS } from '@sunward/contracts/protocols';
import { Button, Checkbox, Input, InputNumber, Select, Space, Table, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/** Problems by field path (points.3.address → message), from the live checks and the server alike. */
export type Problems = ReadonlyMap<string, string>;

/** The next free address after the registers of a function code (where an added row goes). */
function nextAddress(points: readonly RegisterPointDraft[], functionCode: 3 | 4): number {
  const ends = points.filter((p) => p.functionCode === functionCode).map((p) => p.address + p.count);
  return Math.min(65535, ends.length === 0 ? 0 : Math.max(...ends));
}

function uniqueId(points: readonly RegisterPointDraft[], base: string): string {
  const taken = new Set(points.map((p) => p.id));
  for (let n = 2; ; n++) {
    const id = `${base.slice(0, 36)}_${n}`;
    if (!taken.has(id)) return id;
  }
}

export function newRegister(points: readonly RegisterPointDraft[]): RegisterPointDraft {
  const functionCode = points.at(-1)?.functionCode ?? 3;
  return {
    id: uniqueId(points, 'P'),
    label: { en: '', zh: '' },
    functionCode,
    address: nextAddress(points, functionCode),
    count: 1,
    type: 'u16',
    operation: 'r',
  };
}

/**
 * The register table editor (issue 19): every register a row of inputs as spec 02 §3 lists its fields;
 * rows added, moved, duplicated and removed; each cell marked and explained as soon as a check fails
 * (overlaps, widths, types), with the same rules the server applies.
 */
export function RegisterTable({
  points,
  onChange,
  problems,
}: {
  points: readonly RegisterPointDraft[];
  onChange(points: RegisterPointDraft[]): void;
  problems: Problems;
}) {
  const { t } = useTranslation();
  const set = (index: number, patch: Partial<RegisterPointDraft>) =>
    onChange(points.map((p, i) => (i === index ? clean({ ...p, ...patch }) : p)));
  const move = (index: number, by: -1 | 1) => {
    const next = [...points];
    const [row] = next.splice(index, 1);
    if (row) next.splice(index + by, 0, row);
    onChange(next);
  };
  const problem = (index: number, field: string) => problems.get(`points.${index}.${field}`);
  const status = (index: number, field: string) => (problem(index, field) ? 'error' : undefined);
  const rowLabel = (index: number, field: string) => t('protocols.cellLabel', { field: t(`protocols.col_${field}`), row: index + 1 });

  const columns = [
    { key: 'n', title: '#', width: 48, render: (_: unknown, __: RegisterPointDraft, i: number) => i + 1 },
    {
      key: 'id',
      title: t('protocols.col_id'),
      width: 130,
      render: (_: unknown, p: RegisterPointDraft, i: number) => (
        <Input
          size="small"
          value={p.id}
          status={status(i, 'id')}
          aria-label={rowLabel(i, 'id')}
          data-testid={`reg-${i}-id`}
          onChange={(e) => set(i, { id: e.target.value.trim() })}
        />
      ),
    },
    {
      key: 'en',
      title: t('protocols.col_en'),
      width: 190,
      render: (_: unknown, p: RegisterPointDraft, i: number) => (
        <Input
          size="small"
          value={p.label.en}
          status={status(i, 'label')}
          aria-label={rowLabel(i, 'en')}
          data-testid={`reg-${i}-en`}
          onChange={(e) => set(i, { label: { ...p.label, en: e.target.value } })}
        />
      ),
    },
    {
      key: 'zh',
      title: t('protocols.col_zh'),
      width: 150,
      render: (_: unknown, p: RegisterPointDraft, i: number) => (
        <Input
          size="small"
          value={p.label.zh}
          aria-label={rowLabel(i, 'zh')}
          data-testid={`reg-${i}-zh`}
          onChange={(e) => set(i, { label: { ...p.label, zh: e.target.value } })}
        />
      ),
    },
    {
      key: 'fc',
      title: t('protocols.col_fc'),
      width: 80,
      render: (_: unknown, p: RegisterPointDraft, i: number) => (
        <Select<3 | 4>
          size="small"
          value={p.functionCode}
          aria-label={rowLabel(i, 'fc')}
          onChange={(v) => set(i, { functionCode: v })}
          options={[
            { value: 3, label: '03' },
            { value: 4, label: '04' },
          ]}
        />
      ),
    },
    {
      key: 'address',
      title: t('protocols.col_address'),
      width: 100,
      render: (_: unknown, p: RegisterPointDraft, i: number) => (
        <InputNumber
          size="small"
          min={0}
          max={65535}
          precision={0}
          value={p.address}
          status={status(i, 'address')}
          aria-label={rowLabel(i, 'address')}
          data-testid={`reg-${i}-address`}
          onChange={(v) => set(i, { address: v ?? 0 })}
        />
      ),
    },
    {
      key: 'count',
      title: t('protocols.col_count'),
      width: 80,
      render: (_: unknown, p: RegisterPointDraft, i: number) => (
        <InputNumber
          size="small"
          min={1}
          max={125}
          precision={0}
          value={p.count}
          disabled={p.type !== 'string'}
          status={status(i, 'count')}
          aria-label={rowLabel(i, 'count')}
          data-testid={`reg-${i}-count`}
          onChange={(v) => set(i, { count: v ?? 1 })}
        />
      ),
    },
    {
      key: 'type',
      title: t('protocols.col_type'),
      width: 100,
      render: (_: unknown, p: RegisterPointDraft, i: number) => (
        <Select<RegisterPointDraft['type']>
          size="small"
          value={p.type}
          status={status(i, 'type')}
          aria-label={rowLabel(i, 'type')}
          data-testid={`reg-${i}-type`}
          onChange={(type) => set(i, { type, count: type === 'string' ? Math.max(p.count, 1) : TYPE_REGISTERS[type] })}
          options={DATA_TYPES.map((type) => ({ value: type, label: type }))}
          style={{ width: '100%' }}
        />
      ),
    },
    {
      key: 'unit',
      title: t('protocols.col_unit'),
      width: 70,
      render: (_: unknown, p: RegisterPointDraft, i: number) => (
        <Input
          size="small"
          value={p.unit ?? ''}
          aria-label={rowLabel(i, 'unit')}
          data-testid={`reg-${i}-unit`}
          onChange={(e) => set(i, { unit: e.target.value || undefined })}
        />
      ),
    },
    {
      key: 'operation',
      title: t('protocols.col_operation'),
      width: 110,
      render: (_: unknown, p: RegisterPointDraft, i: number) => (
        <Select<RegisterPointDraft['operation']>
          size="small"
          value={p.operation}
          aria-label={rowLabel(i, 'operation')}
          onChange={(operation) => set(i, { operation })}
          options={OPERATIONS.map((o) => ({ value: o, label: t(`protocols.op_${o}`) }))}
          style={{ width: '100%' }}
        />
      ),
    },
    {
      key: 'scale',
      title: t('protocols.col_scale'),
      width: 90,
      render: (_: unknown, p: RegisterPointDraft, i: number) => (
        <InputNumber
          size="small"
          value={p.scale ?? null}
          placeholder="1"
          aria-label={rowLabel(i, 'scale')}
          data-testid={`reg-${i}-scale`}
          onChange={(v) => set(i, { scale: v ?? undefined })}
        />
      ),
    },
    {
      key: 'base',
      title: t('protocols.col_base'),
      width: 80,
      render: (_: unknown, p: RegisterPointDraft, i: number) => (
        <InputNumber
          size="small"
          value={p.base ?? null}
          placeholder="0"
          aria-label={rowLabel(i, 'base')}
          onChange={(v) => set(i, { base: v ?? undefined })}
        />
      ),
    },
    {
      key: 'swaps',
      title: t('protocols.col_swaps'),
      width: 150,
      render: (_: unknown, p: RegisterPointDraft, i: number) => (
        <Space direction="vertical" size={0}>
          <Checkbox checked={p.byteSwap ?? false} onChange={(e) => set(i, { byteSwap: e.target.checked || undefined })}>
            {t('protocols.byteSwap')}
          </Checkbox>
          <Checkbox checked={p.wordSwap ?? false} onChange={(e) => set(i, { wordSwap: e.target.checked || undefined })}>
            {t('protocols.wordSwap')}
          </Checkbox>
        </Space>
      ),
    },
    {
      key: 'skip',
      title: t('protocols.col_skip'),
      width: 70,
      render: (_: unknown, p: RegisterPointDraft, i: number) => (
        <InputNumber
          size="small"
          min={0}
          max={250}
          precision={0}
          value={p.skipBytes ?? null}
          placeholder="0"
          aria-label={rowLabel(i, 'skip')}
          onChange={(v) => set(i, { skipBytes: v ?? undefined })}
        />
      ),
    },
    {
      key: 'required',
      title: t('protocols.col_required'),
      width: 80,
      render: (_: unknown, p: RegisterPointDraft, i: number) => (
        <Checkbox
          checked={p.required ?? false}
          aria-label={rowLabel(i, 'required')}
          onChange={(e) => set(i, { required: e.target.checked || undefined })}
        />
      ),
    },
    {
      key: 'role',
      title: t('protocols.col_role'),
      width: 150,
      render: (_: unknown, p: RegisterPointDraft, i: number) => (
        <Select<RegisterPointDraft['role']>
          size="small"
          allowClear
          value={p.role}
          placeholder={t('protocols.none')}
          aria-label={rowLabel(i, 'role')}
          data-testid={`reg-${i}-role`}
          onChange={(role) => set(i, { role })}
          options={POINT_ROLES.map((r) => ({ value: r, label: t(`protocols.role_${r}`) }))}
          style={{ width: '100%' }}
        />
      ),
    },
    {
      key: 'section',
      title: t('protocols.col_section'),
      width: 130,
      render: (_: unknown, p: RegisterPointDraft, i: number) => (
        <Select<RegisterPointDraft['section']>
          size="small"
          allowClear
          value={p.section}
          placeholder={t('protocols.automatic')}
          aria-label={rowLabel(i, 'section')}
          onChange={(section) => set(i, { section })}
          options={POINT_SECTIONS.map((s) => ({ value: s, label: t(`protocols.section_${s}`) }))}
          style={{ width: '100%' }}
        />
      ),
    },
    {
      key: 'check',
      title: t('protocols.col_check'),
      width: 220,
      render: (_: unknown, __: RegisterPointDraft, i: number) => {
        const found = [...problems].filter(([field]) => field.startsWith(`points.${i}.`)).map(([, text]) => text);
        return found.length === 0 ? (
          <Typography.Text type="success">{t('protocols.rowOk')}</Typography.Text>
        ) : (
          <Typography.Text type="danger" data-testid={`reg-${i}-problem`}>
            {found.join('; ')}
          </Typography.Text>
        );
      },
    },
    {
      key: 'actions',
      title: t('protocols.actions'),
      width: 150,
      fixed: 'right' as const,
      render: (_: unknown, p: RegisterPointDraft, i: number) => (
        <Space size={0}>
          <Tooltip title={t('protocols.moveUp')}>
            <Button
              type="text"
              size="small"
              icon={<ArrowUpOutlined />}
              aria-label={`${t('protocols.moveUp')} ${i + 1}`}
              disabled={i === 0}
              onClick={() => move(i, -1)}
            />
          </Tooltip>
          <Tooltip title={t('protocols.moveDown')}>
            <Button
              type="text"
              size="small"
              icon={<ArrowDownOutlined />}
              aria-label={`${t('protocols.moveDown')} ${i + 1}`}
              disabled={i === points.length - 1}
              onClick={() => move(i, 1)}
            />
          </Tooltip>
          <Tooltip title={t('protocols.duplicate')}>
            <Button
              type="text"
              size="small"
              icon={<CopyOutlined />}
              aria-label={`${t('protocols.duplicate')} ${i + 1}`}
              data-testid={`reg-${i}-duplicate`}
              onClick={() => {
                const copy = { ...p, id: uniqueId(points, p.id), address: nextAddress(points, p.functionCode), role: undefined };
                onChange([...points.slice(0, i + 1), copy, ...points.slice(i + 1)]);
              }}
            />
          </Tooltip>
          <Tooltip title={t('protocols.removeRow')}>
            <Button
              type="text"
              size="small"
              danger
              icon={<DeleteOutlined />}
              aria-label={`${t('protocols.removeRow')} ${i + 1}`}
              onClick={() => onChange(points.filter((_, j) => j !== i))}
            />
          </Tooltip>
        </Space>
      ),
    },
  ];

  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Table<RegisterPointDraft>
        rowKey={(_, i) => String(i)}
        size="small"
        data-testid="register-table"
        dataSource={[...points]}
        columns={columns}
        pagination={false}
        scroll={{ x: 2300 }}
        locale={{ emptyText: t('protocols.noRegisters') }}
      />
      <Button icon={<PlusOutlined />} onClick={() => onChange([...points, newRegister(points)])} data-testid="register-add">
        {t('protocols.addRegister')}
      </Button>
    </Space>
  );
}

/** Drops fields that went back to their default, so the stored map stays as small as a typed one. */
function clean(point: RegisterPointDraft): RegisterPointDraft {
  const out: RegisterPointDraft = { ...point };
  for (const key of Object.keys(out) as (keyof RegisterPointDraft)[]) if (out[key] === undefined) delete out[key];
  return out;
}
