import '../../../components/list-page.css';
// Registers the plant screens' texts before the first render (the registry is idempotent).
import '../../../lib/texts/plants';
import { DownloadOutlined, FilterOutlined, PlusOutlined, SwapOutlined, UploadOutlined } from '@ant-design/icons';
import { LANGUAGE_TAGS } from '@sunward/contracts/languages';
import { PLANT_LIMITS, type PlantRow } from '@sunward/contracts/plants';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Badge, Button, Empty, Segmented, Skeleton, Space, Spin, Tooltip } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { lazyNamed } from '../../../app/lazy-page';
import type { PageProps } from '../../../app/page-props';
import { useSession } from '../../../app/session';
import { PageTitle } from '../../../components/PageTitle';
import { Panel } from '../../../components/Panel';
import { StatusCounts } from '../../../components/StatusCounts';
import { Text } from '../../../components/Typo';
import { currentLanguage } from '../../../lib/i18n';
import { usePageSize } from '../../../lib/personalized';
import { fetchMapMarkers, fetchPlantPage, fetchStatusCounts, plantKeys } from './api';
import { PlantSearchBox } from './components/PlantSearchBox';
import { type PlantAction, PlantTable } from './components/PlantTable';
import { usePlantListParams } from './hooks/usePlantListParams';
import { useSearchHistory } from './hooks/useSearchHistory';
import {
  advancedFilterCount,
  compareLink,
  filterQuery,
  listQuery,
  type PlantListView,
  resetFilters,
  serializeListParams,
  withFilters,
} from './list-params';

// Leaflet and its clusterer load only when the map is first shown.
// The dialogs and the advanced search load when first opened: their date pickers, uploads and selects are not first-load weight.
const AdvancedSearch = lazyNamed(() => import('./components/AdvancedSearch'), 'AdvancedSearch');
const DeletePlantModal = lazyNamed(() => import('./components/DeletePlantModal'), 'DeletePlantModal');
const DownloadGenerationModal = lazyNamed(() => import('./components/DownloadGenerationModal'), 'DownloadGenerationModal');
const ImportPredictionModal = lazyNamed(() => import('./components/ImportPredictionModal'), 'ImportPredictionModal');
const ShareModal = lazyNamed(() => import('./components/ShareModal'), 'ShareModal');
const TransferModal = lazyNamed(() => import('./components/TransferModal'), 'TransferModal');
const PlantMap = lazy(() => import('./components/PlantMap').then((m) => ({ default: m.PlantMap })));

/** Live refresh: statuses, powers and counts follow the fleet. */
const REFRESH_MS = 30_000;

type Dialog = { kind: PlantAction; plant: PlantRow } | { kind: 'import' | 'download' } | null;

