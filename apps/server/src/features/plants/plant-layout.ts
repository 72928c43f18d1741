import type { LayoutGroup, LayoutPanel, LogicalNode, LogicalPeriod } from '@sunward/contracts/plant-layout';

/** What the tree needs of a device: its measured value for the period and its rated power. */
export interface TreeDevice {
  sn: string;
  family: string;
  name: string;
  ratedPowerW: number | null;
  /** W (period power) or kWh. */
  value: number | null;
  powerW: number | null;
  active: boolean;
}

export const PV_FAMILIES = ['inverter', 'hybrid_inverter', 'micro_inverter'];

const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;

function efficiency(powerW: number | null, ratedW: number | null): number | null {
  if (powerW === null || ratedW === null || ratedW <= 0) return null;
  return round((powerW / ratedW) * 100, 1);
}

function sum(values: (number | null)[]): number | null {
  const known = values.filter((v): v is number => v !== null);
  return known.length === 0 ? null : known.reduce((a, b) => a + b, 0);
}

interface Texts {
  root: string;
  unassigned: string;
  string: (no: number | null, group: string) => string;
  panel: (group: string, index: number) => string;
}

/**
 * The logical view (spec 01 §2): root → inverters → strings (tandems: a panel group wired to an input)
 * → optimizers → panels. Values are the devices' for the period; a string's and the root's are the sums of
 * their children (the root's, of its inverters); efficiency is live power against rated power (a panel:
 * its group's panel rating), so a wrong installed capacity shows above 100 %.
 */
