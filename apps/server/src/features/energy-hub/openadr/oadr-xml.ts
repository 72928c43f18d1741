import { XMLBuilder, XMLParser } from 'fast-xml-parser';

/**
 * OpenADR 2.0b payloads (simple HTTP, pull model) as the energy hub's VEN and the test VTN speak them: built and read
 * with fast-xml-parser (namespaces kept on the wire, prefixes dropped when reading).
 */
const NAMESPACES = {
  '@_xmlns:oadr': 'http://openadr.org/oadr-2.0b/2012/07',
  '@_xmlns:ei': 'http://docs.oasis-open.org/ns/energyinterop/201110',
  '@_xmlns:pyld': 'http://docs.oasis-open.org/ns/energyinterop/201110/payloads',
  '@_xmlns:xcal': 'urn:ietf:params:xml:ns:icalendar-2.0',
  '@_xmlns:strm': 'urn:ietf:params:xml:ns:icalendar-2.0:stream',
  '@_xmlns:emix': 'http://docs.oasis-open.org/ns/emix/2011/06',
};

const builder = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: '@_', suppressEmptyNode: true });
const parser = new XMLParser({
  ignoreAttributes: true,
  removeNSPrefix: true,
  parseTagValue: false,
  isArray: (name) => ['oadrEvent', 'eiEventSignal', 'interval', 'eventResponse', 'oadrReport', 'oadrReportDescription'].includes(name),
});

/** One OpenADR message (`oadr:oadrPayload` › `oadr:oadrSignedObject` › the message). */
export function oadrPayload(type: string, body: Record<string, unknown>): string {
  return `<?xml version="1.0" encoding="UTF-8"?>${builder.build({
    'oadr:oadrPayload': { ...NAMESPACES, 'oadr:oadrSignedObject': { [`oadr:${type}`]: { '@_ei:schemaVersion': '2.0b', ...body } } },
  })}`;
}

/** A tree read from XML: objects, arrays and text. */
export type XmlNode = string | XmlNode[] | { [key: string]: XmlNode };

/** The message inside a payload: its type (without prefix) and body; undefined when the XML is no OpenADR payload. */
export function readPayload(xml: string): { type: string; body: XmlNode } | undefined {
  let tree: unknown;
  try {
    tree = parser.parse(xml);
  } catch {
    return undefined;
  }
  const signed = at(tree as XmlNode, 'oadrPayload', 'oadrSignedObject');
  if (!signed || typeof signed !== 'object' || Array.isArray(signed)) return undefined;
  const [type] = Object.keys(signed);
  const body = type ? signed[type] : undefined;
  return type && body !== undefined ? { type, body } : undefined;
}

/** The node down a path of element names (the first element of a list at each step). */
export function at(node: XmlNode | undefined, ...path: string[]): XmlNode | undefined {
  let current = node;
  for (const name of path) {
    if (current === undefined || typeof current === 'string') return undefined;
    const here: XmlNode | undefined = Array.isArray(current) ? current[0] : current;
    if (here === undefined || typeof here === 'string' || Array.isArray(here)) return undefined;
    current = here[name];
  }
  return current;
}

export const text = (node: XmlNode | undefined, ...path: string[]): string | undefined => {
  const found = at(node, ...path);
  return typeof found === 'string' ? found : typeof found === 'number' ? String(found) : undefined;
};

export const list = (node: XmlNode | undefined, ...path: string[]): XmlNode[] => {
  const found = at(node, ...path);
  return found === undefined ? [] : Array.isArray(found) ? found : [found];
};

/** ISO 8601 durations of OpenADR (PT30M, PT1H30M, P1D) in minutes; undefined when unreadable. */
export function durationMinutes(value: string | undefined): number | undefined {
  const match = value ? /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/.exec(value) : null;
  if (!match) return undefined;
  const [, d, h, m, s] = match.map((v) => Number(v ?? 0));
  return (d ?? 0) * 1440 + (h ?? 0) * 60 + (m ?? 0) + Math.ceil((s ?? 0) / 60);
}
