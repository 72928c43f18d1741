import { mapPoints } from './codec.js';
import type { ProtocolDefinition, RegisterPoint } from './types.js';

/*
 * The register map reference for gateway makers (docs/register-maps/*.md, issue 25): written from the maps
 * themselves by scripts/register-maps.mjs, and checked by reference.test.ts to be current, so the
 * document cannot drift from what the server decodes.
 */

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** The file a map's reference is written to, inside docs/register-maps. */
export const referenceFileName = (protocol: ProtocolDefinition) => `${protocol.id}.md`;

function scaleOf(point: RegisterPoint): string {
  const parts: string[] = [];
  if (point.scale !== undefined && point.scale !== 1) parts.push(`× ${point.scale}`);
  if (point.scaleFactorPoint) parts.push(`× 10^${point.scaleFactorPoint}`);
  if (point.base !== undefined && point.base !== 0) parts.push(`+ ${point.base}`);
  return parts.join(' ') || '—';
}

function typeOf(point: RegisterPoint): string {
  const notes = [point.wordSwap ? 'low word first' : '', point.byteSwap ? 'bytes swapped' : '', point.accumulator ? '0 = absent' : '']
    .filter(Boolean)
    .join(', ');
  return notes ? `${point.type} (${notes})` : point.type;
}

function rangeOf(point: RegisterPoint): string {
  if (point.min === undefined && point.max === undefined) return '';
  return `${point.min ?? '−∞'} … ${point.max ?? '∞'}`;
}

const OPERATION: Record<RegisterPoint['operation'], string> = { r: 'read', w: 'write', rw: 'read/write' };

/** One map's reference page: its points (register, type, scale, unit, required) and its event table. */
export function registerMapReference(protocol: ProtocolDefinition): string {
  const points = mapPoints(protocol);
  const lines = [
    `# ${protocol.name.en} — \`${protocol.id}\``,
    '',
    '<!-- Generated from packages/protocol by scripts/register-maps.mjs; do not edit by hand (a unit test checks it is current). -->',
    '',
    `Version ${protocol.version}, family \`${protocol.family}\`, ${protocol.manufacturer}. ${protocol.source}.`,
    '',
    `A gateway names this map as \`"proto": "${protocol.id}"\` and sends the registers below as \`blocks\``,
    '(function code, start address, registers as hex; see docs/gateway-protocol.md). Addresses are PDU',
    'addresses (0-based), as on the wire. Value = raw × scale (× 10^scale-factor point) + offset.',
    'Required points should be in every reading. Writable points can be changed with the `set` command',
    '(by point id, within the range) or a raw `write`.',
    '',
    '## Points',
    '',
    '| id | name | fc | register | count | type | scale | unit | access | required | range |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const p of points)
    lines.push(
      `| \`${p.id}\` | ${cell(p.label.en)} | ${p.functionCode} | ${p.address} | ${p.count} | ${typeOf(p)} | ${scaleOf(p)} | ${p.unit ?? ''} | ${OPERATION[p.operation]} | ${p.required ? 'yes' : ''} | ${rangeOf(p)} |`,
    );
  const enumerated = points.filter((p) => p.enumeration && Object.keys(p.enumeration).length > 0);
  if (enumerated.length > 0) {
    lines.push('', '## Enumerations', '');
    for (const p of enumerated) {
      lines.push(
        `- \`${p.id}\`: ${Object.entries(p.enumeration ?? {})
          .map(([value, text]) => `${value} ${cell(text.en)}`)
          .join('; ')}`,
      );
    }
  }
  if (protocol.settingPairs && protocol.settingPairs.length > 0) {
    lines.push(
      '',
      '## Limit pairs',
      '',
      'Each limit is written as an open (trip) and a closed (reclose) value, positive integers; the console refuses',
      'a write that leaves a pair in the wrong order (code 4430).',
      '',
      '| open (trip) | closed (reclose) | the device opens | rule |',
      '|---|---|---|---|',
    );
    for (const pair of protocol.settingPairs)
      lines.push(
        pair.trip === 'above'
          ? `| \`${pair.open}\` | \`${pair.closed}\` | above the open value, closes again below the closed value | open > closed |`
          : `| \`${pair.open}\` | \`${pair.closed}\` | below the open value, closes again above the closed value | closed > open |`,
      );
  }
  lines.push('', '## Events', '');
  if (protocol.events.length === 0) lines.push('This map raises no events.');
  else {
    const byId = new Map(points.map((p) => [p.id, p]));
    lines.push(
      'A set bit opens the event; the event closes when a reading has the bit clear.',
      '',
      '| code | level | point | register | bit | description | solution |',
      '|---|---|---|---|---|---|---|',
    );
    for (const e of protocol.events)
      lines.push(
        `| ${e.code} | ${e.level} | \`${e.point}\` | ${byId.get(e.point)?.address ?? ''} | ${e.bit} | ${cell(e.description.en)} | ${cell(e.solution.en)} |`,
      );
  }
  return `${lines.join('\n')}\n`;
}

/** The index page: every map with its family and number of points and events. */
export function registerMapsIndex(protocols: readonly ProtocolDefinition[]): string {
  const lines = [
    '# Register maps',
    '',
    '<!-- Generated from packages/protocol by scripts/register-maps.mjs; do not edit by hand (a unit test checks it is current). -->',
    '',
    'The register maps the server decodes, one page each: what a gateway sends as `proto`, and which registers',
    'make a reading. Regenerate with `node scripts/register-maps.mjs` after changing a map.',
    '',
    '| `proto` | device | family | points | required | events |',
    '|---|---|---|---|---|---|',
  ];
  for (const p of protocols) {
    const points = mapPoints(p);
    lines.push(
      `| [\`${p.id}\`](${referenceFileName(p)}) | ${cell(p.name.en)} | ${p.family} | ${points.length} | ${points.filter((x) => x.required).length} | ${p.events.length} |`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** Every file of docs/register-maps by name. */
export function registerMapFiles(protocols: readonly ProtocolDefinition[]): Map<string, string> {
  const files = new Map<string, string>([['README.md', registerMapsIndex(protocols)]]);
  for (const p of protocols) files.set(referenceFileName(p), registerMapReference(p));
  return files;
}
