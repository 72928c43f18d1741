import { lazy, type ReactNode, Suspense } from 'react';
import { loadAntdLocale } from '../lib/antd-locale';
import { currentLanguage } from '../lib/i18n';
import { loadAntdStyles } from './antd-styles';
import { LoadingOverlay } from './NavigationProgress';

// antd's provider, its theme, its static stylesheet and its locale texts load with the first page that uses antd:
// the sign-in page is plain HTML styled like antd and carries none of them (issue 18: at most 200 KB of JavaScript).
const AntdThemeLoaded = lazy(async () => {
  const [{ AntdTheme }, antdLocale] = await Promise.all([import('./AntdTheme'), loadAntdLocale(currentLanguage()), loadAntdStyles()]);
  return { default: ({ children }: { children: ReactNode }) => <AntdTheme antdLocale={antdLocale}>{children}</AntdTheme> };
});

/** Wraps content that uses antd components in antd's provider, loading it on first use. */
export function AntdScope({ children, fallback = <LoadingOverlay /> }: { children: ReactNode; fallback?: ReactNode }) {
  return (
    <Suspense fallback={fallback}>
      <AntdThemeLoaded>{children}</AntdThemeLoaded>
    </Suspense>
  );
}
