import { Suspense } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import { loadDayjsLocale } from '../lib/antd-locale';
import { currentLanguage } from '../lib/i18n';
import { AntdScope } from './antd-scope';
import { lazyNamed } from './lazy-page';
import { LoadingOverlay, NavigationProgress } from './NavigationProgress';
import { findShellRoute } from './route-access';
import { PUBLIC_ROUTES, type PublicRoute } from './route-table';
import { useSession } from './session';
import { useDocumentTitle } from './useDocumentTitle';

const LoginPage = lazyNamed(() => import('../features/auth/LoginPage'), 'LoginPage');
/** Every page but sign-in may show dates: it shows once dayjs speaks the console language. */
const withDates = async <M,>(module: Promise<M>): Promise<M> => (await Promise.all([module, loadDayjsLocale(currentLanguage())]))[0];
const PublicInfoPage = lazyNamed(() => withDates(import('../features/errors/PublicInfoPage')), 'PublicInfoPage');
const NoAccessPage = lazyNamed(() => withDates(import('../features/errors/NoAccessPage')), 'NoAccessPage');
const LoginThirdPage = lazyNamed(() => withDates(import('../features/auth/third-party/LoginThirdPage')), 'LoginThirdPage');
const AuthorizationFailedPage = lazyNamed(
  () => withDates(import('../features/auth/third-party/AuthorizationFailedPage')),
  'AuthorizationFailedPage',
);
const FirmwareReleaseLogPage = lazyNamed(
  () => withDates(import('../features/firmware/releases/FirmwareReleaseLogPage')),
  'FirmwareReleaseLogPage',
);
const PublicLayoutPage = lazyNamed(() => withDates(import('../features/plants/layout/PublicLayoutPage')), 'PublicLayoutPage');
const AppDownloadPage = lazyNamed(() => withDates(import('../features/oem/AppDownloadPage')), 'AppDownloadPage');
const HelpPage = lazyNamed(() => import('../features/help/HelpPage'), 'HelpPage');
const NotFoundPage = lazyNamed(() => withDates(import('../features/errors/NotFoundPage')), 'NotFoundPage');
// Accounts (issue 7): registration, password reset, the agreement.
const RegisterPage = lazyNamed(() => withDates(import('../features/account/RegisterPage')), 'RegisterPage');
const ForgetPasswordPage = lazyNamed(() => withDates(import('../features/account/ForgetPasswordPage')), 'ForgetPasswordPage');
const ResetSuccessfulPage = lazyNamed(() => withDates(import('../features/account/ResetSuccessfulPage')), 'ResetSuccessfulPage');
const AgreementPage = lazyNamed(() => withDates(import('../features/account/AgreementPage')), 'AgreementPage');
const AgreementEnPage = lazyNamed(() => withDates(import('../features/account/AgreementPage')), 'AgreementEnPage');
const AppShell = lazyNamed(() => withDates(import('./AppShell')), 'AppShell');
// The large-screen display (issue 20): a wall screen opens it through a display link, without a session.
const FullscreenPage = lazyNamed(() => import('../features/fullscreen/FullscreenPage'), 'FullscreenPage');

/** Where a sign-in leads: the page the user was sent from to sign in, else home. */
function afterSignIn(state: unknown): string {
  const from = typeof state === 'object' && state !== null && 'from' in state && typeof state.from === 'string' ? state.from : null;
  return from && from !== '/login' ? from : '/';
}

function PublicPage({ route }: { route: PublicRoute }) {
  const { signedIn } = useSession();
  const location = useLocation();
  useDocumentTitle(route.title);
  // Spec 01 §2: a signed-in user opening /login goes to /, or to the page that sent them to sign in (a link opened
  // signed out): the sign-in itself renders this first. The sign-in page is the one page without antd.
  if (route.page === 'login') return signedIn ? <Navigate to={afterSignIn(location.state)} replace /> : <LoginPage />;
  return (
    <AntdScope>
      <AntdPublicPage route={route} />
    </AntdScope>
  );
}

function AntdPublicPage({ route }: { route: PublicRoute }) {
  if (route.page === 'fullscreen') return <FullscreenPage />;
  if (route.page === 'noAccess')
    return (
      <main>
        <NoAccessPage />
      </main>
    );
  // Third-party sign-in: /loginThird also serves a signed-in user binding an identity from personal settings.
  if (route.page === 'loginThird') return <LoginThirdPage />;
  if (route.page === 'authorizationFailed') return <AuthorizationFailedPage />;
  if (route.page === 'firmwareReleases') return <FirmwareReleaseLogPage />;
  if (route.page === 'plantLayout') return <PublicLayoutPage />;
  if (route.page === 'appDownload') return <AppDownloadPage />;
  if (route.page === 'help') return <HelpPage />;
  if (route.page === 'register') return <RegisterPage />;
  if (route.page === 'forget') return <ForgetPasswordPage />;
  if (route.page === 'resetSuccessful') return <ResetSuccessfulPage />;
  if (route.page === 'agreement') return <AgreementPage />;
  if (route.page === 'agreementEn') return <AgreementEnPage />;
  return <PublicInfoPage title={route.title} text={route.text ?? 'public.successText'} />;
}

/** Everything not public: the shell when signed in; sign-in for known routes otherwise; 404 for unknown paths. */
function PrivateArea() {
  const { signedIn } = useSession();
  const location = useLocation();
  const known = findShellRoute(location.pathname) !== undefined;
  useDocumentTitle(known ? undefined : 'route.notFound');
  if (!signedIn && known) return <Navigate to="/login" replace state={{ from: `${location.pathname}${location.search}` }} />;
  return <AntdScope>{signedIn ? <AppShell /> : <NotFoundPage />}</AntdScope>;
}

export function AppRouter() {
  return (
    <>
      <NavigationProgress />
      <Suspense fallback={<LoadingOverlay />}>
        <Routes>
          {PUBLIC_ROUTES.map((route) => (
            <Route key={route.path} path={route.path} element={<PublicPage route={route} />} />
          ))}
          <Route path="*" element={<PrivateArea />} />
        </Routes>
      </Suspense>
    </>
  );
}
