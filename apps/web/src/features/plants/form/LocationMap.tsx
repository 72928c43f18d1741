import 'leaflet/dist/leaflet.css';
import { isLatitude, isLongitude } from '@sunward/contracts/plants';
import { Typography } from 'antd';
import L from 'leaflet';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useTileLayer } from '../list/hooks/useTileLayer';

interface Props {
  latitude: number | null | undefined;
  longitude: number | null | undefined;
  onPick(latitude: number, longitude: number): void;
  /** A place to show up close (chosen from the search, or the saved position on opening): a new object zooms to it. */
  focus: MapFocus | null;
  disabled?: boolean;
}

export interface MapFocus {
  latitude: number;
  longitude: number;
}

const PIN = L.divIcon({ className: 'sw-pf-pin', html: '<span></span>', iconSize: [26, 26], iconAnchor: [13, 26] });

/** Six decimals are about 10 cm: enough for a plant, and what a user can read back. */
export function roundCoordinate(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

/** Leaflet wraps longitudes past ±180 when the world repeats; the plant needs the real one. */
export function wrapLongitude(value: number): number {
  return ((((value + 180) % 360) + 360) % 360) - 180;
}

/**
 * The plant's position: a click sets it (and the marker); typed coordinates move the marker. Tiles
 * come from OpenStreetMap (or the China-reachable source); without network the map keeps a plain
 * background and clicks still set the coordinates.
 */
export function LocationMap({ latitude, longitude, onPick, focus, disabled }: Props) {
  const { t } = useTranslation();
  const containerRef = useRef<HTMLDivElement>(null);
  const mapRef = useRef<L.Map | null>(null);
  const markerRef = useRef<L.Marker | null>(null);
  const pickRef = useRef(onPick);
  pickRef.current = onPick;
  const disabledRef = useRef(disabled);
  disabledRef.current = disabled;

  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    const map = L.map(container, { minZoom: 2, worldCopyJump: true }).setView([25, 10], 2);
    map.on('click', (event: L.LeafletMouseEvent) => {
      if (disabledRef.current) return;
      pickRef.current(roundCoordinate(event.latlng.lat), roundCoordinate(wrapLongitude(event.latlng.lng)));
    });
    mapRef.current = map;
    // The page may be shown after being hidden (wizard steps, kept-alive pages): re-measure then.
    const resize = new ResizeObserver(() => map.invalidateSize());
    resize.observe(container);
    return () => {
      resize.disconnect();
      map.remove();
      mapRef.current = null;
      markerRef.current = null;
    };
  }, []);

  const tilesFailed = useTileLayer(mapRef);

  const valid = typeof latitude === 'number' && typeof longitude === 'number' && isLatitude(latitude) && isLongitude(longitude);
  useEffect(() => {
    const map = mapRef.current;
    if (!map) return;
    if (!valid) {
      markerRef.current?.remove();
      markerRef.current = null;
      return;
    }
    const at = L.latLng(latitude, longitude);
    if (markerRef.current) markerRef.current.setLatLng(at);
    else markerRef.current = L.marker(at, { icon: PIN, keyboard: false, interactive: false }).addTo(map);
    if (!map.getBounds().pad(-0.1).contains(at)) map.panTo(at, { animate: false });
  }, [valid, latitude, longitude]);

  // A chosen place shows its surroundings; typing coordinates or clicking does not zoom.
  useEffect(() => {
    const map = mapRef.current;
    if (!map || !focus || !isLatitude(focus.latitude) || !isLongitude(focus.longitude)) return;
    map.setView([focus.latitude, focus.longitude], 11, { animate: false });
  }, [focus]);

  return (
    <div className="sw-pf-map-wrap">
      <div
        ref={containerRef}
        className={`sw-pf-map${disabled ? ' sw-pf-map-disabled' : ''}`}
        data-testid="location-map"
        data-latitude={valid ? latitude : ''}
        data-longitude={valid ? longitude : ''}
      />
      {!disabled && (
        <Typography.Text type="secondary" className="sw-pf-hint">
          {tilesFailed ? t('plantform.mapOffline') : t('plantform.mapHint')}
        </Typography.Text>
      )}
    </div>
  );
}
