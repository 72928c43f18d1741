import type { LiveHub } from '../../ingest/live-hub.js';
import type { SmartRulesService } from './smart-rules.service.js';

/** Plant updates closer together than this are evaluated once (a gateway's devices report together). */
const SETTLE_MS = 1000;

/**
 * Runs a plant's rules after its updates: each device report the ingest publishes on the live hub schedules one
 * evaluation of its plant (settled, and never two at once for a plant, so a rule never fires twice for one crossing).
 */
export function startSmartRulesEngine(deps: { live: LiveHub; service: SmartRulesService; onError: (error: unknown) => void }): () => void {
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

  const unsubscribe = deps.live.subscribe((event) => {
    if (event.type !== 'device' || event.plantId === null || pending.has(event.plantId)) return;
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
