import { Code } from '@sunward/contracts/codes';
import {
  type AppAuthorisation,
  type AppGrant,
  type AppList,
  AVAILABLE_SMART_APPS,
  GRANTED_SMART_APPS,
  SMART_APPS,
  type SmartApp,
} from '@sunward/contracts/smart-home';
import { ApiError } from '../../lib/envelope.js';
import type { AuthContext } from '../../plugins/auth.js';
import type { OperationLog } from '../audit/operation-log.js';
import type { SmartAppsRepository } from './smart-apps.repository.js';

/** Who may switch apps on and off for the company: its administrator (and the platform's, for none: no company). */
const canManage = (auth: AuthContext) => auth.companyId !== null && auth.roleKey === 'company_admin';

/**
 * The application centre (issue 22 part 4): apps are enabled per company; the smart bulb app's authorisation is
 * its bridge connection. Accounts outside a company see every app disabled (there is nothing to store them on).
 */
export function createSmartAppsService(deps: {
  repository: SmartAppsRepository;
  log: OperationLog;
  /** The platform administrator's grants (GRANTED_SMART_APPS: the video service, features/video). */
  grants?: { isGranted(companyId: number, app: SmartApp): Promise<boolean> };
}) {
  const { repository } = deps;

  async function authorisation(companyId: number | null, app: SmartApp): Promise<AppAuthorisation> {
    if (app !== 'smart_bulb') return 'not_required';
    if (companyId === null) return 'missing';
    const bridge = await repository.bridge(companyId);
    if (!bridge) return 'missing';
    if (bridge.revoked) return 'revoked';
    if (bridge.failed) return 'failed';
    return bridge.connected ? 'granted' : 'missing';
  }

  async function grantOf(companyId: number | null, app: SmartApp): Promise<AppGrant> {
    if (!GRANTED_SMART_APPS.includes(app)) return 'not_required';
    return companyId !== null && (await deps.grants?.isGranted(companyId, app)) ? 'granted' : 'missing';
  }

  /** Enabled apps; one that needs a grant counts only while it holds it (a withdrawn grant closes its gate). */
  async function enabledApps(companyId: number | null): Promise<Set<SmartApp>> {
    if (companyId === null) return new Set();
    const rows = await repository.list(companyId);
    const enabled = new Set<SmartApp>();
    for (const row of rows)
      if (row.enabled && (await grantOf(companyId, row.app as SmartApp)) !== 'missing') enabled.add(row.app as SmartApp);
    return enabled;
  }

  return {
    async list(auth: AuthContext): Promise<AppList> {
      const rows = auth.companyId === null ? [] : await repository.list(auth.companyId);
      const byApp = new Map(rows.map((r) => [r.app, r]));
      const apps = [];
      for (const app of SMART_APPS) {
        const row = byApp.get(app);
        apps.push({
          app,
          available: AVAILABLE_SMART_APPS.includes(app),
          enabled: row?.enabled ?? false,
          authorisation: await authorisation(auth.companyId, app),
          grant: await grantOf(auth.companyId, app),
          changedAt: row ? row.changedAt.toISOString() : null,
        });
      }
      return { apps, canManage: canManage(auth) };
    },

    async setEnabled(auth: AuthContext, app: SmartApp, enabled: boolean): Promise<AppList> {
      if (!canManage(auth) || auth.companyId === null) throw new ApiError(Code.NO_PERMISSION);
      if (!AVAILABLE_SMART_APPS.includes(app)) throw new ApiError(Code.APP_NOT_AVAILABLE);
      if (enabled && (await grantOf(auth.companyId, app)) === 'missing') throw new ApiError(Code.VIDEO_SERVICE_NOT_GRANTED);
      await repository.set(auth.companyId, app, enabled, auth.userId);
      await deps.log.record(auth, {
        action: enabled ? 'app.enable' : 'app.disable',
        targetType: 'plant',
        target: `app:${app}`,
        result: 'ok',
      });
      return this.list(auth);
    },

    /** Refuses with 4400 unless the caller's company enabled the app (the light and rule calls ask first). */
    async require(auth: AuthContext, app: SmartApp): Promise<number> {
      if (auth.companyId === null || !(await enabledApps(auth.companyId)).has(app)) throw new ApiError(Code.APP_NOT_ENABLED);
      return auth.companyId;
    },

    /** Whether a company enabled an app (the rule engine asks before acting). */
    async isEnabled(companyId: number, app: SmartApp): Promise<boolean> {
      return (await enabledApps(companyId)).has(app);
    },
  };
}

export type SmartAppsService = ReturnType<typeof createSmartAppsService>;
