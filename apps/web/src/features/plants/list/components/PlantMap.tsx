import 'leaflet/dist/leaflet.css';
import 'leaflet.markercluster/dist/MarkerCluster.css';
import { type DeviceStatusValue, worstStatus } from '@sunward/contracts/device-status';
import { formatPower } from '@sunward/contracts/units';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Empty, Spin, Typography } from 'antd';
import L from 'leaflet';
import 'leaflet.markercluster';
import { useCallback, useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { StatusTag } from '../../../../components/StatusTag';
import { statusStyle } from '../../../../lib/format';
import { fetchMapMarkers, fetchPlantRow, plantKeys } from '../api';
import { useTileLayer } from '../hooks/useTileLayer';
import type { ApiQuery } from '../list-params';
import { overviewPath } from './PlantTable';

interface Props {
  query: ApiQuery;
  locale: string;
  refetchInterval: number | false;
}

interface OpenPopup {
  id: number;
  element: HTMLElement;
  popup: L.Popup;
}

const STATUS_VALUES: readonly number[] = [1, 2, 3, 4, 5, 6];

function asStatus(value: number): DeviceStatusValue {
  return (STATUS_VALUES.includes(value) ? value : 2) as DeviceStatusValue;
}

/** A cluster takes the colour of its worst plant, so a fault is visible from the whole-world view. */
function clusterIcon(statusOf: WeakMap<L.Layer, DeviceStatusValue>) {
  return (cluster: L.MarkerCluster) => {
    const children = cluster.getAllChildMarkers();
    const worst = worstStatus(children.map((m) => statusOf.get(m) ?? 2));
    const count = cluster.getChildCount();
    const size = count < 100 ? 34 : count < 1000 ? 40 : 48;
    return L.divIcon({
      html: `<span data-count="${count}">${count.toLocaleString()}</span>`,
      className: `sw-cluster sw-cluster-${statusStyle(worst).key}`,
      iconSize: L.point(size, size),
    });
  };
}

/**
 * Plants on a map: markers coloured by status and clustered (10,000 markers load in chunks), a popup
 * with the plant's live row fetched on click. Tiles that cannot load leave a plain background.
 */
export function PlantMap({ query, locale, refetchInterval }: Props) {
  const { t } = useTranslation();
  const containerRef = useRef<HTMLDivElement>(null);
  const mapRef = useRef<L.Map | null>(null);
  const clusterRef = useRef<L.MarkerClusterGroup | null>(null);
  const statusOf = useRef(new WeakMap<L.Layer, DeviceStatusValue>());
  const fittedFor = useRef<string | null>(null);
  const [popup, setPopup] = useState<OpenPopup | null>(null);

  const markers = useQuery({
    queryKey: plantKeys.map(query),
    queryFn: () => fetchMapMarkers(query),
    placeholderData: keepPreviousData,
    refetchInterval,
  });

  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    const map = L.map(container, { minZoom: 2, maxZoom: 18, worldCopyJump: true, zoomControl: true }).setView([20, 0], 2);
    const cluster = L.markerClusterGroup({
      chunkedLoading: true,
      showCoverageOnHover: false,
      spiderfyOnMaxZoom: true,
      maxClusterRadius: 60,
      iconCreateFunction: clusterIcon(statusOf.current),
    });
    map.addLayer(cluster);
    map.on('popupclose', (event: L.PopupEvent) => setPopup((open) => (open?.popup === event.popup ? null : open)));
    mapRef.current = map;
    clusterRef.current = cluster;
    // The page is kept alive hidden; coming back (or resizing) must not leave grey, unsized tiles.
    const resize = new ResizeObserver(() => map.invalidateSize());
    resize.observe(container);
    return () => {
      resize.disconnect();
      map.remove();
      mapRef.current = null;
      clusterRef.current = null;
    };
  }, []);

  useTileLayer(mapRef);

  const openPopup = useCallback((id: number, latLng: L.LatLng) => {
    const map = mapRef.current;
    if (!map) return;
    const element = document.createElement('div');
    element.className = 'sw-map-popup';
    const leafletPopup = L.popup({ minWidth: 220, maxWidth: 300, autoPanPadding: L.point(24, 24) })
      .setLatLng(latLng)
      .setContent(element)
      .openOn(map);
    setPopup({ id, element, popup: leafletPopup });
  }, []);

  const data = markers.data;
  const queryKey = JSON.stringify(query);
  useEffect(() => {
    const map = mapRef.current;
    const cluster = clusterRef.current;
    if (!map || !cluster || !data) return;
    cluster.clearLayers();
    const layers: L.Layer[] = [];
    const points: L.LatLngTuple[] = [];
    for (const [id, lat, lng, status] of data.markers) {
      const style = statusStyle(status);
      const marker = L.circleMarker([lat, lng], {
        radius: 8,
        color: '#ffffff',
        weight: 2,
        fillColor: style.color,
        fillOpacity: 0.95,
        className: `sw-marker sw-marker-${style.key}`,
      });
      statusOf.current.set(marker, asStatus(status));
      marker.on('click', () => openPopup(id, marker.getLatLng()));
      layers.push(marker);
      points.push([lat, lng]);
    }
    // Fit to the markers when the filters change, not on the 30-second refresh (the user may have zoomed).
    // Fitting first means the clusters are drawn once, at the final zoom.
    if (fittedFor.current !== queryKey && points.length > 0) {
      fittedFor.current = queryKey;
      map.fitBounds(L.latLngBounds(points), { padding: [40, 40], maxZoom: 12, animate: false });
    }
    cluster.addLayers(layers);
  }, [data, queryKey, openPopup]);

  const empty = data !== undefined && data.markers.length === 0;
  return (
    <div className="sw-plant-map-wrap" data-testid="plant-map">
      <div ref={containerRef} className="sw-plant-map" data-markers={data?.markers.length ?? ''} />
      {markers.isPending && (
        <div className="sw-map-overlay">
          <Spin />
        </div>
      )}
      {empty && (
        <div className="sw-map-overlay">
          <Empty description={t('plants.mapEmpty')} />
        </div>
      )}
      {popup &&
        createPortal(<MapPopupContent key={popup.id} id={popup.id} locale={locale} onLoaded={() => popup.popup.update()} />, popup.element)}
    </div>
  );
}

function MapPopupContent({ id, locale, onLoaded }: { id: number; locale: string; onLoaded(): void }) {
  const { t } = useTranslation();
  const row = useQuery({ queryKey: plantKeys.row(id), queryFn: () => fetchPlantRow(id) });
  const loaded = row.data !== undefined;
  useEffect(() => {
    if (loaded) onLoaded();
  }, [loaded, onLoaded]);
  if (row.isPending) return <Spin size="small" />;
  if (!row.data) return <Typography.Text type="secondary">{t('plants.popupFailed')}</Typography.Text>;
  const plant = row.data;
  return (
    <div data-testid="map-popup">
      <Typography.Text strong className="sw-map-popup-name">
        {plant.name}
      </Typography.Text>
      <dl className="sw-map-popup-facts">
        <dt>{t('plants.colStatus')}</dt>
        <dd>
          <StatusTag status={plant.status} />
        </dd>
        <dt>{t('plants.colPower')}</dt>
        <dd>{formatPower(plant.powerW, locale)}</dd>
      </dl>
      <Link to={overviewPath(plant)}>{t('plants.openOverview')}</Link>
    </div>
  );
}
