import type { Language } from '@sunward/contracts/languages';
import { EVENT_TEXT_TRANSLATIONS, eventTextIn } from '@sunward/protocol/event-texts/index';
import { BUILT_IN_PROTOCOLS, protocolById } from '@sunward/protocol/maps/index';
import { registryGeneration } from '@sunward/protocol/registry';
import type { EventDefinition, LocalisedText } from '@sunward/protocol/types';

/*
 * What an event code means: its description and solution come from the register map of the device that
 * raised it (maps as data, zh and en, with the other eight languages in @sunward/protocol/event-texts).
 * The one lookup for every screen that shows events.
 */

/** A map's own text (a protocol's name): Chinese for the cn console, English for every other language. */
export function localised(text: LocalisedText, language: Language): string {
  return language === 'cn' ? text.zh : text.en;
}

/** A built-in event description or solution in any of the ten languages. */
export function localisedEventText(text: LocalisedText, language: Language): string {
  return eventTextIn(text, language);
}

const byMap = new Map<string, Map<number, EventDefinition>>();
let byMapOf = registryGeneration();

function definitionsOf(protocolId: string): Map<number, EventDefinition> {
  // A protocol edited in the console (issue 19) installs new maps: its event table is read again.
  if (byMapOf !== registryGeneration()) {
    byMap.clear();
    byMapOf = registryGeneration();
  }
  let found = byMap.get(protocolId);
  if (!found) {
    found = new Map((protocolById(protocolId)?.events ?? []).map((e) => [e.code, e]));
    byMap.set(protocolId, found);
  }
  return found;
}

/** The map's definition of an event code, undefined when the map (or the code) is unknown. */
export function eventDefinition(protocolId: string, code: number): EventDefinition | undefined {
  return definitionsOf(protocolId).get(code);
}

/**
 * Texts imported per protocol, code and language (event/description/import, issue 21): they come before the
 * map's own Chinese and English. Loaded at start and after each import (event-descriptions.service.ts).
 */
let imported = new Map<string, { description: string; solution: string }>();
const importedKey = (protocolId: string, code: number, language: string) => `${protocolId}|${code}|${language}`;

export function setImportedEventTexts(
  rows: readonly { protocolId: string; code: number; language: string; description: string; solution: string }[],
): void {
  imported = new Map(
    rows.map((r) => [importedKey(r.protocolId, r.code, r.language), { description: r.description, solution: r.solution }]),
  );
}

/** The imported text of a code in one language, if any. */
export function importedEventText(
  protocolId: string,
  code: number,
  language: Language,
): { description: string; solution: string } | undefined {
  return imported.get(importedKey(protocolId, code, language));
}

/** Description and solution of an event in the caller's language; null for a code the map lacks. */
export function eventText(protocolId: string, code: number, language: Language): { description: string | null; solution: string | null } {
  const own = imported.get(importedKey(protocolId, code, language));
  if (own) return { description: own.description, solution: own.solution || null };
  const definition = eventDefinition(protocolId, code);
  return definition
    ? { description: eventTextIn(definition.description, language), solution: eventTextIn(definition.solution, language) }
    : { description: null, solution: null };
}

/**
 * The (map, code) pairs whose description contains the keyword in any of the ten languages, so a text
 * search can run in SQL although the texts live in the maps.
 */
export function eventsDescribedBy(keyword: string): { protocolId: string; code: number }[] {
  const needle = keyword.toLowerCase();
  if (needle === '') return [];
  const matches = (text: LocalisedText) =>
    text.en.toLowerCase().includes(needle) ||
    text.zh.includes(keyword) ||
    Object.values(EVENT_TEXT_TRANSLATIONS[text.en] ?? {}).some((t) => t.toLowerCase().includes(needle));
  const found = BUILT_IN_PROTOCOLS.flatMap((p) =>
    p.events.filter((e) => matches(e.description)).map((e) => ({ protocolId: p.id, code: e.code })),
  );
  for (const [key, text] of imported)
    if (text.description.toLowerCase().includes(needle)) {
      const [protocolId = '', code = ''] = key.split('|');
      if (!found.some((f) => f.protocolId === protocolId && f.code === Number(code))) found.push({ protocolId, code: Number(code) });
    }
  return found;
}
