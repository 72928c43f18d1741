import { Gauge, Registry } from 'prom-client';

/** Figures of this server read at scrape time (nothing is counted on the hot path for them). */
export interface GaugeSources {
  /** Reports and readings accepted by ingest and not yet committed; undefined before ingest started. */
  ingestQueue(): { reports: number; readings: number; bytes: number; waiting: number } | undefined;
  /** PostgreSQL's connection pool (DATABASE_URL); undefined on the embedded database, which has one connection. */
  databasePool(): { total: number; idle: number; waiting: number } | undefined;
  /** Clients connected to the embedded broker, or the external broker's connected consumer connections. */
  brokerConnections(): { kind: 'embedded' | 'external'; connections: number } | undefined;
  /** Browsers holding the live-push connection. */
  liveConnections(): number;
}

/** The gauges of one running server, in a registry of their own (merged with the process's at /metrics). */
export function createServerGauges(sources: GaugeSources): Registry {
  const registry = new Registry();
  new Gauge({
    name: 'sunward_ingest_queue_reports',
    help: 'Gateway reports accepted by ingest and waiting to be committed',
    registers: [registry],
    collect() {
      this.set(sources.ingestQueue()?.reports ?? 0);
    },
  });
  new Gauge({
    name: 'sunward_ingest_queue_readings',
    help: 'Readings queued by ingest for its next batch',
    registers: [registry],
    collect() {
      this.set(sources.ingestQueue()?.readings ?? 0);
    },
  });
  new Gauge({
    name: 'sunward_ingest_pending_bytes',
    help: 'Payload bytes of reports accepted by ingest and not yet committed (backpressure at INGEST_PENDING_MB)',
    registers: [registry],
    collect() {
      this.set(sources.ingestQueue()?.bytes ?? 0);
    },
  });
  new Gauge({
    name: 'sunward_ingest_waiting_reports',
    help: 'Reports waiting, unparsed, for room in the ingest byte budget (their connections are not read meanwhile)',
    registers: [registry],
    collect() {
      this.set(sources.ingestQueue()?.waiting ?? 0);
    },
  });
  new Gauge({
    name: 'sunward_db_pool_connections',
    help: 'PostgreSQL pool connections by state (total, idle, waiting clients); absent on the embedded database',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const pool = sources.databasePool();
      this.reset();
      if (!pool) return;
      this.set({ state: 'total' }, pool.total);
      this.set({ state: 'idle' }, pool.idle);
      this.set({ state: 'waiting' }, pool.waiting);
    },
  });
  new Gauge({
    name: 'sunward_broker_connections',
    help: 'MQTT connections: gateways on the embedded broker, or this server\u2019s consumer connections to an external one',
    labelNames: ['broker'] as const,
    registers: [registry],
    collect() {
      const broker = sources.brokerConnections();
      this.reset();
      if (broker) this.set({ broker: broker.kind }, broker.connections);
    },
  });
  new Gauge({
    name: 'sunward_live_connections',
    help: 'Browsers connected to the live-push stream',
    registers: [registry],
    collect() {
      this.set(sources.liveConnections());
    },
  });
  return registry;
}
