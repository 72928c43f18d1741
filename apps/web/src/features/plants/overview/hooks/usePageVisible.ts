import { useEffect, useState } from 'react';

/**
 * Whether the page is on screen in a visible tab. A kept-alive page sits hidden while another page
 * shows, so it stops its live stream and polling until it is shown again. Returns a callback ref for
 * the page's root element (which may change as the page moves from loading to loaded).
 */
export function usePageVisible(): [(element: HTMLElement | null) => void, boolean] {
  const [element, setElement] = useState<HTMLElement | null>(null);
  const [shown, setShown] = useState(true);
  const [tabVisible, setTabVisible] = useState(() => document.visibilityState !== 'hidden');

  useEffect(() => {
    const onChange = () => setTabVisible(document.visibilityState !== 'hidden');
    document.addEventListener('visibilitychange', onChange);
    return () => document.removeEventListener('visibilitychange', onChange);
  }, []);

  useEffect(() => {
    if (!element || typeof IntersectionObserver === 'undefined') return;
    // Inside a hidden ancestor (display: none) the element has no box: that is "not shown".
    const observer = new IntersectionObserver((entries) => {
      for (const entry of entries) setShown(entry.isIntersecting || entry.boundingClientRect.height > 0);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [element]);

  return [setElement, shown && tabVisible];
}
