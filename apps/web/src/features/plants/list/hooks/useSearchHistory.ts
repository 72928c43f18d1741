import { useCallback, useState } from 'react';
import { addToHistory, parseHistory, searchHistoryKey } from '../search-history';

/** The signed-in account's last ten plant searches, in local storage. */
export function useSearchHistory(userId: number | undefined) {
  const key = searchHistoryKey(userId);
  const [state, setState] = useState(() => ({ key, history: parseHistory(localStorage.getItem(key)) }));
  // Another account (or the user loaded after the first render) reads its own list.
  const current = state.key === key ? state : { key, history: parseHistory(localStorage.getItem(key)) };
  if (current !== state) setState(current);

  const remember = useCallback(
    (term: string) => {
      setState((s) => {
        const history = addToHistory(s.key === key ? s.history : parseHistory(localStorage.getItem(key)), term);
        localStorage.setItem(key, JSON.stringify(history));
        return { key, history };
      });
    },
    [key],
  );

  const clear = useCallback(() => {
    localStorage.removeItem(key);
    setState({ key, history: [] });
  }, [key]);

  return { history: current.history, remember, clear };
}
