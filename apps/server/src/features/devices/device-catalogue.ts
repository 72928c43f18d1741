import type { PointInfo, RealtimeSection, RealtimeValue, SectionKey } from '@sunward/contracts/devices';
import type { Language } from '@sunward/contracts/languages';
import { numericPointIds } from '@sunward/protocol/codec';
import { protocolById } from '@sunward/protocol/maps/index';
import type { ProtocolDefinition, RegisterPoint } from '@sunward/protocol/types';
import { localised, localisedEventText } from '../events/event-text.js';

/*
 * What a device's detail page shows, derived from its register map (maps as data): which section each
 * point belongs to, which points a chart may draw, which counters make the month/year/total bars, and
 * the spec 01 §3 type code of an inverter. Pure: no database, testable alone.
 */

/** Section of a point by its id; the order matters (first match wins). */
const SECTION_RULES: readonly [RegExp, SectionKey][] = [
  [/^(DCA|DCV|DCW|DCWH)\d+$|^(DCA|DCV|DCW|PvWH)$|^MpptEvt$/, 'input'],
  [/^InDCA\d+$|^DCAMax$/, 'strings'],
  [/^CellV\d+$|^CellT\d+$/, 'cells'],
  [/^Grid(W|ImpWH|ExpWH)$/, 'grid'],
  [/^TotWh(Imp|Exp)$/, 'meter'],
  [/^Load(W|WH)$/, 'load'],
  [/^Eps/, 'eps'],
  [
    /^(SoC|SoH|NCyc|ChaSt|State|BatEvt1|BatV|BatVMax|BatVMin|CellVMax|CellVMin|CellVAvg|BatA|AChaMax|ADisChaMax|BatW|BatChaWH|BatDisWH|BatTmp|SoCRsvMin|AHRtg|WHRtg|WChaRteMax|WDisChaRteMax|ChaWH|DisChaWH)$/,
    'battery',
  ],
  [/^(GHI|POAI|DFI|DNI|TmpAmb|RH|Pres|WndSpd|WndDir|Rain|TmpBOM|WaterInTmp|WaterOutTmp|TankTmp|AmbTmp)$/, 'environment'],
  [/^(St|Evt|Evt1|DCSt|DCEvt|Conn|WorkMode|SysSt|RelaySt|BmsAlm|SetOp|Mode|TripCnt|RunHours)$|^Tmp(Cab|Snk)?$/, 'status'],
  [
    /^(A|Aph[ABC]|PPVph(AB|BC|CA)|PhVph[ABC]|PhVph(AB|BC|CA)|PhV|PPV|W|Wph[ABC]|Hz|VA|VAph[ABC]|VAr|VAR|VARph[ABC]|PF|PFph[ABC]|WH|Out[AVW]|COP|CompHz|FlowRate|LeakA|DCWh)$/,
    'output',
  ],
];

export function sectionOf(pointId: string): SectionKey {
  for (const [pattern, section] of SECTION_RULES) if (pattern.test(pointId)) return section;
  return 'other';
}

/**
 * The section by point id, adjusted for the family: a battery's own current, voltage and power are
 * battery figures; a heat pump's or a switch's electrical figures are its operation, not an AC output;
 * writable points no rule places are the device's settings.
 */
function familySection(family: string, point: RegisterPoint, section: SectionKey): SectionKey {
  if (family === 'battery' && (section === 'output' || section === 'other')) return 'battery';
  if ((family === 'heat_pump' || family === 'ac_switch') && section === 'output') return 'operation';
  if (section === 'other' && point.operation === 'rw') return 'settings';
  return section;
}

interface Catalogue {
  protocol: ProtocolDefinition;
  /** Numeric points in storage order (index i is values[i]). */
  stored: RegisterPoint[];
  /** Stored points a user reads (scale factors left out). */
  visible: { point: RegisterPoint; index: number; section: SectionKey }[];
  sections: SectionKey[];
}

