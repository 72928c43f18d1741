import { SCRIPT_SOURCE_MAX, SCRIPT_TIME_LIMIT_MS } from '@sunward/contracts/protocols';
import { getQuickJS, type QuickJSContext, type QuickJSHandle, type QuickJSRuntime, type QuickJSWASMModule } from 'quickjs-emscripten';

/*
 * Protocol scripts (spec 02 §3 Script, issue 19): a function a platform administrator writes per protocol
 * and configuration version, `function transform(input)`, that derives points from the raw registers or
 * transforms decoded values. It runs in QuickJS compiled to WebAssembly (quickjs-emscripten; the WASM ships
 * in node_modules, nothing is fetched at run time): no I/O of any kind (no require, process, fetch, timers),
 * a time limit per call, a memory and stack limit per script. One runtime and context per script, compiled
 * once and reused for every reading; a script that keeps overrunning is suspended for a while so it can
 * never slow the pipeline down.
 */

export const SCRIPT_LIMITS = {
  /** Wall time of one call. */
  timeMs: SCRIPT_TIME_LIMIT_MS,
  /** Wall time of compiling a source and running its top-level code (once per install). */
  compileMs: 1000,
  /** Heap of one script's runtime. */
  memoryBytes: 16 * 1024 * 1024,
  stackBytes: 256 * 1024,
  /** Source length (characters). */
  sourceMax: SCRIPT_SOURCE_MAX,
  /** Overruns in a row after which the script is suspended … */
  overrunsToSuspend: 3,
  /** … for this long (its readings are refused at once meanwhile). */
  suspendMs: 60_000,
} as const;

/** What a script receives: the decoded points (null where absent) and the raw 16-bit registers by address. */
export interface ScriptInput {
  points: Record<string, number | null>;
  /** Function code 3 registers, address → unsigned 16-bit value. */
  holding: Record<string, number>;
  /** Function code 4 registers. */
  input: Record<string, number>;
}

export type ScriptOutcome = { ok: true; values: Record<string, number | null> } | { ok: false; error: string };

let engine: QuickJSWASMModule | null = null;

/** Loads (once) and warms the WebAssembly engine; the server awaits it before installing any script. */
export async function loadScriptEngine(): Promise<QuickJSWASMModule> {
  if (engine) return engine;
  const loaded = await getQuickJS();
  // The first evaluation in a fresh module is slow (the WASM is compiled lazily): pay it here, not in a reading.
  const warm = loaded.newRuntime();
  const ctx = warm.newContext();
  ctx.evalCode('JSON.stringify({a:[1,2,3].map((x) => x * 2)})').dispose();
  ctx.dispose();
  warm.dispose();
  engine = loaded;
  return loaded;
}

export function scriptEngineReady(): boolean {
  return engine !== null;
}

/** A one-line message of a QuickJS error value ("SyntaxError: unexpected token … (line 3)"). */
function errorText(ctx: QuickJSContext, handle: QuickJSHandle, limitMs: number = SCRIPT_LIMITS.timeMs): string {
  const dumped: unknown = ctx.dump(handle);
  handle.dispose();
  if (dumped && typeof dumped === 'object') {
    const e = dumped as { name?: unknown; message?: unknown; lineNumber?: unknown; stack?: unknown };
    const name = typeof e.name === 'string' ? e.name : 'Error';
    const message = typeof e.message === 'string' ? e.message : '';
    const line =
      typeof e.lineNumber === 'number' ? e.lineNumber : Number(/script\.js:(\d+)/.exec(typeof e.stack === 'string' ? e.stack : '')?.[1]);
    const where = Number.isFinite(line) && line > 0 ? ` (line ${line})` : '';
    const text = message === 'interrupted' ? `ran over ${limitMs} ms` : message === 'out of memory' ? 'ran out of memory' : message;
    return `${name}: ${text}${where}`.slice(0, 300);
  }
  return String(dumped).slice(0, 300);
}

/** A script compiled in its own runtime, called once per reading. */
export interface CompiledScript {
  run(input: ScriptInput): ScriptOutcome;
  dispose(): void;
}

const WRAPPER = `
;globalThis.__run = function (json) {
  const out = transform(JSON.parse(json));
  if (out === null || typeof out !== 'object' || Array.isArray(out)) throw new TypeError('transform must return an object of point values');
  return JSON.stringify(out, (k, v) => (typeof v === 'number' && !Number.isFinite(v) ? 'not finite' : v));
};`;

function guard(runtime: QuickJSRuntime): { arm(ms?: number): void; disarm(): void } {
  let deadline = Number.POSITIVE_INFINITY;
  runtime.setInterruptHandler(() => Date.now() > deadline);
  return {
    arm: (ms: number = SCRIPT_LIMITS.timeMs) => {
      deadline = Date.now() + ms;
    },
    disarm: () => {
      deadline = Number.POSITIVE_INFINITY;
    },
  };
}

/**
 * Compiles a script: a syntax error, a source without `function transform(input)`, or top-level code that
 * overruns or runs out of memory is an error naming the cause (and its line where QuickJS gives one).
 */
