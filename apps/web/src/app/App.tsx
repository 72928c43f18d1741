import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { BrowserRouter } from 'react-router';
import { AppRouter } from './AppRouter';
import { SessionProvider } from './session';

const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } },
});

/** antd's provider wraps every page but sign-in, loaded with the first of them (app/antd-scope.tsx). */
export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <SessionProvider>
        <BrowserRouter>
          <AppRouter />
        </BrowserRouter>
      </SessionProvider>
    </QueryClientProvider>
  );
}
