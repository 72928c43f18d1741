/** The machine's PostgreSQL for the second run of the API suites (trust auth, database `test`). */
export const TEST_POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
