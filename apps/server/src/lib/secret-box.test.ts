import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { secretBoxWithKey } from './secret-box.js';

describe('secret box', () => {
  it('seals so that only the same key opens, and refuses tampered text', () => {
    const box = secretBoxWithKey(randomBytes(32));
    const sealed = box.seal('token-123');
    expect(sealed).not.toContain('token-123');
    expect(box.seal('token-123')).not.toBe(sealed);
    expect(box.open(sealed)).toBe('token-123');
    expect(secretBoxWithKey(randomBytes(32)).open(sealed)).toBeUndefined();
    expect(box.open(`${sealed.slice(0, -2)}AA`)).toBeUndefined();
    expect(box.open('plain')).toBeUndefined();
  });
});
