import { describe, expect, it } from 'vitest';
import { displayUrl, readDisplayParams, stageScale } from './display-params';

describe('display addresses', () => {
  it('read the style, screen, seconds and the token from the fragment', () => {
    expect(readDisplayParams('?style=screens&screen=2', '#key=abc')).toEqual({
      token: 'abc',
      style: 'screens',
      screen: 2,
      seconds: 20,
      flowPlantId: undefined,
    });
    expect(readDisplayParams('?style=nope&screen=9&seconds=2&plant=7', '')).toMatchObject({
      token: null,
      style: 'single',
      screen: 1,
      seconds: 20,
      flowPlantId: 7,
    });
  });

  it('round-trip through displayUrl', () => {
    const url = new URL(displayUrl('https://x.test', { token: 'a+b/c', style: 'pages', seconds: 30 }));
    expect(url.pathname).toBe('/fullscreen');
    expect(readDisplayParams(url.search, url.hash)).toMatchObject({ token: 'a+b/c', style: 'pages', seconds: 30 });
  });

  it('scale 1920×1080 to 4K and 1366×768 without overflow', () => {
    expect(stageScale(3840, 2160)).toBe(2);
    expect(stageScale(1366, 768) * 1080).toBeLessThanOrEqual(768);
    expect(stageScale(1366, 768) * 1920).toBeLessThanOrEqual(1366);
  });
});
