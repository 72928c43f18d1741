import { describe, expect, it } from 'vitest';
import { md5 } from './md5';

const text = (s: string) => new TextEncoder().encode(s);

describe('md5', () => {
  it('gives the RFC 1321 test-suite digests', () => {
    expect(md5(text(''))).toBe('d41d8cd98f00b204e9800998ecf8427e');
    expect(md5(text('a'))).toBe('0cc175b9c0f1b6a831c399e269772661');
    expect(md5(text('abc'))).toBe('900150983cd24fb0d6963f7d28e17f72');
    expect(md5(text('message digest'))).toBe('f96b697d7cb7938d525a2f31aaf161d0');
    expect(md5(text('abcdefghijklmnopqrstuvwxyz'))).toBe('c3fcd3d76192e4007dfb496cca67e13b');
    expect(md5(text('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'))).toBe('d174ab98d277d9f5a5611c2c9f419d9f');
    expect(md5(text('1234567890'.repeat(8)))).toBe('57edf4a22be3c955ac49da2e2107b67a');
  });

  it('pads correctly around the 56- and 64-byte block boundaries (digests from Python hashlib)', () => {
    const expected: Record<number, string> = {
      55: '52c0e574e1198de5fe3f8f11440dcb1b',
      56: '46c9907fc908ee68b1e7b8e71286a518',
      57: '1c805dd236c35cab25fcb1bc73802c51',
      63: 'a62f6d59e837867693f042f5b8f5a236',
      64: '7160b8fb5e9e4023d549c3971fbaeead',
      65: '70bd662e7aefbda85a0f7244167b7897',
      119: 'e84905d4214f4d1ca56c2cdcc152b143',
      120: 'e3eb5a6c8669ea01a8c185b8abc8a5dc',
      128: '10b2da1a82f16d99a81a7203fe9f02cb',
    };
    for (const [size, digest] of Object.entries(expected)) {
      const bytes = Uint8Array.from({ length: Number(size) }, (_, i) => (i * 7 + 3) & 0xff);
      expect(md5(bytes), size).toBe(digest);
    }
  });

  it('hashes a million bytes (the RFC test of one million "a")', () => {
    expect(md5(new Uint8Array(1_000_000).fill(0x61))).toBe('7707d6ae4e027c70eea2a935c2296f21');
  });
});
