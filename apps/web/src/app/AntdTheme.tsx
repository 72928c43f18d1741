import { DEFAULT_THEME_COLOR } from '@sunward/contracts/limits';
import { ConfigProvider } from 'antd';
import type { Locale } from 'antd/es/locale';
import type { ReactNode } from 'react';
import { brandColour } from '../lib/brand';
import { consoleTheme } from '../theme/tokens';
import { useSession } from './session';

/**
 * antd's provider for every page but sign-in (its texts in the console language, the console's theme): loaded with
 * the first page that uses antd (app/antd-scope.tsx). The company's theme colour becomes the console's primary
 * colour for its users (default #E6002D), kept readable; the shell sets the user's look inside it.
 */
export function AntdTheme({ antdLocale, children }: { antdLocale: Locale; children: ReactNode }) {
  const { user } = useSession();
  const colorPrimary = brandColour(user?.company?.themeColor, DEFAULT_THEME_COLOR);
  return (
    <ConfigProvider locale={antdLocale} theme={consoleTheme(colorPrimary, 'light')}>
      {children}
    </ConfigProvider>
  );
}
