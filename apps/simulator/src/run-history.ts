/** At most `count` holders at a time; the others wait in order. */
export function createSlots(count: number) {
  let free = Math.max(1, count);
  const waiting: (() => void)[] = [];
  return {
    async acquire(): Promise<void> {
      if (free > 0) {
        free -= 1;
        return;
      }
      await new Promise<void>((resolve) => waiting.push(resolve));
    },
    release(): void {
      const next = waiting.shift();
      if (next) next();
      else free += 1;
    },
  };
}

/**
 * The log line of the demo history while it fills: plant-days sent, plants done, readings per second;
 * at most one line every `everyMs`, and one when it is complete.
 */
export function historyProgress(options: {
  gateways: number;
  days: number;
  /** Days sent before live (history.ts RECENT_DAYS). */
  recentDays?: number;
  write: (line: string) => void;
  everyMs?: number;
  now?: () => number;
}) {
  const now = options.now ?? Date.now;
  const started = now();
  const totalDays = options.gateways * options.days;
  let plantDays = 0;
  let plantsDone = 0;
  let plantsLive = 0;
  let readings = 0;
  let lastLine = started;
  const crossed = new Map<string, number>();
  const rate = () => Math.round(readings / Math.max(0.001, (now() - started) / 1000));
  const line = (force: boolean) => {
    if (!force && now() - lastLine < (options.everyMs ?? 10_000)) return;
    lastLine = now();
    options.write(
      `demo history: ${Math.min(plantDays, totalDays)}/${totalDays} plant-days, ${plantsDone}/${options.gateways} plants done, ${readings.toLocaleString('en')} readings (${rate().toLocaleString('en')}/s)`,
    );
  };
  return {
    readings(count: number): void {
      readings += count;
    },
    day(gateway: string): void {
      crossed.set(gateway, (crossed.get(gateway) ?? 0) + 1);
      plantDays += 1;
      line(false);
    },
    /** The gateway's recent days are in: it reports live from now on, its older days follow. */
    live(_gateway: string): void {
      plantsLive += 1;
      if (plantsLive === options.gateways)
        options.write(
          `demo history: every plant reports live after its last ${Math.min(options.days, options.recentDays ?? options.days)} days; the older days follow (${Math.min(plantDays, totalDays)}/${totalDays} plant-days)`,
        );
    },
    done(gateway: string, days: number): void {
      plantDays += Math.max(0, Math.round(days) - (crossed.get(gateway) ?? 0));
      plantsDone += 1;
      if (plantsDone < options.gateways) {
        line(false);
        return;
      }
      const seconds = (now() - started) / 1000;
      options.write(
        `demo history: done, ${options.days} days of ${options.gateways} plants, ${readings.toLocaleString('en')} readings in ${seconds.toFixed(0)} s (${rate().toLocaleString('en')}/s)`,
      );
    },
  };
}
