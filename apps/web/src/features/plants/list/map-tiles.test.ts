import { describe, expect, it } from 'vitest';
import { AUTONAVI_TILES, OSM_TILES, tileSourceFor } from './map-tiles';

describe('map tile source', () => {
  it('uses OpenStreetMap outside China', () => {
    expect(tileSourceFor(0)).toBe(OSM_TILES);
  });

  it('uses a source reachable in China there, and when the location check failed', () => {
    expect(tileSourceFor(1)).toBe(AUTONAVI_TILES);
    expect(tileSourceFor(undefined)).toBe(AUTONAVI_TILES);
    expect(AUTONAVI_TILES.subdomains).toEqual(['1', '2', '3', '4']);
  });
});