export function compileScript(source: string): { ok: true; script: CompiledScript } | { ok: false; error: string } {
  if (!engine) return { ok: false, error: 'Error: the script engine is not loaded' };
  if (source.length > SCRIPT_LIMITS.sourceMax) return { ok: false, error: `Error: over ${SCRIPT_LIMITS.sourceMax} characters` };
  const runtime = engine.newRuntime();
  runtime.setMemoryLimit(SCRIPT_LIMITS.memoryBytes);
  runtime.setMaxStackSize(SCRIPT_LIMITS.stackBytes);
  const limit = guard(runtime);
  const ctx = runtime.newContext();
  const fail = (error: string) => {
    ctx.dispose();
    runtime.dispose();
    return { ok: false as const, error };
  };
  limit.arm(SCRIPT_LIMITS.compileMs);
  const evaluated = ctx.evalCode(`${source}\n${WRAPPER}`, 'script.js');
  limit.disarm();
  if (evaluated.error) return fail(errorText(ctx, evaluated.error, SCRIPT_LIMITS.compileMs));
  evaluated.value.dispose();
  const kind = ctx.evalCode('typeof transform');
  const isFunction = !kind.error && ctx.dump(kind.value) === 'function';
  (kind.error ?? kind.value).dispose();
  if (!isFunction) return fail('ReferenceError: the source defines no function transform(input)');
  const run = ctx.getProp(ctx.global, '__run');
  let disposed = false;
  return {
    ok: true,
    script: {
      run(input: ScriptInput): ScriptOutcome {
        if (disposed) return { ok: false, error: 'Error: the script was replaced' };
        const arg = ctx.newString(JSON.stringify(input));
        limit.arm();
        const result = ctx.callFunction(run, ctx.undefined, arg);
        limit.disarm();
        arg.dispose();
        if (result.error) return { ok: false, error: errorText(ctx, result.error) };
        const text = ctx.getString(result.value);
        result.value.dispose();
        return readOutput(text);
      },
      dispose() {
        if (disposed) return;
        disposed = true;
        run.dispose();
        ctx.dispose();
        runtime.dispose();
      },
    },
  };
}

/** The returned object as point values: numbers or null, anything else an error naming the point. */
function readOutput(text: string): ScriptOutcome {
  const parsed = JSON.parse(text) as Record<string, unknown>;
  const values: Record<string, number | null> = {};
  for (const [id, value] of Object.entries(parsed)) {
    if (value === null || (typeof value === 'number' && Number.isFinite(value))) values[id] = value;
    else return { ok: false, error: `TypeError: ${id} is not a finite number or null` };
  }
  return { ok: true, values };
}

/**
 * The installed scripts by protocol identifier (the current version's configuration version), compiled
 * lazily on first use and kept until the next install; with the overrun breaker per script.
 */
interface Slot {
  source: string;
  compiled: CompiledScript | { error: string } | null;
  overruns: number;
  suspendedUntil: number;
}

let slots = new Map<string, Slot>();

/** Replaces the installed scripts; unchanged sources keep their compiled runtime. */
export function installScripts(scripts: ReadonlyMap<string, string>): void {
  const next = new Map<string, Slot>();
  for (const [protocolId, source] of scripts) {
    const old = slots.get(protocolId);
    if (old && old.source === source) next.set(protocolId, old);
    else next.set(protocolId, { source, compiled: null, overruns: 0, suspendedUntil: 0 });
  }
  for (const [protocolId, old] of slots) {
    if (next.get(protocolId) !== old && old.compiled && 'run' in old.compiled) old.compiled.dispose();
  }
  slots = next;
}

export function hasScript(protocolId: string): boolean {
  return slots.has(protocolId);
}

/** Runs a protocol's installed script; undefined when it has none. Never throws. */
export function runInstalledScript(protocolId: string, input: ScriptInput, now = Date.now()): ScriptOutcome | undefined {
  const slot = slots.get(protocolId);
  if (!slot) return undefined;
  if (slot.suspendedUntil > now) return { ok: false, error: 'Error: suspended after repeated overruns' };
  if (!slot.compiled) {
    const compiled = compileScript(slot.source);
    slot.compiled = compiled.ok ? compiled.script : { error: compiled.error };
  }
  if (!('run' in slot.compiled)) return { ok: false, error: slot.compiled.error };
  let outcome: ScriptOutcome;
  try {
    outcome = slot.compiled.run(input);
  } catch (error) {
    outcome = { ok: false, error: error instanceof Error ? error.message.slice(0, 300) : 'script failed' };
  }
  if (!outcome.ok && /ran over|out of memory|stack overflow/.test(outcome.error)) {
    slot.overruns++;
    // A runtime that hit its memory limit is rebuilt before its next call.
    slot.compiled.dispose();
    slot.compiled = null;
    if (slot.overruns >= SCRIPT_LIMITS.overrunsToSuspend) {
      slot.suspendedUntil = now + SCRIPT_LIMITS.suspendMs;
      slot.overruns = 0;
    }
  } else if (outcome.ok) slot.overruns = 0;
  return outcome;
}