export function logicalTree(input: {
  plantName: string;
  period: LogicalPeriod;
  devices: readonly TreeDevice[];
  groups: readonly LayoutGroup[];
  panels: readonly LayoutPanel[];
  texts: Texts;
}): LogicalNode {
  const unit = input.period === 'power' ? 'W' : 'kWh';
  const bySn = new Map(input.devices.map((d) => [d.sn, d]));
  const digits = unit === 'W' ? 0 : 2;
  const node = (n: Omit<LogicalNode, 'unit' | 'value'> & { value: number | null }): LogicalNode => ({
    ...n,
    unit,
    value: n.value === null ? null : round(n.value, digits),
  });

  const panelNode = (panel: LayoutPanel, group: LayoutGroup, index: number): LogicalNode => {
    const optimizer = panel.optimizerSn ? bySn.get(panel.optimizerSn) : undefined;
    return node({
      key: `panel:${panel.id}`,
      kind: 'panel',
      name: input.texts.panel(group.name, index),
      sn: null,
      value: optimizer?.value ?? null,
      ratedPowerW: group.panelRatedPowerW,
      efficiencyPct: efficiency(optimizer?.powerW ?? null, group.panelRatedPowerW),
      leaf: true,
      active: optimizer?.active ?? false,
      children: [],
    });
  };

  const stringNode = (group: LayoutGroup): LogicalNode => {
    const panels = input.panels.filter((p) => p.groupId === group.id);
    const children = panels.map((panel, i) => {
      const leaf = panelNode(panel, group, i + 1);
      const optimizer = panel.optimizerSn ? bySn.get(panel.optimizerSn) : undefined;
      if (!optimizer) return leaf;
      return node({
        key: `optimizer:${optimizer.sn}`,
        kind: 'optimizer',
        name: optimizer.name,
        sn: optimizer.sn,
        value: optimizer.value,
        ratedPowerW: group.panelRatedPowerW,
        efficiencyPct: efficiency(optimizer.powerW, group.panelRatedPowerW),
        leaf: false,
        active: optimizer.active,
        children: [leaf],
      });
    });
    const rated = group.panelRatedPowerW * panels.length;
    const optimizers = panels.flatMap((p) => (p.optimizerSn && bySn.get(p.optimizerSn) ? [bySn.get(p.optimizerSn) as TreeDevice] : []));
    return node({
      key: `string:${group.id}`,
      kind: 'tandem',
      name: input.texts.string(group.stringNo, group.name),
      sn: null,
      value: sum(children.map((c) => c.value)),
      ratedPowerW: rated || null,
      efficiencyPct:
        optimizers.length > 0 ? efficiency(sum(optimizers.map((o) => o.powerW)), group.panelRatedPowerW * optimizers.length) : null,
      leaf: children.length === 0,
      active: children.some((c) => c.active),
      children,
    });
  };

  const inverters = input.devices.filter((d) => PV_FAMILIES.includes(d.family));
  const inverterNodes = inverters.map((inv) => {
    const groups = input.groups.filter((g) => g.inverterSn === inv.sn).sort((a, b) => (a.stringNo ?? 99) - (b.stringNo ?? 99));
    const children = groups.map(stringNode);
    // The inverter's inputs the layout does not describe (a roof partly on optimizers): the rest of its value,
    // so its children add up to it. Under 1 % is conversion loss and rounding, not a missing string.
    const described = sum(children.map((c) => c.value));
    const rest = inv.value !== null && described !== null ? inv.value - described : null;
    if (rest !== null && inv.value !== null && rest > Math.max(inv.value * 0.01, 0))
      children.push(
        node({
          key: `other:${inv.sn}`,
          kind: 'other',
          name: '',
          sn: null,
          value: rest,
          ratedPowerW: null,
          efficiencyPct: null,
          leaf: true,
          active: inv.active,
          children: [],
        }),
      );
    return node({
      key: `inverter:${inv.sn}`,
      kind: 'inverter',
      name: inv.name,
      sn: inv.sn,
      value: inv.value,
      ratedPowerW: inv.ratedPowerW,
      efficiencyPct: efficiency(inv.powerW, inv.ratedPowerW),
      leaf: children.length === 0,
      active: inv.active,
      children,
    });
  });

  // Groups wired to no inverter of the plant, and optimizers on no panel.
  const wired = new Set(inverters.map((i) => i.sn));
  const looseGroups = input.groups.filter((g) => g.inverterSn === null || !wired.has(g.inverterSn)).map(stringNode);
  const bound = new Set(input.panels.flatMap((p) => (p.optimizerSn ? [p.optimizerSn] : [])));
  const looseOptimizers = input.devices
    .filter((d) => d.family === 'optimizer' && !bound.has(d.sn))
    .map((d) =>
      node({
        key: `optimizer:${d.sn}`,
        kind: 'optimizer',
        name: d.name,
        sn: d.sn,
        value: d.value,
        ratedPowerW: d.ratedPowerW,
        efficiencyPct: efficiency(d.powerW, d.ratedPowerW),
        leaf: true,
        active: d.active,
        children: [],
      }),
    );
  const loose = [...looseGroups, ...looseOptimizers];
  const children = [...inverterNodes];
  if (loose.length > 0)
    children.push(
      node({
        key: 'unassigned',
        kind: 'unassigned',
        name: input.texts.unassigned,
        sn: null,
        value: sum(loose.map((c) => c.value)),
        ratedPowerW: null,
        efficiencyPct: null,
        leaf: false,
        active: loose.some((c) => c.active),
        children: loose,
      }),
    );
  const rated = sum(inverters.map((i) => i.ratedPowerW));
  return node({
    key: 'root',
    kind: 'root',
    name: input.plantName || input.texts.root,
    sn: null,
    value: sum(inverterNodes.map((c) => c.value)),
    ratedPowerW: rated,
    efficiencyPct: efficiency(sum(inverters.map((i) => i.powerW)), rated),
    leaf: children.length === 0,
    active: inverterNodes.some((c) => c.active),
    children,
  });
}

/** Why a save is refused besides the version: references outside the plant, an optimizer on two panels. */
export function invalidReferences(
  groups: readonly LayoutGroup[],
  panels: readonly LayoutPanel[],
  devices: readonly { sn: string; family: string }[],
): string[] {
  const problems: string[] = [];
  const groupIds = new Set<string>();
  for (const g of groups) {
    if (groupIds.has(g.id)) problems.push(`group ${g.id} twice`);
    groupIds.add(g.id);
    if (g.inverterSn !== null && !devices.some((d) => d.sn === g.inverterSn && PV_FAMILIES.includes(d.family)))
      problems.push(`inverter ${g.inverterSn}`);
  }
  const panelIds = new Set<string>();
  const optimizers = new Set<string>();
  for (const p of panels) {
    if (panelIds.has(p.id)) problems.push(`panel ${p.id} twice`);
    panelIds.add(p.id);
    if (!groupIds.has(p.groupId)) problems.push(`panel ${p.id}: group ${p.groupId}`);
    if (p.optimizerSn !== null) {
      if (optimizers.has(p.optimizerSn)) problems.push(`optimizer ${p.optimizerSn} twice`);
      optimizers.add(p.optimizerSn);
      if (!devices.some((d) => d.sn === p.optimizerSn && d.family === 'optimizer')) problems.push(`optimizer ${p.optimizerSn}`);
    }
  }
  return problems;
}
