import 'leaflet/dist/leaflet.css';
import type { DisplayPlant } from '@sunward/contracts/fullscreen';
import L from 'leaflet';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { statusStyle } from '../../lib/format';

/**
 * Up to this many plants carry their name on the map; beyond, the names cover each other (a world-wide fleet
 * of 20 drew one unreadable knot of labels). The plant table and the yield lists name them all.
 */
const LABELLED_MAX = 8;

/**
 * The plants on a map without tiles: a wall screen is often on a closed network and nothing downloads at run
 * time, so the markers (status colour, name) sit on the display's dark background, fitted to the fleet.
 * The map is made once; each refresh moves and recolours the markers in place (no reload for days).
 */
export function DisplayMap({ plants }: { plants: readonly DisplayPlant[] }) {
  const { t } = useTranslation();
  const containerRef = useRef<HTMLDivElement>(null);
  const mapRef = useRef<L.Map | null>(null);
  const layerRef = useRef<L.LayerGroup | null>(null);
  const fitted = useRef('');

  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    const map = L.map(container, {
      zoomControl: false,
      attributionControl: false,
      dragging: false,
      scrollWheelZoom: false,
      doubleClickZoom: false,
      boxZoom: false,
      keyboard: false,
      touchZoom: false,
      zoomSnap: 0.25,
    }).setView([20, 0], 2);
    mapRef.current = map;
    layerRef.current = L.layerGroup().addTo(map);
    const resize = new ResizeObserver(() => map.invalidateSize());
    resize.observe(container);
    return () => {
      resize.disconnect();
      map.remove();
      mapRef.current = null;
    };
  }, []);

  useEffect(() => {
    const map = mapRef.current;
    const layer = layerRef.current;
    if (!map || !layer) return;
    layer.clearLayers();
    const labelled = plants.length <= LABELLED_MAX;
    for (const plant of plants) {
      const style = statusStyle(plant.status);
      const marker = L.circleMarker([plant.latitude, plant.longitude], {
        radius: 9,
        color: '#0b1220',
        weight: 2,
        fillColor: style.color,
        fillOpacity: 0.95,
      });
      marker.bindTooltip(`${plant.name} · ${t(style.label)}`, {
        permanent: labelled,
        direction: 'right',
        offset: [10, 0],
        className: 'fs-map-label',
      });
      layer.addLayer(marker);
    }
    const key = plants.map((p) => `${p.id}:${p.latitude}:${p.longitude}`).join('|');
    if (plants.length > 0 && key !== fitted.current) {
      fitted.current = key;
      map.fitBounds(L.latLngBounds(plants.map((p) => [p.latitude, p.longitude])), { padding: [24, 24], maxZoom: 9 });
    }
  }, [plants, t]);

  return <div ref={containerRef} className="fs-map" role="img" aria-label={t('fullscreen.map')} />;
}
