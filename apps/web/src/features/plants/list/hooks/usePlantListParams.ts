import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { type PlantListParams, parseListParams, serializeListParams } from '../list-params';

/**
 * The list's view kept in the address bar. The page is kept alive by the shell and rendered at a fixed
 * location (its path without search), so the router's own search params are not the address bar's:
 * this reads `window.location` directly. A link or back/forward that changes the search is followed;
 * coming back through the menu (the bare path) restores the view the user left, in the address bar too.
 */
export function usePlantListParams(path: string): [PlantListParams, (next: PlantListParams, options?: { push?: boolean }) => void] {
  const navigate = useNavigate();
  const [params, setParams] = useState<PlantListParams>(() => parseListParams(window.location.search));
  const written = useRef(serializeListParams(params));

  const update = useCallback(
    (next: PlantListParams, options: { push?: boolean } = {}) => {
      setParams(next);
      const search = serializeListParams(next);
      written.current = search;
      if (window.location.pathname === path && window.location.search !== search) {
        void navigate({ pathname: path, search }, { replace: !options.push });
      }
    },
    [navigate, path],
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
    setParams(parseListParams(visibleSearch));
  }, [visibleSearch, navigate, path]);

  return [params, update];
}
