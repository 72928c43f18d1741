import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { type PlantListParams, parseListParams, serializeListParams } from '../list-params';

/**
 * The list's view kept in the address bar. The page is kept alive by the shell and rendered at a fixed
 * location (its path without search), so the router's own search params are not the address bar's:
 * this reads `window.location` directly. A link or back/forward that changes the search is followed;
 * coming back through the menu (the bare path) restores the view the user left, in the address bar too.
 */
export function usePlantListParams(
  path: string,
  defaultSize: number,
): [PlantListParams, (next: PlantListParams, options?: { push?: boolean }) => void] {
  const navigate = useNavigate();
  const [params, setParams] = useState<PlantListParams>(() => parseListParams(window.location.search, defaultSize));
  const written = useRef(serializeListParams(params, defaultSize));

  const update = useCallback(
    (next: PlantListParams, options: { push?: boolean } = {}) => {
      setParams(next);
      const search = serializeListParams(next, defaultSize);
      written.current = search;
      if (window.location.pathname === path && window.location.search !== search) {
        void navigate({ pathname: path, search }, { replace: !options.push });
      }
    },
    [navigate, path, defaultSize],
  );

  // Checked on every render: the shell re-renders kept pages whenever the address changes.
  const visibleSearch = window.location.pathname === path ? window.location.search : null;
  useEffect(() => {
    if (visibleSearch === null || visibleSearch === written.current) return;
    if (visibleSearch === '' && written.current !== '') {
      void navigate({ pathname: path, search: written.current }, { replace: true });
      return;
    }
    written.current = visibleSearch;
    setParams(parseListParams(visibleSearch, defaultSize));
  }, [visibleSearch, navigate, path, defaultSize]);

  // The personalized page size arrives after the first render: a list whose address names no size follows it.
  const appliedDefault = useRef(defaultSize);
  useEffect(() => {
    if (appliedDefault.current === defaultSize) return;
    const previous = appliedDefault.current;
    appliedDefault.current = defaultSize;
    setParams((current) => (current.size === previous ? { ...current, size: defaultSize, page: 1 } : current));
  }, [defaultSize]);

  return [params, update];
}
