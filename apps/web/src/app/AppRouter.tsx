import { Suspense } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import { lazyNamed } from './lazy-page';
import { LoadingOverlay, NavigationProgress } from './NavigationProgress';
import { findShellRoute } from './route-access';
import { PUBLIC_ROUTES, type PublicRoute } from './route-table';
import { useSession } from './session';
import { useDocumentTitle } from './useDocumentTitle';

const LoginPage = lazyNamed(() => import('../features/auth/LoginPage'), 'LoginPage');
const PublicInfoPage = lazyNamed(() => import('../features/errors/PublicInfoPage'), 'PublicInfoPage');
const NoAccessPage = lazyNamed(() => import('../features/errors/NoAccessPage'), 'NoAccessPage');
const NotFoundPage = lazyNamed(() => import('../features/errors/NotFoundPage'), 'NotFoundPage');
const AppShell = lazyNamed(() => import('./AppShell'), 'AppShell');

function PublicPage({ route }: { route: PublicRoute }) {
  const { signedIn } = useSession();
  useDocumentTitle(route.title);
  // Spec 01 §2: a signed-in user opening /login goes to /.
  if (route.page === 'login') return signedIn ? <Navigate to="/" replace /> : <LoginPage />;
  if (route.page === 'noAccess') return <NoAccessPage />;
  return <PublicInfoPage title={route.title} text={route.text ?? 'public.successText'} />;
}

/** Everything not public: the shell when signed in; sign-in for known routes otherwise; 404 for unknown paths. */
function PrivateArea() {
  const { signedIn } = useSession();
  const location = useLocation();
  const known = findShellRoute(location.pathname) !== undefined;
  useDocumentTitle(known ? undefined : 'route.notFound');
  if (!signedIn) {
    return known ? <Navigate to="/login" replace state={{ from: location.pathname }} /> : <NotFoundPage />;
  }
  return <AppShell />;
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
