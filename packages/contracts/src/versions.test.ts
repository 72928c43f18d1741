import { describe, expect, it } from 'vitest';
import { compareVersions, highestVersion, VERSION_NUMBER } from './versions.js';

describe('compareVersions', () => {
  it('compares part by part as numbers, not as text', () => {
    expect(compareVersions('1.10.0', '1.9.0')).toBe(1);
    expect(compareVersions('1.9.0', '1.10.0')).toBe(-1);
    expect(compareVersions('2', '1.99.99')).toBe(1);
    expect(compareVersions('1.2.0.1', '1.2')).toBe(1);
  });

  it('treats missing parts as 0, so 1.2 and 1.2.0 are the same version', () => {
    expect(compareVersions('1.2', '1.2.0')).toBe(0);
    expect(compareVersions('01.2', '1.2')).toBe(0);
  });

  it('finds the highest of a list', () => {
    expect(highestVersion(['1.9.0', '1.10.0', '1.2'])).toBe('1.10.0');
    expect(highestVersion([])).toBeUndefined();
  });

  it('accepts one to four dot-separated numbers only', () => {
    for (const ok of ['2', '2.1', '2.1.0', '2.1.0.7']) expect(VERSION_NUMBER.test(ok)).toBe(true);
    for (const bad of ['v2', '2.', '.2', '2..1', '2.1-beta', '1.2.3.4.5', '']) expect(VERSION_NUMBER.test(bad)).toBe(false);
  });
});
