import { Code } from '@sunward/contracts/codes';
import type { Language } from '@sunward/contracts/languages';
import { translate } from '@sunward/contracts/messages';
import type { ProtocolScript, ProtocolScriptSave, ProtocolScriptTest, ProtocolScriptTestResult } from '@sunward/contracts/protocols';
import { decodeBlocksIndexed, encodeValues, mapPoints, registersFromHex } from '@sunward/protocol/codec';
import { sampleValues } from '@sunward/protocol/sample-values';
import type { ProtocolDefinition, RegisterBlock } from '@sunward/protocol/types';
import { compileScript, type ScriptInput, type ScriptOutcome } from '../../ingest/protocol-scripts.js';
import { applyScript } from '../../ingest/report-decoder.js';
import { ApiError } from '../../lib/envelope.js';
import type { AuthContext } from '../../plugins/auth.js';
import { toDefinition } from './protocol-definition.js';
import type { ProtocolStore } from './protocol-store.js';
import type { ProtocolsRepository, ScriptRecord } from './protocols.repository.js';

/** The source field refused with the script's own error (syntax error and line, overrun, unknown point). */
function sourceError(language: Language, error: string): ApiError {
  return new ApiError(
    Code.VALIDATION,
    {},
    { errors: [{ field: 'source', message: translate(language, 'protocol.scriptFails', { error }) }] },
  );
}

/** Compiles a source and runs it on a reading; the sandbox is disposed afterwards. */
function runOnce(
  source: string,
  protocol: ProtocolDefinition,
  blocks: readonly RegisterBlock[],
): { error: string | null; decoded: Float64Array; output: Float64Array; elapsedMs: number } {
  const decoded = decodeBlocksIndexed(protocol, blocks).numbers;
  const output = Float64Array.from(decoded);
  const started = performance.now();
  const compiled = compileScript(source);
  if (!compiled.ok) return { error: `transform: ${compiled.error}`, decoded, output, elapsedMs: performance.now() - started };
  try {
    const error = applyScript(protocol, blocks, output, (input: ScriptInput): ScriptOutcome => compiled.script.run(input));
    return { error, decoded, output, elapsedMs: performance.now() - started };
  } finally {
    compiled.script.dispose();
  }
}

/**
 * Protocol scripts (spec 02 §3 Script, §5; issue 19): one per protocol and configuration version (a second
 * one is refused, 4207). A source is compiled and run on the protocol's sample registers before it is
 * stored, so a syntax error, an overrun or a point the protocol lacks is refused naming `source` and nothing
 * changes. The test console runs any source on typed registers without storing anything.
 */
export function createProtocolScripts(deps: { repository: ProtocolsRepository; store: ProtocolStore }) {
  const { repository, store } = deps;

  /** The protocol's current version as the decoder reads it, with its configuration version. */
  async function currentOf(id: number): Promise<{ protocol: ProtocolDefinition; configurationVersion: string }> {
    const row = await repository.byId(id);
    const version = row ? (await repository.versions(id)).find((v) => v.version === row.currentVersion) : undefined;
    if (!row || !version) throw new ApiError(Code.NOT_FOUND);
    return { protocol: toDefinition({ ...row, ...version }), configurationVersion: version.configurationVersion };
  }

  function toScript(r: ScriptRecord, activeVersion: string): ProtocolScript {
    return {
      id: r.id,
      protocolId: r.protocolId,
      configurationVersion: r.configurationVersion,
      language: 'javascript',
      source: r.source,
      active: r.configurationVersion === activeVersion,
      creator: r.creator,
      createdAt: r.createdAt.toISOString(),
      updatedAt: r.updatedAt.toISOString(),
    };
  }

  /** Refuses a source that does not compile or fails on the protocol's sample registers. */
  function checkSource(language: Language, source: string, protocol: ProtocolDefinition): void {
    const blocks = encodeValues(protocol, sampleValues(protocol));
    const { error } = runOnce(source, protocol, blocks);
    if (error !== null) throw sourceError(language, error);
  }

  async function list(id: number): Promise<ProtocolScript[]> {
    const { configurationVersion } = await currentOf(id);
    return (await repository.scripts(id)).map((s) => toScript(s, configurationVersion));
  }

  async function one(id: number, scriptId: number): Promise<ProtocolScript> {
    const found = (await list(id)).find((s) => s.id === scriptId);
    if (!found) throw new ApiError(Code.NOT_FOUND);
    return found;
  }

  return {
    scripts: list,

    async addScript(auth: AuthContext, language: Language, id: number, body: ProtocolScriptSave): Promise<ProtocolScript> {
      const { protocol } = await currentOf(id);
      if ((await repository.scripts(id)).some((s) => s.configurationVersion === body.configurationVersion))
        throw new ApiError(Code.PROTOCOL_SCRIPT_EXISTS);
      checkSource(language, body.source, protocol);
      const scriptId = await repository.addScript(id, {
        configurationVersion: body.configurationVersion,
        language: body.language,
        source: body.source,
        createdBy: auth.userId,
      });
      if (scriptId === null) throw new ApiError(Code.PROTOCOL_SCRIPT_EXISTS);
      await store.reload();
      return one(id, scriptId);
    },

    async updateScript(language: Language, id: number, scriptId: number, source: string): Promise<ProtocolScript> {
      const { protocol } = await currentOf(id);
      checkSource(language, source, protocol);
      if (!(await repository.updateScript(id, scriptId, source))) throw new ApiError(Code.NOT_FOUND);
      await store.reload();
      return one(id, scriptId);
    },

    async removeScript(id: number, scriptId: number): Promise<void> {
      if (!(await repository.removeScript(id, scriptId))) throw new ApiError(Code.NOT_FOUND);
      await store.reload();
    },

    /** The test console: typed registers decoded with the current version, then the source run on them. */
    async testScript(id: number, body: ProtocolScriptTest): Promise<ProtocolScriptTestResult> {
      const { protocol } = await currentOf(id);
      const blocks: RegisterBlock[] = body.blocks.map((b) => ({
        functionCode: b.fc,
        address: b.addr,
        registers: registersFromHex(b.hex.replace(/\s+/g, '')) ?? [],
      }));
      const { error, decoded, output, elapsedMs } = runOnce(body.source, protocol, blocks);
      const points: ProtocolScriptTestResult['points'] = [];
      const seen = new Set<string>();
      mapPoints(protocol).forEach((point, index) => {
        if (point.type === 'string' || seen.has(point.id)) return;
        seen.add(point.id);
        const before = decoded[index] ?? Number.NaN;
        const after = error === null ? (output[index] ?? Number.NaN) : before;
        if (Number.isNaN(before) && Number.isNaN(after)) return;
        points.push({
          id: point.id,
          unit: point.unit ?? null,
          decoded: Number.isNaN(before) ? null : before,
          output: Number.isNaN(after) ? null : after,
        });
      });
      return { error, elapsedMs: Math.round(elapsedMs * 100) / 100, points };
    },
  };
}
