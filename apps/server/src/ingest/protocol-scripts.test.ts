import { beforeAll, describe, expect, it } from 'vitest';
import {
  compileScript,
  installScripts,
  loadScriptEngine,
  runInstalledScript,
  SCRIPT_LIMITS,
  type ScriptInput,
} from './protocol-scripts.js';

const input: ScriptInput = { points: { W: 1200, A: null }, holding: { '40100': 7, '40101': 9 }, input: {} };

function compiled(source: string) {
  const result = compileScript(source);
  if (!result.ok) throw new Error(result.error);
  return result.script;
}

beforeAll(async () => {
  await loadScriptEngine();
});

describe('protocol script sandbox (QuickJS)', () => {
  it('derives points from registers and transforms values', () => {
    const script = compiled(`function transform(input) {
      return { W: input.points.W * 2, A: input.holding['40100'] + input.holding['40101'] };
    }`);
    expect(script.run(input)).toEqual({ ok: true, values: { W: 2400, A: 16 } });
    // The same compiled context serves the next reading.
    expect(script.run({ ...input, points: { W: 1 } })).toEqual({ ok: true, values: { W: 2, A: 16 } });
    script.dispose();
  });

  it('has no I/O: no require, process, fetch, timers or file access', () => {
    const script = compiled(`function transform() {
      return { n: [typeof require, typeof process, typeof fetch, typeof setTimeout, typeof XMLHttpRequest, typeof std, typeof os]
        .filter((t) => t !== 'undefined').length };
    }`);
    expect(script.run(input)).toEqual({ ok: true, values: { n: 0 } });
    script.dispose();
  });

  it('refuses a syntax error with its line', () => {
    const result = compileScript('function transform(input) {\n  return { W: input.points.W +  };\n}');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(/^SyntaxError: .*\(line 2\)$/);
  });

  it('refuses a source without transform', () => {
    const result = compileScript('const x = 1;');
    expect(result).toEqual({ ok: false, error: 'ReferenceError: the source defines no function transform(input)' });
  });

  it('stops an infinite loop at the time limit, and the context still runs afterwards', () => {
    const script = compiled('function transform(input) { if (input.points.W > 5000) { for (;;) {} } return { W: 1 }; }');
    const started = performance.now();
    const outcome = script.run({ ...input, points: { W: 9000 } });
    const elapsed = performance.now() - started;
    expect(outcome).toEqual({ ok: false, error: expect.stringMatching(`^InternalError: ran over ${SCRIPT_LIMITS.timeMs} ms`) });
    expect(elapsed).toBeLessThan(SCRIPT_LIMITS.timeMs * 10);
    expect(script.run(input)).toEqual({ ok: true, values: { W: 1 } });
    script.dispose();
  });

  it('stops an unbounded allocation at the memory or time limit', () => {
    for (const body of [
      'return { n: Array.from({ length: 1e8 }, (_, i) => i).length };',
      "return { n: 'x'.repeat(1e9).length };",
      'const a = []; for (;;) a.push({ at: a.length, text: "point " + a.length });',
    ]) {
      const script = compiled(`function transform() { ${body} }`);
      const outcome = script.run(input);
      expect(outcome).toEqual({ ok: false, error: expect.stringMatching(/^InternalError: (ran out of memory|ran over 50 ms)/) });
      script.dispose();
    }
  });

  it('stops unbounded recursion at the stack limit', () => {
    const script = compiled('function f(n) { return f(n + 1) + 1; } function transform() { return { W: f(0) }; }');
    const outcome = script.run(input);
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.error).toMatch(/^InternalError: stack overflow/);
    script.dispose();
  });

  it('refuses a result that is not an object of finite numbers, naming the point', () => {
    expect(compiled('function transform() { return 5; }').run(input)).toEqual({
      ok: false,
      error: expect.stringMatching(/^TypeError: transform must return an object of point values/),
    });
    expect(compiled('function transform() { return { W: 1 / 0 }; }').run(input)).toEqual({
      ok: false,
      error: 'TypeError: W is not a finite number or null',
    });
    expect(compiled("function transform() { throw new Error('no meter'); }").run(input)).toEqual({
      ok: false,
      error: 'Error: no meter (line 1)',
    });
  });

  it('suspends an installed script after repeated overruns, so the pipeline is never held up', () => {
    installScripts(new Map([['p-loop', 'function transform() { for (;;) {} }']]));
    const now = Date.now();
    for (let i = 0; i < SCRIPT_LIMITS.overrunsToSuspend; i++) expect(runInstalledScript('p-loop', input, now)?.ok).toBe(false);
    const started = performance.now();
    expect(runInstalledScript('p-loop', input, now + 1)).toEqual({ ok: false, error: 'Error: suspended after repeated overruns' });
    expect(performance.now() - started).toBeLessThan(5);
    expect(runInstalledScript('no-script', input)).toBeUndefined();
    installScripts(new Map());
  });
});
