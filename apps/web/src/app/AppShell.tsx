import { DEFAULT_THEME_COLOR } from '@sunward/contracts/limits';
import { App as AntApp, ConfigProvider, Layout } from 'antd';
import { Suspense, useEffect, useRef, useState } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import { NoticeDialog } from '../features/notices/NoticeDialog';
import { UpdateDialog } from '../features/versions/UpdateDialog';
import { brandColour } from '../lib/brand';
import { chooseHomePage, rememberStyleType, usePersonalized } from '../lib/personalized';
import { consoleTheme, linkColour } from '../theme/tokens';
import { ApiUiBridge } from './ApiUiBridge';
import { AppFooter } from './AppFooter';
import { lazyNamed } from './lazy-page';
import { LoadingOverlay } from './NavigationProgress';
import { PAGES } from './pages';
import { canOpen, findShellRoute, homePath } from './route-access';
import { ALL_SHELL_ROUTES, type AppRoute } from './route-table';
import { SideMenu } from './SideMenu';
import { useSession } from './session';
import { TopBar } from './TopBar';
import { useDocumentTitle } from './useDocumentTitle';

// Shown only when a route is refused or unknown: loaded then (antd's Result and its pictures are not first-load weight).
const NoAccessPage = lazyNamed(() => import('../features/errors/NoAccessPage'), 'NoAccessPage');
const NotFoundPage = lazyNamed(() => import('../features/errors/NotFoundPage'), 'NotFoundPage');
const PermissionLoadFailed = lazyNamed(() => import('./PermissionLoadFailed'), 'PermissionLoadFailed');

/** `/` opens the page chosen in personal settings (when the user's role can open it). */
function HomeRedirect() {
  const { has } = useSession();
  const { homePage, loaded } = usePersonalized();
  if (!loaded) return <LoadingOverlay />;
  const canOpenPath = (path: string) => {
    const route = findShellRoute(path);
    return route !== undefined && canOpen(route, has);
  };
  return <Navigate to={chooseHomePage(homePage, canOpenPath, homePath(has)) ?? '/403'} replace />;
}

function RoutePage({ route }: { route: AppRoute }) {
  const { has } = useSession();
  useDocumentTitle(route.title);
  if (!canOpen(route, has)) return <NoAccessPage />;
  if (route.redirect) return route.path === '/' ? <HomeRedirect /> : <Navigate to={route.redirect} replace />;
  const Page = route.page ? PAGES[route.page] : undefined;
  return Page ? <Page route={route} /> : <NotFoundPage />;
}

function NotFoundInShell() {
  useDocumentTitle('route.notFound');
  return <NotFoundPage />;
}

function ShellRoutes({ location }: { location?: string }) {
  return (
    <Routes location={location}>
      {ALL_SHELL_ROUTES.filter((r) => !r.newTab).map((route) => (
        <Route key={route.path} path={route.path} element={<RoutePage route={route} />} />
      ))}
      <Route path="*" element={<NotFoundInShell />} />
    </Routes>
  );
}

/**
 * Pages flagged `cached` stay mounted (hidden) once visited, so a plant list keeps its filters and
 * scroll position when the user comes back (spec 01 §4). Each kept page renders its own routes at
 * its own location, so it does not follow the address bar while hidden.
 */
function KeepAliveContent() {
  const { pathname } = useLocation();
  const visited = useRef(new Set<string>());
  const cacheable = findShellRoute(pathname)?.cached === true;
  if (cacheable) visited.current.add(pathname);
  return (
    <>
      {[...visited.current].map((path) => (
        <div key={path} hidden={path !== pathname} data-cached-page={path}>
          <ShellRoutes location={path} />
        </div>
      ))}
      {!cacheable && <ShellRoutes />}
    </>
  );
}

export function AppShell() {
  const { permissions, permissionsError, user } = useSession();
  const [collapsed, setCollapsed] = useState(false);
  const { pathname } = useLocation();
  const { styleType } = usePersonalized();
  const brand = brandColour(user?.company?.themeColor, DEFAULT_THEME_COLOR);
  useEffect(() => {
    rememberStyleType(styleType);
    document.documentElement.dataset.theme = styleType;
    document.documentElement.style.setProperty('--sw-link', linkColour(brand, styleType));
    return () => {
      delete document.documentElement.dataset.theme;
      document.documentElement.style.removeProperty('--sw-link');
    };
  }, [styleType, brand]);

  if (permissionsError) {
    return (
      <Suspense fallback={<LoadingOverlay />}>
        <PermissionLoadFailed />
      </Suspense>
    );
  }
  if (!permissions) return <LoadingOverlay />;
  // Accounts (issue 7): staff of a company that requires two-factor sign-in enrol before anything else.
  if (user?.twoFactorSetupRequired && pathname !== '/edit') return <Navigate to="/edit?tab=security" replace />;

  return (
    <ConfigProvider theme={consoleTheme(brand, styleType)}>
      <AntApp>
        <ApiUiBridge />
        <NoticeDialog />
        <UpdateDialog />
        <Layout className="sw-shell">
          <Layout.Sider collapsible collapsed={collapsed} trigger={null} width={232} collapsedWidth={64} className="sw-sider" theme="light">
            <SideMenu collapsed={collapsed} />
          </Layout.Sider>
          <Layout>
            <TopBar collapsed={collapsed} onToggle={() => setCollapsed((c) => !c)} />
            <Layout.Content className="sw-content">
              <Suspense fallback={<LoadingOverlay />}>
                <KeepAliveContent />
              </Suspense>
            </Layout.Content>
            <AppFooter />
          </Layout>
        </Layout>
      </AntApp>
    </ConfigProvider>
  );
}
