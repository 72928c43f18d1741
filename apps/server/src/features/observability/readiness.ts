/** What the readiness probe checks; each answers quickly or throws. */
export interface ReadinessChecks {
  /** The database answers a query. */
  database(): Promise<void>;
  /** The MQTT broker: the embedded one listens, or the external one has a connected consumer; undefined before ingest started. */
  broker(): { up: boolean; kind: 'embedded' | 'external' } | undefined;
}

export interface Readiness {
  /** Shutdown has begun: the probe answers 503 from now on, so load balancers stop sending traffic. */
  readonly draining: boolean;
  startDraining(): void;
  check(): Promise<ReadinessReport>;
}

export interface ReadinessReport {
  ready: boolean;
  draining: boolean;
  database: 'ok' | 'failed';
  broker: 'ok' | 'down' | 'starting';
}

/** How long the database may take to answer the probe before it counts as failed. */
const DATABASE_PROBE_MS = 2000;

function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Readiness for /api/health/ready: the database answers, the broker is up, and the server is not
 * shutting down. While the database opens and migrates the port answers 503 "starting" before any
 * route exists (lib/listeners.ts), so the probe is 503 then too.
 */
export function createReadiness(checks: ReadinessChecks): Readiness {
  let draining = false;
  return {
    get draining() {
      return draining;
    },
    startDraining() {
      draining = true;
    },
    async check() {
      const database = await within(checks.database(), DATABASE_PROBE_MS).then(
        () => 'ok' as const,
        () => 'failed' as const,
      );
      const brokerState = checks.broker();
      const broker = brokerState === undefined ? ('starting' as const) : brokerState.up ? ('ok' as const) : ('down' as const);
      return { ready: !draining && database === 'ok' && broker === 'ok', draining, database, broker };
    },
  };
}
