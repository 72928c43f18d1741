import { describe, expect, it } from 'vitest';
import { compareVersions, firmwareFits, versionInRange } from './firmware-compat.js';

describe('compareVersions', () => {
  it('orders numerically part by part, with a leading v and missing parts as 0', () => {
    expect(compareVersions('1.10.0', '1.9.0')).toBeGreaterThan(0);
    expect(compareVersions('v2.4', '2.4.0')).toBe(0);
    expect(compareVersions('2.4.1', '2.4.10')).toBeLessThan(0);
  });
});

describe('versionInRange', () => {
  it.each([
    ['1.5.0', '>=1.2.0 <2.0.0', true],
    ['2.0.0', '>=1.2.0 <2.0.0', false],
    ['1.7.3', '1.x', true],
    ['2.0.0', '1.x', false],
    ['2.4.9', '2.4.*', true],
    ['2.5.0', '2.4.1 || 2.5.*', true],
    ['2.6.0', '2.4.1 || 2.5.*', false],
    ['2.9.0', '^2.4', true],
    ['3.0.0', '^2.4', false],
    ['2.4.7', '~2.4.1', true],
    ['2.5.0', '~2.4.1', false],
    ['1.0.0', '>= 1.0.0, <= 1.0.0', true],
  ])('%s in %s: %s', (version, range, expected) => {
    expect(versionInRange(version, range)).toBe(expected);
  });

  it('cannot tell for a range no comparator makes sense of', () => {
    expect(versionInRange('1.0.0', '>=>1')).toBeUndefined();
  });
});

describe('firmwareFits', () => {
  it('refuses another hardware version and a software version outside the range', () => {
    expect(firmwareFits({ hwVersion: 'H2', swCompatible: null }, { hwVersion: 'H1', firmwareVersion: '1.0' })).toEqual({
      fits: false,
      reason: 'hardware',
    });
    expect(firmwareFits({ hwVersion: null, swCompatible: '>=2.0.0' }, { hwVersion: null, firmwareVersion: '1.0.0' })).toEqual({
      fits: false,
      reason: 'software',
    });
  });

  it('does not hold against a device what it has not reported', () => {
    expect(firmwareFits({ hwVersion: 'H2', swCompatible: '>=2.0.0' }, { hwVersion: null, firmwareVersion: null })).toEqual({ fits: true });
  });
});
