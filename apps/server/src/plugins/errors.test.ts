import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { fieldWithNul } from './errors.js';

describe('fieldWithNul', () => {
  it('names the shallowest parsed field holding a NUL, in objects, arrays and keys', () => {
    expect(fieldWithNul({ name: 'ok', gateways: [{ sn: 'a\u0000b' }] })).toBe('gateways.0.sn');
    expect(fieldWithNul({ deep: { x: 'a\u0000' }, top: '\u0000' })).toBe('top');
    expect(fieldWithNul({ 'k\u0000': 1 })).toBe('k\u0000');
    expect(fieldWithNul('\u0000')).toBe('body');
    const query = Object.assign(Object.create(null) as Record<string, string>, { keyword: 'x\u0000' });
    expect(fieldWithNul(query)).toBe('keyword');
    expect(fieldWithNul({ a: 'clean', b: [1, null, true] })).toBeUndefined();
  });

  it('does not look into files: a Buffer or a raw upload stream with its cycles is passed over at once', () => {
    expect(fieldWithNul({ file: Buffer.from('a\u0000b') })).toBeUndefined();
    // A raw upload (an IncomingMessage) links to its socket and server, which link back: never walked.
    const stream = new PassThrough() as PassThrough & { self?: unknown; note?: string };
    stream.self = { back: stream };
    stream.note = 'a\u0000b';
    expect(fieldWithNul(stream)).toBeUndefined();
    expect(fieldWithNul({ upload: stream, name: 'ok' })).toBeUndefined();
  });

  it('visits each object once, so a cycle ends', () => {
    const a: Record<string, unknown> = { name: 'a' };
    a.self = a;
    expect(fieldWithNul(a)).toBeUndefined();
    a.later = { text: 'x\u0000' };
    expect(fieldWithNul(a)).toBe('later.text');
  });
});
