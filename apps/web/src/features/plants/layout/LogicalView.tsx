import { WarningFilled } from '@ant-design/icons';
import { LOGICAL_PERIODS, type LogicalLayout, type LogicalNode, type LogicalPeriod } from '@sunward/contracts/plant-layout';
import { formatEnergy, formatPower } from '@sunward/contracts/units';
import { Button, Empty, Segmented, Space, Tag, Tooltip, Tree, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { heatColour } from './layout-editor';

function keysOf(node: LogicalNode): string[] {
  return node.children.length > 0 ? [node.key, ...node.children.flatMap(keysOf)] : [];
}

interface TreeItem {
  key: string;
  node: LogicalNode;
  children: TreeItem[];
}
const toItems = (node: LogicalNode): TreeItem => ({ key: node.key, node, children: node.children.map(toItems) });

/** One node: kind, name, the period's value, efficiency in its 10 % band colour, a warning above 100 %. */
function NodeTitle({ node, locale }: { node: LogicalNode; locale: string }) {
  const { t } = useTranslation();
  const value =
    node.value === null
      ? t('layout.noData')
      : node.unit === 'W'
        ? formatPower(node.value, locale)
        : formatEnergy(node.value * 1000, locale);
  const eff = node.efficiencyPct;
  const over = eff !== null && eff > 100;
  const name = node.kind === 'unassigned' ? t('layout.kind.unassigned') : node.kind === 'other' ? t('layout.otherName') : node.name;
  return (
    <span className="sw-layout-node" data-testid={`node-${node.key}`} data-efficiency={eff ?? ''} data-value={node.value ?? ''}>
      <Typography.Text type="secondary" className="sw-layout-kind">
        {t(`layout.kind.${node.kind}`)}
      </Typography.Text>
      <span className={node.active ? 'sw-layout-name' : 'sw-layout-name sw-layout-inactive'}>{name}</span>
      <span className="sw-layout-value">{value}</span>
      {eff !== null && (
        <Tag
          variant="outlined"
          style={{ borderColor: heatColour(eff / 100), color: over ? heatColour(eff / 100) : undefined }}
          aria-label={`${t('layout.efficiency')} ${eff} %`}
        >
          <span className="sw-layout-swatch" style={{ background: heatColour(eff / 100) }} aria-hidden />
          {eff} %
        </Tag>
      )}
      {over && (
        <Tooltip title={t('layout.overHundred')}>
          <Typography.Text type="warning" data-testid="over-hundred">
            <WarningFilled aria-hidden /> {t('layout.overHundred')}
          </Typography.Text>
        </Tooltip>
      )}
    </span>
  );
}

/** Root → inverters → strings → optimizers → panels, collapsible, with the chosen period's values. */
export function LogicalView(props: {
  data: LogicalLayout | undefined;
  loading: boolean;
  period: LogicalPeriod;
  onPeriod: (p: LogicalPeriod) => void;
  locale: string;
}) {
  const { t } = useTranslation();
  const { data, period, onPeriod, locale } = props;
  const all = useMemo(() => (data ? keysOf(data.root) : []), [data]);
  const [collapsed, setCollapsed] = useState<Set<string>>(new Set());
  const expanded = all.filter((k) => !collapsed.has(k));
  return (
    <div data-testid="logical-view">
      <Space wrap className="sw-layout-toolbar">
        <Segmented<LogicalPeriod>
          value={period}
          onChange={onPeriod}
          options={LOGICAL_PERIODS.map((p) => ({ value: p, label: t(`layout.period.${p}`) }))}
        />
        <Button onClick={() => setCollapsed(new Set())}>{t('layout.expandAll')}</Button>
        <Button onClick={() => setCollapsed(new Set(all.filter((k) => k !== 'root')))}>{t('layout.collapseAll')}</Button>
      </Space>
      {!data ? (
        props.loading ? null : (
          <Empty />
        )
      ) : data.root.children.length === 0 ? (
        <Empty description={t('layout.noLayout')} />
      ) : (
        <Tree<TreeItem>
          blockNode
          showLine
          selectable={false}
          treeData={[toItems(data.root)]}
          expandedKeys={expanded}
          onExpand={(keys) => setCollapsed(new Set(all.filter((k) => !keys.includes(k))))}
          titleRender={(item) => <NodeTitle node={item.node} locale={locale} />}
        />
      )}
    </div>
  );
}
