import { LIMITS } from '@sunward/contracts/limits';
import { Spin } from 'antd';
import { useEffect, useState } from 'react';
import { useLocation } from 'react-router';

/** Full-page overlay while a page's code loads (Suspense fallback) and briefly on every navigation. */
export function LoadingOverlay() {
  return (
    <div className="sw-overlay" data-testid="loading-overlay" role="progressbar" aria-busy="true">
      <Spin size="large" />
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
