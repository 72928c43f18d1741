import './fullscreen.css';
import { DISPLAY_LIMITS } from '@sunward/contracts/fullscreen';
import { LANGUAGE_TAGS } from '@sunward/contracts/languages';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation } from 'react-router';
import { useSession } from '../../app/session';
import { ApiCallError } from '../../lib/api-client';
import { registerTexts } from '../../lib/feature-texts';
import { currentLanguage } from '../../lib/i18n';
import { useLiveSubscription } from '../../lib/live-push';
import { listTexts } from '../../lib/texts/plants/list';
import { fetchDisplayData, fullscreenKeys, LINK_REFUSALS } from './api';
import { DisplayMap } from './DisplayMap';
import { AlarmsPanel, FlowPanel, KpiPanel, PlantsPanel, RankingPanel, StatusPanel } from './DisplayPanels';
import { DISPLAY_PARTS, type DisplayPart, readDisplayParams, stageScale } from './display-params';
import { fullscreenTexts } from './texts';

registerTexts(fullscreenTexts);
registerTexts(listTexts);

/** Through a display link the figures are fetched again this often (the push stream needs a session). */
const LINK_REFRESH_MS = 30_000;
/** Signed in, pushed changes refresh the figures at most this often; a slow interval covers a quiet stream. */
const PUSH_THROTTLE_MS = 5_000;
const SIGNED_IN_REFRESH_MS = 120_000;

/** The 1920×1080 stage, scaled to the window (transform), so every resolution shows the same layout. */
function Stage({ children }: { children: ReactNode }) {
  const [scale, setScale] = useState(() => stageScale(window.innerWidth, window.innerHeight));
  useEffect(() => {
    const resize = () => setScale(stageScale(window.innerWidth, window.innerHeight));
    window.addEventListener('resize', resize);
    return () => window.removeEventListener('resize', resize);
  }, []);
  return (
    <div className="fs-root">
      <div className="fs-stage" style={{ transform: `translate(-50%, -50%) scale(${scale})` }}>
        {children}
      </div>
    </div>
  );
}

function Clock({ locale }: { locale: string }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return (
    <time className="fs-clock" dateTime={new Date(now).toISOString()}>
      {new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'medium' }).format(now)}
    </time>
  );
}

/** The "multiple pages" style: the part shown now, turning every `seconds`. */
function useRotation(enabled: boolean, seconds: number): DisplayPart {
  const [index, setIndex] = useState(0);
  useEffect(() => {
    if (!enabled) return;
    const timer = setInterval(() => setIndex((i) => (i + 1) % DISPLAY_PARTS.length), seconds * 1000);
    return () => clearInterval(timer);
  }, [enabled, seconds]);
  return DISPLAY_PARTS[index] ?? 1;
}

/**
 * The large-screen display (issue 20): fleet KPIs, statuses, map, live alarms, an energy flow and the specific
 * yield ranking on a dark 1920×1080 stage, in three styles — single page, multiple screens (?screen=1..3, one
 * part per window) and multiple pages (rotating). Opened signed in, or through a display link (#key=…) without
 * a session; a revoked or expired link shows the server's localised refusal instead of the figures.
 */
export function FullscreenPage() {
  const { t } = useTranslation();
  const location = useLocation();
  const { signedIn } = useSession();
  const params = useMemo(() => readDisplayParams(location.search, location.hash), [location.search, location.hash]);
  const locale = LANGUAGE_TAGS[currentLanguage()];
  const queryClient = useQueryClient();
  const viaLink = params.token !== null;
  const key = fullscreenKeys.data(params.token, params.flowPlantId);
  const data = useQuery({
    queryKey: key,
    queryFn: () => fetchDisplayData(params.token, params.flowPlantId),
    enabled: viaLink || signedIn,
    refetchInterval: viaLink ? LINK_REFRESH_MS : SIGNED_IN_REFRESH_MS,
    refetchIntervalInBackground: true,
    retry: (count, error) => !(error instanceof ApiCallError && LINK_REFUSALS.includes(error.code)) && count < 3,
  });
  const rotating = params.style === 'pages';
  const rotated = useRotation(rotating, params.seconds);

  const lastPush = useRef(0);
  const onPush = useCallback(() => {
    const now = Date.now();
    if (now - lastPush.current < PUSH_THROTTLE_MS) return;
    lastPush.current = now;
    void queryClient.invalidateQueries({ queryKey: key });
  }, [queryClient, key]);
  useLiveSubscription(['plant', 'event', 'device'], onPush, { enabled: signedIn && !viaLink, onOpen: onPush });

  useEffect(() => {
    document.documentElement.classList.add('fs-document');
    return () => document.documentElement.classList.remove('fs-document');
  }, []);

  if (!viaLink && !signedIn) return <Navigate to="/login" replace state={{ from: `${location.pathname}${location.search}` }} />;

  const refused = data.error instanceof ApiCallError && LINK_REFUSALS.includes(data.error.code) ? data.error : null;
  if (refused)
    return (
      <Stage>
        <main className="fs-refused" data-testid="fs-refused">
          <h1>{t('fullscreen.unavailable')}</h1>
          <p>{refused.message}</p>
        </main>
      </Stage>
    );
  const d = data.data;
  if (!d)
    return (
      <Stage>
        <main className="fs-refused">
          <h1>{data.isError ? t('fullscreen.offlineRetry') : t('fullscreen.loading')}</h1>
        </main>
      </Stage>
    );

  const part: DisplayPart | 'all' = params.style === 'single' ? 'all' : params.style === 'screens' ? params.screen : rotated;
  const indicator =
    params.style === 'screens'
      ? t('fullscreen.screen', { screen: params.screen, screens: DISPLAY_LIMITS.screens })
      : params.style === 'pages'
        ? t('fullscreen.page', { page: rotated, pages: DISPLAY_PARTS.length })
        : null;

  return (
    <Stage>
      <main className={`fs-layout fs-part-${part}`} data-testid="fs-display" data-style={params.style} data-part={part}>
        <header className="fs-header">
          <h1>{d.title ?? t('fullscreen.title')}</h1>
          <span className="fs-muted">{t('fullscreen.updated', { time: new Date(d.generatedAt).toLocaleTimeString(locale) })}</span>
          {indicator && <span className="fs-indicator">{indicator}</span>}
          <Clock locale={locale} />
        </header>
        {d.kpi.plantCount === 0 ? (
          <p className="fs-empty fs-empty-page">{t('fullscreen.noPlants')}</p>
        ) : (
          <>
            {(part === 'all' || part === 1) && (
              <>
                <KpiPanel data={d} locale={locale} />
                <StatusPanel data={d} locale={locale} />
              </>
            )}
            {(part === 'all' || part === 2) && (
              <>
                <section className="fs-panel fs-mapbox" aria-label={t('fullscreen.map')}>
                  <header className="fs-panel-head">
                    <h2>{t('fullscreen.map')}</h2>
                  </header>
                  <DisplayMap plants={d.plants} />
                </section>
                <AlarmsPanel data={d} locale={locale} />
              </>
            )}
            {(part === 'all' || part === 3) && (
              <>
                <FlowPanel data={d} locale={locale} />
                <RankingPanel data={d} locale={locale} />
                {part === 3 && <PlantsPanel data={d} locale={locale} />}
              </>
            )}
          </>
        )}
      </main>
    </Stage>
  );
}
