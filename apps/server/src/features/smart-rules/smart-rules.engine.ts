import type { LiveHub } from '../../ingest/live-hub.js';
import type { SmartRulesService } from './smart-rules.service.js';

/** Plant updates closer together than this are evaluated once (a gateway's devices report together). */
const SETTLE_MS = 1000;
/** Which plants have enabled rules is read again after this long (rules written through another server process). */
const RULED_PLANTS_MS = 30_000;

/**
 * Runs a plant's rules after its updates: each device report the ingest publishes on the live hub schedules one
 * evaluation of its plant (settled, and never two at once for a plant, so a rule never fires twice for one crossing).
 */
export function startSmartRulesEngine(deps: {
  live: LiveHub;
  service: Pick<SmartRulesService, 'evaluatePlant' | 'plantsWithRules' | 'rulesVersion'>;
  onError: (error: unknown) => void;
}): () => void {
  const pending = new Map<number, NodeJS.Timeout>();
  const running = new Map<number, Promise<void>>();

  const evaluate = (plantId: number) => {
    pending.delete(plantId);
    const previous = running.get(plantId) ?? Promise.resolve();
    const next = previous
      .then(() => deps.service.evaluatePlant(plantId))
      .then(() => undefined)
      .catch(deps.onError)
      .finally(() => {
        if (running.get(plantId) === next) running.delete(plantId);
      });
    running.set(plantId, next);
  };

  // Which plants have enabled rules, so a fleet's reports do not cost a query per plant and second. While unknown
  // or stale (a rule written here since, or older than RULED_PLANTS_MS) every plant is evaluated, and evaluatePlant
  // reads its rules itself.
  let ruled: { version: number; at: number; plants: ReadonlySet<number> } | undefined;
  let loading = false;
  const mayHaveRules = (plantId: number): boolean => {
    const version = deps.service.rulesVersion();
    const at = Date.now();
    if (ruled && ruled.version === version && at - ruled.at < RULED_PLANTS_MS) return ruled.plants.has(plantId);
    if (!loading) {
      loading = true;
      deps.service
        .plantsWithRules()
        .then((plants) => {
          ruled = { version, at, plants };
        })
        .catch(deps.onError)
        .finally(() => {
          loading = false;
        });
    }
    return true;
  };

  const unsubscribe = deps.live.subscribe((event) => {
    if (event.type !== 'device' || event.plantId === null || pending.has(event.plantId)) return;
    if (!mayHaveRules(event.plantId)) return;
    const plantId = event.plantId;
    const timer = setTimeout(() => evaluate(plantId), SETTLE_MS);
    timer.unref();
    pending.set(plantId, timer);
  });

  return () => {
    unsubscribe();
    for (const timer of pending.values()) clearTimeout(timer);
    pending.clear();
  };
}
