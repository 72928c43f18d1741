import { useQuery } from '@tanstack/react-query';
import L from 'leaflet';
import { type RefObject, useEffect, useState } from 'react';
import { fetchInChina } from '../api';
import { tileSourceFor } from '../map-tiles';

// A few failed tiles in a row mean there is no tile network (offline, blocked), not a slow tile.
const FAILED_AFTER_ERRORS = 4;

/**
 * Adds the session's tile layer to a map: OpenStreetMap, or the China-reachable source when
 * /anonymous/ip says so or fails (checked once per session). Returns whether tiles are failing, so a
 * map can say that clicks still work on its plain background.
 */
export function useTileLayer(mapRef: RefObject<L.Map | null>): boolean {
  const [tilesFailed, setTilesFailed] = useState(false);
  const where = useQuery({ queryKey: ['anonymous-ip'], queryFn: fetchInChina, staleTime: Number.POSITIVE_INFINITY, retry: false });
  const tileSource = where.isPending ? undefined : tileSourceFor(where.data?.inChina);
  useEffect(() => {
    const map = mapRef.current;
    if (!map || !tileSource) return;
    let failures = 0;
    const layer = L.tileLayer(tileSource.url, {
      attribution: tileSource.attribution,
      maxZoom: tileSource.maxZoom,
      ...(tileSource.subdomains.length ? { subdomains: tileSource.subdomains } : {}),
    });
    layer.on('tileerror', () => {
      failures += 1;
      if (failures === FAILED_AFTER_ERRORS) setTilesFailed(true);
    });
    layer.on('tileload', () => setTilesFailed(false));
    layer.addTo(map);
    return () => {
      layer.remove();
    };
  }, [mapRef, tileSource]);
  return tilesFailed;
}
