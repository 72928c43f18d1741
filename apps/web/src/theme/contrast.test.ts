import { describe, expect, it } from 'vitest';
import { contrastRatio, mix, readableOn } from './contrast';

describe('contrast', () => {
  it('measures WCAG ratios (black on white 21:1, the brand red on its menu tint below AA)', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#e6002d', '#ffe6e6')).toBeCloseTo(4.02, 1);
  });

  it('keeps a colour that already reads and darkens or lightens one that does not', () => {
    expect(readableOn('#e6002d', '#ffffff')).toBe('#e6002d');
    const onTint = readableOn('#e6002d', '#ffe6e6');
    expect(contrastRatio(onTint, '#ffe6e6')).toBeGreaterThanOrEqual(4.5);
    const onDark = readableOn('#e6002d', '#141414');
    expect(contrastRatio(onDark, '#141414')).toBeGreaterThanOrEqual(4.5);
    // A pale company colour (yellow) still gives readable text on white.
    expect(contrastRatio(readableOn('#ffe14d', '#ffffff'), '#ffffff')).toBeGreaterThanOrEqual(4.5);
  });

  it('mixes colours', () => {
    expect(mix('#000000', '#ffffff', 0.5)).toBe('#808080');
  });
});
