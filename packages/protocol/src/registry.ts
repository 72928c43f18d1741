/**
 * The maps this process decodes with (issue 19): the built-in maps until the server installs what its
 * protocol store holds (the same maps as seeded rows, plus the protocols created in the console), then
 * again whenever a protocol changes. One registry per process; lookups are a Map read.
 */
import type { ProtocolDefinition } from './types.js';

let installed: ReadonlyMap<string, ProtocolDefinition> | null = null;
let disabled: ReadonlySet<string> = new Set();
let generation = 0;

/**
 * Replaces the installed maps (the store's current version of each protocol). Disabled protocols still
 * decode the devices bound to them; no new device is discovered on one.
 */
export function installProtocols(protocols: readonly ProtocolDefinition[], disabledIds: Iterable<string> = []): void {
  installed = new Map(protocols.map((p) => [p.id, p]));
  disabled = new Set(disabledIds);
  generation++;
}

/** Whether new devices may be discovered or bound on this protocol. */
export function isProtocolEnabled(id: string): boolean {
  return !disabled.has(id);
}

/** Back to the built-in maps alone (tests, a server that closed). */
export function uninstallProtocols(): void {
  installed = null;
  disabled = new Set();
  generation++;
}

export function installedProtocols(): ReadonlyMap<string, ProtocolDefinition> | null {
  return installed;
}

/** Bumped on every install: caches keyed by protocol id compare it to know they are stale. */
export function registryGeneration(): number {
  return generation;
}
