import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider from 'oidc-provider';

/** The OIDC_PROVIDERS entry the product needs to use a test provider. */
export interface OidcProviderEntry {
  id: string;
  name: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
}

export interface TestOidcProvider {
  issuer: string;
  entry(id: string, name: string): OidcProviderEntry;
  /** Registers where the client may be sent back; (re)builds the provider, keeping its signing key. */
  allowRedirects(uris: readonly string[]): void;
  /**
   * What a browser does: opens the authorization URL, fills the provider's login page with `login`
   * (which becomes the identity's subject), continues on the consent page, and returns the URL the
   * provider sends the browser back to (with code and state, or an error).
   */
  signInAs(authorizationUrl: string, login: string): Promise<URL>;
  close(): Promise<void>;
}

const CLIENT_ID = 'sunward-console';
const CLIENT_SECRET = 'test-client-secret-0123456789';

/**
 * A real OpenID Connect provider (the `oidc-provider` package, its development login and consent pages)
 * on loopback with an ephemeral port. Subjects are the login names typed on its login page; the ID
 * token carries e-mail `<login>@idp.test` and name `Test <login>`. On Node 20 it prints a warning that
 * it prefers Node 22; it works.
 */
export async function startTestOidcProvider(options: { redirectUris?: readonly string[] } = {}): Promise<TestOidcProvider> {
  let handler: RequestListener = (_request, response) => {
    response.statusCode = 503;
    response.end('provider not configured yet');
  };
  const server = createServer((request, response) => handler(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const signingKey = { ...(await exportJWK(privateKey)), kid: 'test-key-1', alg: 'RS256', use: 'sig' };
  let redirectUris: readonly string[] = [];

  const build = (uris: readonly string[]) => {
    redirectUris = uris;
    const provider = new Provider(issuer, {
      clients: [
        {
          client_id: CLIENT_ID,
          client_secret: CLIENT_SECRET,
          redirect_uris: [...uris],
          grant_types: ['authorization_code'],
          response_types: ['code'],
        },
      ],
      jwks: { keys: [signingKey] },
      cookies: { keys: ['sunward-test-provider-cookie-key'] },
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
      conformIdTokenClaims: false,
      findAccount: async (_ctx, sub) => ({
        accountId: sub,
        claims: async () => ({ sub, email: `${sub}@idp.test`, email_verified: true, name: `Test ${sub}` }),
      }),
      pkce: { required: () => true },
      ttl: { AuthorizationCode: 60, IdToken: 3600, AccessToken: 3600, Interaction: 3600, Session: 86_400, Grant: 86_400 },
      features: { devInteractions: { enabled: true } },
    });
    handler = provider.callback();
  };
  if (options.redirectUris) build(options.redirectUris);

  return {
    issuer,
    entry: (id, name) => ({ id, name, issuer, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET }),
    allowRedirects: build,
    async signInAs(authorizationUrl, login) {
      const cookies = new Map<string, string>();
      const isCallback = (url: URL) => redirectUris.some((uri) => `${url.origin}${url.pathname}` === uri);
      let url = new URL(authorizationUrl);
      let form: URLSearchParams | undefined;
      for (let step = 0; step < 20; step++) {
        const response = await fetch(url, {
          method: form ? 'POST' : 'GET',
          body: form,
          redirect: 'manual',
          headers: { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
        });
        for (const line of response.headers.getSetCookie()) {
          const [pair = '', ...attributes] = line.split(';');
          const at = pair.indexOf('=');
          const name = pair.slice(0, at).trim();
          const value = pair.slice(at + 1).trim();
          const expired = attributes.some((a) => /^\s*expires=Thu, 01 Jan 1970/i.test(a)) || value === '';
          if (expired) cookies.delete(name);
          else cookies.set(name, value);
        }
        const location = response.headers.get('location');
        if (response.status >= 300 && response.status < 400 && location) {
          url = new URL(location, url);
          form = undefined;
          if (isCallback(url)) return url;
          continue;
        }
        const html = await response.text();
        const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1]?.replaceAll('&amp;', '&').replaceAll('&#x2F;', '/');
        if (!action) throw new Error(`unexpected provider page (${response.status}): ${html.slice(0, 400)}`);
        url = new URL(action, url);
        form = html.includes('name="login"')
          ? new URLSearchParams({ prompt: 'login', login, password: 'any-password' })
          : new URLSearchParams({ prompt: 'consent' });
      }
      throw new Error('the provider did not send the browser back');
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
