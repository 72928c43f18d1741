import { LIMITS } from '@sunward/contracts/limits';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';

/**
 * Full-page overlay while a page's code loads (Suspense fallback) and briefly on every navigation. Drawn like
 * antd's large spinner with CSS alone: it shows before antd has loaded (the sign-in page carries no antd).
 */
export function LoadingOverlay() {
  const { t } = useTranslation();
  return (
    <div className="sw-overlay" data-testid="loading-overlay" role="progressbar" aria-busy="true" aria-label={t('shell.loading')}>
      <span className="sw-spin" aria-hidden="true">
        <i />
        <i />
        <i />
        <i />
      </span>
    </div>
  );
}

/** Shows for 200 ms after it mounts; remounted (by key) on every navigation. */
function NavigationFlash() {
  const [active, setActive] = useState(true);
  useEffect(() => {
    const timer = window.setTimeout(() => setActive(false), LIMITS.navigationOverlayMs);
    return () => window.clearTimeout(timer);
  }, []);
  if (!active) return null;
  return (
    <>
      <div className="sw-progress" data-testid="navigation-progress" />
      <LoadingOverlay />
    </>
  );
}

/**
 * Spec 01 §2: a thin progress bar and a full-page overlay during navigation; the overlay closes
 * 200 ms after the new page has rendered.
 */
export function NavigationProgress() {
  const { pathname } = useLocation();
  return <NavigationFlash key={pathname} />;
}
