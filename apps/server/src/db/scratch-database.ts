import pg from 'pg';

/**
 * A new, empty PostgreSQL database next to the one at `adminUrl`, for a test file or a benchmark;
 * `drop` removes it even while connections are still open.
 */
export async function createScratchDatabase(
  adminUrl: string,
  prefix: string,
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
  await run(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), name, drop: () => run(`drop database if exists ${name} with (force)`) };
}