// Per map object: a protocol edited in the console is a new object, so its catalogue is worked out anew.
const catalogues = new WeakMap<ProtocolDefinition, Catalogue>();

export function catalogueOf(protocolId: string): Catalogue | undefined {
  const protocol = protocolById(protocolId);
  if (!protocol) return undefined;
  const cached = catalogues.get(protocol);
  if (cached) return cached;
  const byId = new Map(protocol.points.map((p) => [p.id, p]));
  // Index i is values[i]; a point an edit removed keeps its (empty) slot, so the indexes stay put.
  const slots = numericPointIds(protocol).map((id, index) => ({ point: byId.get(id), index }));
  const stored = slots.flatMap((s) => (s.point ? [s.point] : []));
  const visible = slots
    .flatMap(({ point, index }) =>
      // A section the protocol names wins over the rules by point id.
      point
        ? [
            {
              point,
              index,
              section: (point.section as SectionKey | undefined) ?? familySection(protocol.family, point, sectionOf(point.id)),
            },
          ]
        : [],
    )
    .filter((v) => !v.point.id.endsWith('_SF') && v.point.type !== 'string' && v.point.operation !== 'w');
  const sections = [...new Set(visible.map((v) => v.section))];
  const catalogue: Catalogue = { protocol, stored, visible, sections };
  catalogues.set(protocol, catalogue);
  return catalogue;
}

const isBits = (point: RegisterPoint) => point.type === 'bits16' || point.type === 'bits32';

/** A point's value as the user reads it: enumerations by name, event bit fields by their events. */
function valueText(protocol: ProtocolDefinition, point: RegisterPoint, value: number | null, language: Language): string | null {
  if (value === null) return null;
  if (point.enumeration) {
    const label = point.enumeration[value];
    return label ? localised(label, language) : String(value);
  }
  if (isBits(point) && point.bitNames) {
    const names = Object.entries(point.bitNames).filter(([bit]) => (value & (2 ** Number(bit))) !== 0);
    return names.length === 0 ? '—' : names.map(([, label]) => localised(label, language)).join(', ');
  }
  if (isBits(point)) {
    const events = protocol.events.filter((e) => e.point === point.id && (value & (2 ** e.bit)) !== 0);
    if (events.length > 0) return events.map((e) => localisedEventText(e.description, language)).join(', ');
    return value === 0 ? '—' : `0x${value.toString(16).toUpperCase().padStart(4, '0')}`;
  }
  return null;
}

const finite = (v: number | undefined): number | null => (v === undefined || !Number.isFinite(v) ? null : v);

/** Realtime values grouped by section, in the map's order; `only` keeps one section. */
export function realtimeSections(protocolId: string, values: readonly number[], language: Language, only?: SectionKey): RealtimeSection[] {
  const catalogue = catalogueOf(protocolId);
  if (!catalogue) return [];
  const bySection = new Map<SectionKey, RealtimeValue[]>();
  for (const { point, index, section } of catalogue.visible) {
    if (only && section !== only) continue;
    const value = finite(values[index]);
    const list = bySection.get(section) ?? [];
    list.push({
      id: point.id,
      label: localised(point.label, language),
      unit: point.unit ?? null,
      value,
      text: valueText(catalogue.protocol, point, value, language),
    });
    bySection.set(section, list);
  }
  return [...bySection].map(([key, list]) => ({ key, values: list }));
}

/** Points a chart may draw (numbers with a unit or an enumeration-free count), with their labels. */
export function chartablePoints(protocolId: string, language: Language, section?: SectionKey): PointInfo[] {
  const catalogue = catalogueOf(protocolId);
  if (!catalogue) return [];
  return catalogue.visible
    .filter((v) => (v.point.chart ?? (!isBits(v.point) && !v.point.enumeration)) && (!section || v.section === section))
    .map((v) => ({ id: v.point.id, label: localised(v.point.label, language), unit: v.point.unit ?? null }));
}

