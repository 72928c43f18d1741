import { type ProtocolFile, ProtocolFileSchema } from '@sunward/contracts/protocols';
import { BUILT_IN_PROTOCOLS } from '@sunward/protocol/maps/index';
import { installProtocols } from '@sunward/protocol/registry';
import type { DeviceFamily, ProtocolDefinition } from '@sunward/protocol/types';

/**
 * Protocols made in the console (issue 19), as its export writes them ("sunward-protocol" files): the
 * simulator plays devices of a brand that exists only in the database. Pure but for `installFleetProtocols`.
 */

/** A protocol file as the codec reads it: the same fields the server's store gives its decoder. */
export function definitionOfFile(file: ProtocolFile): ProtocolDefinition {
  const { protocol } = file;
  return {
    id: protocol.identifier,
    version: protocol.protocolVersion,
    name: protocol.content.title,
    family: protocol.family as DeviceFamily,
    manufacturer: protocol.manufacturer,
    source: protocol.content.source,
    points: protocol.content.points,
    events: protocol.content.events,
    settingsFamilies: protocol.content.settingsFamilies,
  };
}

/** A file's text, checked as the console's import checks it (the error names the file and field). */
export function parseProtocolFile(text: string, name: string): ProtocolFile {
  const parsed = ProtocolFileSchema.safeParse(JSON.parse(text));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${name}: not a protocol file (${issue?.path.join('.') || 'format'}: ${issue?.message ?? 'invalid'})`);
  }
  return parsed.data;
}

/**
 * The maps this process encodes with: the built-in ones and the given files (a file with a built-in map's
 * identifier replaces it, as a new version in the console would). Returns the identifiers installed from files.
 */
export function installFleetProtocols(files: readonly ProtocolFile[]): string[] {
  const own = files.map(definitionOfFile);
  if (own.length === 0) return [];
  const ids = new Set(own.map((p) => p.id));
  installProtocols([...BUILT_IN_PROTOCOLS.filter((p) => !ids.has(p.id)), ...own]);
  return [...ids];
}
