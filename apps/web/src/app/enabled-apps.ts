import { Code } from '@sunward/contracts/codes';
import { AppListSchema, type SmartApp } from '@sunward/contracts/smart-home';
import { VideoSpacePageSchema } from '@sunward/contracts/video';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { apiRequest } from '../lib/api-client';
import { useSession } from './session';

/**
 * Apps whose pages the platform administrator has without any company enabling them: they are in no company and
 * keep the platform's AC switch stock (the server's gate lets them through too: smart-apps/app-gate.ts).
 */
const PLATFORM_APPS: readonly SmartApp[] = ['smart_switch'];

/**
 * The apps the caller's company enabled (GET component/apps), for the menu. Its query key is the application
 * centre's (features/smart/api.ts), so switching an app there updates the menu at once.
 */
export function useEnabledApps(): ReadonlySet<SmartApp> {
  const { user } = useSession();
  const platform = user?.role === 'platform_admin';
  const apps = useQuery({
    queryKey: ['smartApps'],
    queryFn: () => apiRequest('/api/v1/component/apps', { schema: AppListSchema }),
    staleTime: 60_000,
  });
  // A customer is in no company: their video entry opens when a company serving them enabled the camera app (the
  // server's gate decides; its list of the customer's own space answers only then).
  const customer = user?.role === 'customer';
  const camera = useQuery({
    queryKey: ['video', 'customerGate'],
    queryFn: () =>
      apiRequest('/api/v1/qvs/namespaces', {
        query: { page: 1, size: 1 },
        schema: VideoSpacePageSchema,
        tolerate: [Code.APP_NOT_ENABLED, Code.NO_PERMISSION],
      }).then(
        () => true,
        () => false,
      ),
    enabled: customer,
    staleTime: 60_000,
  });
  return useMemo(() => {
    const enabled = new Set<SmartApp>(apps.data ? apps.data.apps.filter((a) => a.enabled).map((a) => a.app) : []);
    if (platform) for (const app of PLATFORM_APPS) enabled.add(app);
    if (customer && camera.data) enabled.add('camera');
    return enabled;
  }, [apps.data, platform, customer, camera.data]);
}