/** 1-based storage position of a point (SQL arrays), undefined when the map has none. */
export function storageIndex(protocolId: string, pointId: string): number | undefined {
  const found = catalogueOf(protocolId)?.visible.find((v) => v.point.id === pointId);
  return found ? found.index + 1 : undefined;
}

/** What the day chart shows first: the device's main power, and its main input or state of charge. */
export function defaultChartPoints(protocolId: string, section?: SectionKey): string[] {
  const catalogue = catalogueOf(protocolId);
  if (!catalogue) return [];
  const candidates = section
    ? catalogue.visible.filter((v) => v.section === section && !isBits(v.point) && !v.point.enumeration && v.point.unit !== 'Wh')
    : catalogue.visible.filter(
        (v) => ['power', 'soc'].includes(v.point.role ?? '') || ['DCW', 'POAI', 'GHI', 'TmpAmb', 'DCA'].includes(v.point.id),
      );
  return candidates.slice(0, section ? 3 : 2).map((v) => v.point.id);
}

/**
 * Energy counters (Wh, only growing) that make the month/year/total bars, by section when asked:
 * generation for inverters, import and export for meters, charge and discharge for batteries...
 */
export function energyCounters(
  protocolId: string,
  language: Language,
  section?: SectionKey,
): { id: string; label: string; index: number }[] {
  const catalogue = catalogueOf(protocolId);
  if (!catalogue) return [];
  return catalogue.visible
    .filter((v) => (v.point.counter ?? (v.point.unit === 'Wh' || v.point.unit === 'kWh')) && (!section || v.section === section))
    .filter((v) => !/^DCWH\d+$/.test(v.point.id) || section === 'input')
    .map((v) => ({ id: v.point.id, label: localised(v.point.label, language), index: v.index + 1 }));
}

/** Spec 01 §3 type code of an inverter from its map, and its work mode (feed-in priority is selling-first). */
export function inverterTypeCode(protocolId: string, values: readonly number[] | undefined): number | null {
  const catalogue = catalogueOf(protocolId);
  if (!catalogue) return null;
  const family = catalogue.protocol.family;
  if (family === 'micro_inverter') return 3;
  if (family === 'hybrid_inverter') {
    const mode = catalogue.visible.find((v) => v.point.id === 'WorkMode');
    if (mode && values && values[mode.index] === 3) return 1;
    return protocolId.endsWith('-hv') ? 94 : 93;
  }
  if (family === 'inverter') return catalogue.visible.some((v) => v.point.id === 'AphB') ? 4 : 2;
  return null;
}

/** DC inputs per string/MPPT (DCV1, DCA1, DCW1, DCWH1, ...), from the stored values. */
export function stringInputs(protocolId: string, values: readonly number[]) {
  const catalogue = catalogueOf(protocolId);
  if (!catalogue) return [];
  const at = (id: string) => {
    const v = catalogue.visible.find((x) => x.point.id === id);
    return v ? finite(values[v.index]) : null;
  };
  const out = [];
  for (let i = 1; catalogue.visible.some((v) => v.point.id === `DCV${i}` || v.point.id === `DCA${i}`); i++)
    out.push({ index: i, voltageV: at(`DCV${i}`), currentA: at(`DCA${i}`), powerW: at(`DCW${i}`), energyWh: at(`DCWH${i}`) });
  return out;
}

/** Writable points of a map with the device's current values, ranges and choices (parameters). */
export function writableParams(protocolId: string, values: readonly number[] | null, language: Language) {
  return (catalogueOf(protocolId)?.visible ?? [])
    .filter((v) => v.point.operation !== 'r')
    .map((v) => {
      const value = values?.[v.index];
      return {
        id: v.point.id,
        label: localised(v.point.label, language),
        unit: v.point.unit ?? null,
        value: value === undefined || !Number.isFinite(value) ? null : value,
        min: v.point.min ?? null,
        max: v.point.max ?? null,
        options: v.point.enumeration
          ? Object.entries(v.point.enumeration).map(([raw, label]) => ({ value: Number(raw), label: localised(label, language) }))
          : null,
      };
    });
}
