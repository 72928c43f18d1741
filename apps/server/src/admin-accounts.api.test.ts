import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminToolError, createAdministrator, resetPassword } from './admin-accounts.js';
import { signIn } from './test/client.js';
import { ADMIN, startTestServer, type TestServer } from './test/harness.js';

// npm run admin's logic on a live database (the process test runs the tool itself on a stopped server).
describe('administrator tool', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ SIGN_IN_LOCK_AFTER: '2', SIGN_IN_MAX_DELAY_MS: '0' });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('reset-password: a generated password, sessions ended, a sign-in lock lifted', async () => {
    const before = await signIn(server.app, ADMIN.account, ADMIN.password);
    // Lock the account with wrong passwords from elsewhere.
    for (let i = 0; i < 3; i++)
      await server.app.inject({
        method: 'POST',
        url: '/oauth/token',
        payload: { grant_type: 'password', username: ADMIN.account, password: 'Wrong-Pass-99' },
      });
    const reset = await resetPassword(server.database.db, { account: ADMIN.account.toUpperCase(), password: undefined });
    expect(reset).toMatchObject({ account: ADMIN.account, generated: true });
    expect(reset.password).toMatch(/^[A-Za-z0-9]{20}$/);
    const old = await server.app.inject({ url: '/api/v1/user', headers: { authorization: `Bearer ${before.access_token}` } });
    expect(old.statusCode).toBe(401);
    expect((await signIn(server.app, ADMIN.account, reset.password)).access_token).toBeTruthy();
  });

  it('refuses an unknown account and an existing one to create, with a line that says what to do', async () => {
    await expect(resetPassword(server.database.db, { account: 'nobody@test.local', password: undefined })).rejects.toThrow(
      new AdminToolError(
        'No account "nobody@test.local": give an existing one with --account, or create one with: npm run admin -- create',
      ),
    );
    await expect(createAdministrator(server.database.db, { account: ADMIN.account, password: undefined })).rejects.toThrow(
      /exists already/,
    );
    const created = await createAdministrator(server.database.db, { account: 'second@test.local', password: 'Second-Admin-1' });
    expect(created).toEqual({ account: 'second@test.local', password: 'Second-Admin-1', generated: false });
    expect((await signIn(server.app, 'second@test.local', 'Second-Admin-1')).access_token).toBeTruthy();
  });
});
