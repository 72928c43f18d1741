/**
 * Map tiles (spec: OpenStreetMap by default; a source reachable in China when GET /anonymous/ip says
 * inChina=1, or when that call fails). Without network the tiles just do not arrive: the markers
 * still show on the map container's plain background.
 */
export interface TileSource {
  id: 'osm' | 'autonavi';
  url: string;
  subdomains: string[];
  attribution: string;
  maxZoom: number;
}

export const OSM_TILES: TileSource = {
  id: 'osm',
  url: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
  subdomains: [],
  attribution: '&copy; <a href="https://www.openstreetmap.org/copyright" target="_blank" rel="noreferrer">OpenStreetMap</a>',
  maxZoom: 19,
};

export const AUTONAVI_TILES: TileSource = {
  id: 'autonavi',
  url: 'https://webrd0{s}.is.autonavi.com/appmaptile?lang=zh_cn&size=1&scale=1&style=8&x={x}&y={y}&z={z}',
  subdomains: ['1', '2', '3', '4'],
  attribution: '&copy; AutoNavi',
  maxZoom: 18,
};

/** `inChina` is the answer of /anonymous/ip, or undefined when the call failed. */
export function tileSourceFor(inChina: number | undefined): TileSource {
  return inChina === 0 ? OSM_TILES : AUTONAVI_TILES;
}
