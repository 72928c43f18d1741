import { DEFAULT_THEME_COLOR } from '@sunward/contracts/limits';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ConfigProvider } from 'antd';
import type { Locale } from 'antd/es/locale';
import type { ReactNode } from 'react';
import { BrowserRouter } from 'react-router';
import { consoleTheme } from '../theme/tokens';
import { AppRouter } from './AppRouter';
import { SessionProvider, useSession } from './session';

const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } },
});

/** The company's theme colour becomes the console's primary colour for its users (default #E6002D), kept readable. */
function Themed({ antdLocale, children }: { antdLocale: Locale; children: ReactNode }) {
  const { user } = useSession();
  const colorPrimary = user?.company?.themeColor ?? DEFAULT_THEME_COLOR;
  return (
    <ConfigProvider locale={antdLocale} theme={consoleTheme(colorPrimary, 'light')}>
      {children}
    </ConfigProvider>
  );
}

export function App({ antdLocale }: { antdLocale: Locale }) {
  return (
    <QueryClientProvider client={queryClient}>
      <SessionProvider>
        <Themed antdLocale={antdLocale}>
          <BrowserRouter>
            <AppRouter />
          </BrowserRouter>
        </Themed>
      </SessionProvider>
    </QueryClientProvider>
  );
}
