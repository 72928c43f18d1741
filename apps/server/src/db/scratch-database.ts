import pg from 'pg';

/**
 * A new PostgreSQL database next to the one at `adminUrl`, for a test file or a benchmark: empty, or a copy of
 * `template` (an already migrated database: copying it costs a fraction of running every migration again);
 * `drop` removes it even while connections are still open.
 */
export async function createScratchDatabase(
  adminUrl: string,
  prefix: string,
  template?: string,
): Promise<{ url: string; name: string; drop(): Promise<void> }> {
  const name = `${prefix}_${process.pid}_${Date.now()}_${Math.floor(Math.random() * 1e6)}`.replace(/[^a-z0-9_]/gi, '_').toLowerCase();
  const run = async (statement: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  if (template === undefined) await run(`create database ${name}`);
  else await createFromTemplate(run, name, template);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), name, drop: () => run(`drop database if exists ${name} with (force)`) };
}

/** PostgreSQL refuses a copy while another session is connected to the template (a moment at most here): retried. */
async function createFromTemplate(run: (statement: string) => Promise<void>, name: string, template: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await run(`create database ${name} template ${template}`);
      return;
    } catch (error) {
      const busy = error instanceof Error && /being accessed by other users/.test(error.message);
      if (!busy || attempt >= 20) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
    }
  }
}
