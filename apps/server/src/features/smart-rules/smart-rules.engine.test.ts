import { describe, expect, it, vi } from 'vitest';
import { createLiveHub } from '../../ingest/live-hub.js';
import { startSmartRulesEngine } from './smart-rules.engine.js';

const report = (plantId: number) => ({
  type: 'device' as const,
  deviceId: plantId * 10,
  plantId,
  status: 1,
  powerW: 100,
  soc: null,
  ts: new Date().toISOString(),
});

describe('the smart rules engine', () => {
  it('evaluates only plants with enabled rules once it knows them, and every plant again after a rule is written', async () => {
    const live = createLiveHub();
    const evaluated: number[] = [];
    let version = 0;
    let loads = 0;
    const stop = startSmartRulesEngine({
      live,
      service: {
        rulesVersion: () => version,
        plantsWithRules: async () => {
          loads++;
          return new Set([1]);
        },
        evaluatePlant: async (plantId) => {
          evaluated.push(plantId);
          return 0;
        },
      },
      onError: (error) => {
        throw error;
      },
    });
    try {
      // Unknown yet: both plants are evaluated (each reads its own rules), and the set is loaded once.
      live.publish(report(1));
      live.publish(report(2));
      await vi.waitFor(() => expect([...evaluated].sort()).toEqual([1, 2]), { timeout: 5000 });
      expect(loads).toBe(1);
      // Known: a plant without rules costs nothing.
      evaluated.length = 0;
      live.publish(report(2));
      live.publish(report(1));
      await vi.waitFor(() => expect(evaluated).toEqual([1]), { timeout: 5000 });
      live.publish(report(2));
      expect(loads).toBe(1);
      // A rule written here makes the set stale: evaluated again while it reloads.
      version++;
      evaluated.length = 0;
      live.publish(report(2));
      await vi.waitFor(() => expect(evaluated).toEqual([2]), { timeout: 5000 });
      expect(loads).toBe(2);
    } finally {
      stop();
    }
  });
});
