import { describe, expect, it } from 'vitest';
import { parseUrlEncoded } from './body-parsers.js';

describe('parseUrlEncoded', () => {
  it('turns repeated keys into arrays', () => {
    expect(parseUrlEncoded('sn=a&sn=b&name=x')).toEqual({ sn: ['a', 'b'], name: 'x' });
  });
  it('reads key[] as an array even with one value', () => {
    expect(parseUrlEncoded('ids[]=1')).toEqual({ ids: ['1'] });
    expect(parseUrlEncoded('ids[]=1&ids[]=2')).toEqual({ ids: ['1', '2'] });
  });
  it('decodes plus signs and percent escapes', () => {
    expect(parseUrlEncoded('q=a+b%26c')).toEqual({ q: 'a b&c' });
  });
  it('ignores prototype-polluting keys', () => {
    const parsed = parseUrlEncoded('__proto__=x&constructor=y&ok=1');
    expect(parsed).toEqual({ ok: '1' });
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });
});
