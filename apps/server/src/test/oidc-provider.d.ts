// The few parts of oidc-provider (a dev dependency without type declarations) the test provider uses.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  interface AccountClaims {
    sub: string;
    [claim: string]: unknown;
  }

  interface Account {
    accountId: string;
    claims(): Promise<AccountClaims>;
  }

  interface Configuration {
    clients: Array<Record<string, unknown>>;
    jwks: { keys: Array<Record<string, unknown>> };
    cookies: { keys: string[] };
    claims: Record<string, string[]>;
    conformIdTokenClaims: boolean;
    findAccount(ctx: unknown, sub: string): Promise<Account>;
    pkce: { required(): boolean };
    ttl: Record<string, number>;
    features: Record<string, { enabled: boolean }>;
  }

  // biome-ignore lint/style/noDefaultExport: the package's own export is a default class.
  export default class Provider {
    constructor(issuer: string, configuration: Configuration);
    callback(): (request: IncomingMessage, response: ServerResponse) => void;
  }
}