/** /plants: status counts, search and filters, the plant table or map, and the plant actions. */
export function PlantListPage({ route }: PageProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { has, user } = useSession();
  const locale = LANGUAGE_TAGS[currentLanguage()];
  const pageSize = usePageSize();
  const [params, setParams] = usePlantListParams(route.path, pageSize);
  const { history, remember, clear } = useSearchHistory(user?.id);
  const [advancedOpen, setAdvancedOpen] = useState(() => advancedFilterCount(params) > 0);
  const [selectedIds, setSelectedIds] = useState<number[]>([]);
  const [dialog, setDialog] = useState<Dialog>(null);

  // A kept-alive page stops polling while another page shows.
  const refetchInterval = () => (window.location.pathname === route.path ? REFRESH_MS : false);

  const counts = useQuery({ queryKey: plantKeys.counts, queryFn: fetchStatusCounts, refetchInterval });
  const query = listQuery(params);
  const page = useQuery({
    queryKey: plantKeys.page(query),
    queryFn: () => fetchPlantPage(query),
    placeholderData: keepPreviousData,
    refetchInterval,
    enabled: params.view === 'table',
  });

  // The map's markers are fetched while the map code (Leaflet) is still loading, not after it: started
  // during render (as usePrefetchQuery does), because the first commit waits for the map chunk.
  const queryClient = useQueryClient();
  const mapQuery = filterQuery(params);
  if (params.view === 'map' && !queryClient.getQueryState(plantKeys.map(mapQuery)))
    void queryClient.prefetchQuery({ queryKey: plantKeys.map(mapQuery), queryFn: () => fetchMapMarkers(mapQuery) });

  const actions: PlantAction[] = [];
  if (has('station.share')) actions.push('share');
  if (has('station.transfer')) actions.push('transfer');
  if (has('station.delete')) actions.push('delete');
  const canCreate = has('station.create');

  const filtersInUse = serializeListParams(resetFilters(params), pageSize) !== serializeListParams(params, pageSize);
  const noPlantsAtAll = counts.data?.total === 0 && !filtersInUse;
  const compareTo = compareLink(selectedIds);
  const advancedCount = advancedFilterCount(params);

  const pickStatus = (status: number | null) =>
    setParams({ ...resetFilters(params), status: status === null ? [] : [status] }, { push: true });
  const statusHref = (status: number | null) =>
    `${route.path}${serializeListParams({ ...resetFilters(params), status: status === null ? [] : [status] }, pageSize)}`;

  const search = (keyword: string) => {
    if (keyword) remember(keyword);
    setParams(withFilters(params, { keyword }), { push: true });
  };

  const toolbar = (
    <Space wrap className="sw-plant-toolbar">
      {canCreate && (
        <Button type="primary" icon={<PlusOutlined />} onClick={() => navigate('/plant-add')} data-testid="plant-create">
          {t('plants.create')}
        </Button>
      )}
      {has('station.import') && (
        <Button icon={<UploadOutlined />} onClick={() => setDialog({ kind: 'import' })} data-testid="plant-import">
          {t('plants.importPrediction')}
        </Button>
      )}
      {has('station.export') && (
        <Button icon={<DownloadOutlined />} onClick={() => setDialog({ kind: 'download' })} data-testid="plant-download">
          {t('plants.downloadGeneration')}
        </Button>
      )}
      {params.view === 'table' && (
        <Tooltip title={compareTo ? undefined : t('plants.compareHint', { max: PLANT_LIMITS.compareMax })}>
          <Button
            icon={<SwapOutlined />}
            disabled={!compareTo}
            onClick={() => compareTo && navigate(compareTo)}
            data-testid="plant-compare"
          >
            {selectedIds.length > 0 ? t('plants.compareCount', { selected: selectedIds.length }) : t('plants.compare')}
          </Button>
        </Tooltip>
      )}
    </Space>
  );

  const emptyTable = filtersInUse ? (
    <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('plants.noMatch')}>
      <Button onClick={() => setParams(resetFilters(params), { push: true })}>{t('plants.reset')}</Button>
    </Empty>
  ) : (
    <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('plants.noPlantsYet')} />
  );

  return (
    <div className="sw-plant-list" data-testid="plant-list-page">
      <div className="sw-plant-head">
        <PageTitle route={route} className="sw-plant-title" />
        {toolbar}
      </div>

      <StatusCounts counts={counts.data} activeStatus={params.status} locale={locale} hrefFor={statusHref} onPick={pickStatus} />

      {noPlantsAtAll ? (
        <Panel className="sw-page-card" testId="plant-empty">
          <Empty
            image={Empty.PRESENTED_IMAGE_DEFAULT}
            description={
              <Space orientation="vertical" size={4}>
                <Text strong>{t('plants.emptyTitle')}</Text>
                <Text type="secondary">{canCreate ? t('plants.emptyText') : t('plants.emptyNoCreate')}</Text>
              </Space>
            }
          >
            {canCreate && (
              <Button type="primary" icon={<PlusOutlined />} onClick={() => navigate('/plant-add')}>
                {t('plants.emptyCreate')}
              </Button>
            )}
          </Empty>
        </Panel>
      ) : (
        <Panel className="sw-page-card">
          <div className="sw-plant-filters">
            <PlantSearchBox keyword={params.keyword} history={history} onSearch={search} onClearHistory={clear} />
            <Badge count={advancedCount} size="small" color="var(--sw-primary)">
              <Button
                icon={<FilterOutlined />}
                onClick={() => setAdvancedOpen((o) => !o)}
                aria-expanded={advancedOpen}
                data-testid="advanced-toggle"
              >
                {t('plants.advancedSearch')}
              </Button>
            </Badge>
            {filtersInUse && (
              <Button type="link" onClick={() => setParams(resetFilters(params), { push: true })} data-testid="filters-reset">
                {t('plants.reset')}
              </Button>
            )}
            <Segmented<PlantListView>
              className="sw-view-toggle"
              value={params.view}
              onChange={(view) => setParams({ ...params, view }, { push: true })}
              options={[
                { value: 'table', label: t('plants.viewTable') },
                { value: 'map', label: t('plants.viewMap') },
              ]}
              data-testid="view-toggle"
            />
          </div>
          {advancedOpen && (
            <Suspense fallback={<Skeleton active paragraph={{ rows: 2 }} />}>
              <AdvancedSearch
                params={params}
                onApply={(patch) => setParams(withFilters(params, patch), { push: true })}
                onReset={() => setParams(resetFilters(params), { push: true })}
              />
            </Suspense>
          )}

          {params.view === 'map' ? (
            <Suspense
              fallback={
                <div className="sw-plant-map sw-plant-map-loading">
                  <Spin />
                </div>
              }
            >
              <PlantMap query={mapQuery} locale={locale} refetchInterval={refetchInterval()} />
            </Suspense>
          ) : page.isPending ? (
            <Skeleton active paragraph={{ rows: 8 }} data-testid="plant-skeleton" />
          ) : (
            <PlantTable
              rows={page.data?.records ?? []}
              total={page.data?.total ?? 0}
              loading={page.isFetching && page.isPlaceholderData}
              params={params}
              locale={locale}
              actions={actions}
              selectedIds={selectedIds}
              selectionMax={PLANT_LIMITS.compareMax}
              empty={emptyTable}
              onSelect={setSelectedIds}
              onChange={(change) => setParams({ ...params, ...change })}
              onAction={(kind, plant) => setDialog({ kind, plant })}
            />
          )}
        </Panel>
      )}

      <Suspense fallback={null}>
        {dialog?.kind === 'share' && <ShareModal plant={dialog.plant} locale={locale} onClose={() => setDialog(null)} />}
        {dialog?.kind === 'transfer' && <TransferModal plant={dialog.plant} onClose={() => setDialog(null)} />}
        {dialog?.kind === 'delete' && (
          <DeletePlantModal
            plant={dialog.plant}
            onClose={() => setDialog(null)}
            onDeleted={(id) => setSelectedIds((ids) => ids.filter((x) => x !== id))}
          />
        )}
        {dialog?.kind === 'import' && <ImportPredictionModal initialPlantId={selectedIds[0]} onClose={() => setDialog(null)} />}
        {dialog?.kind === 'download' && <DownloadGenerationModal initialPlantId={selectedIds[0]} onClose={() => setDialog(null)} />}
      </Suspense>
    </div>
  );
}
