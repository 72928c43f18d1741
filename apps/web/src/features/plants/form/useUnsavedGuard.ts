import { useEffect } from 'react';

/**
 * Asks before the tab is closed or reloaded while a form holds unsaved input. (In-app navigation is
 * not guarded: the console's router is a BrowserRouter, which has no blocker; the forms' Cancel asks.)
 */
export function useUnsavedGuard(active: boolean): void {
  useEffect(() => {
    if (!active) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [active]);
}
