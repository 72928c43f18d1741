import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { Code, type ResponseCode } from '@sunward/contracts/codes';
import { createRemoteJWKSet, type JWTVerifyGetKey, errors as joseErrors, jwtVerify } from 'jose';
import { z } from 'zod';
import { ApiError } from '../../lib/envelope.js';
import type { OidcProviderSettings } from './oidc-settings.js';

/** A refusal of the flow with the reason operators need in the log (the caller only sees the code's message). */
export class ThirdPartyFailure extends ApiError {
  constructor(
    code: ResponseCode,
    readonly reason: string,
  ) {
    super(code);
  }
}

/** 32 random bytes, base64url: state, nonce, browser key, ticket and the PKCE verifier (RFC 7636 §4.1: 43 characters). */
export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('base64url');
}

/** RFC 7636 §4.2, S256 only ("plain" would hand the verifier to whoever sees the authorization URL). */
export function pkceChallenge(verifier: string): string {
  return sha256(verifier);
}

export function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** OpenID Connect Discovery 1.0 §3: the fields the flow uses. */
const DiscoverySchema = z.object({
  issuer: z.string(),
  authorization_endpoint: z.string().url(),
  token_endpoint: z.string().url(),
  jwks_uri: z.string().url(),
  id_token_signing_alg_values_supported: z.array(z.string()).optional(),
  token_endpoint_auth_methods_supported: z.array(z.string()).optional(),
  code_challenge_methods_supported: z.array(z.string()).optional(),
});
export type Discovery = z.infer<typeof DiscoverySchema>;

/** Asymmetric algorithms only: "none" is never accepted, and HS* would make the client secret a signing key. */
const ACCEPTED_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519'];

export function idTokenAlgorithms(discovery: Pick<Discovery, 'id_token_signing_alg_values_supported'>): string[] {
  const offered = discovery.id_token_signing_alg_values_supported ?? ['RS256'];
  return offered.filter((alg) => ACCEPTED_ALGORITHMS.includes(alg));
}

export interface IdentityClaims {
  subject: string;
  email: string | null;
  name: string | null;
}

const text = (value: unknown, max: number): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value.trim().slice(0, max) : null;

/**
 * OIDC Core §3.1.3.7: signature against the provider's keys, issuer, audience (and azp when several
 * audiences), expiry and issue time with a minute of clock skew, and the nonce this flow sent.
 */
export async function verifyIdToken(
  idToken: string,
  expected: { keys: JWTVerifyGetKey; issuer: string; clientId: string; nonce: string; algorithms: string[]; now?: Date },
): Promise<IdentityClaims> {
  if (expected.algorithms.length === 0) throw new ThirdPartyFailure(Code.THIRD_PARTY_TOKEN_INVALID, 'no acceptable signing algorithm');
  let payload: Awaited<ReturnType<typeof jwtVerify>>['payload'];
  try {
    ({ payload } = await jwtVerify(idToken, expected.keys, {
      issuer: expected.issuer,
      audience: expected.clientId,
      algorithms: expected.algorithms,
      currentDate: expected.now,
      clockTolerance: 60,
      requiredClaims: ['sub', 'iat', 'exp'],
    }));
  } catch (error) {
    const reason = error instanceof joseErrors.JOSEError ? `${error.code}: ${error.message}` : 'unreadable token';
    throw new ThirdPartyFailure(Code.THIRD_PARTY_TOKEN_INVALID, reason);
  }
  const audiences = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
  if ((audiences.length > 1 || payload.azp !== undefined) && payload.azp !== expected.clientId) {
    throw new ThirdPartyFailure(Code.THIRD_PARTY_TOKEN_INVALID, 'azp is not this client');
  }
  if (typeof payload.nonce !== 'string' || !sameSecret(payload.nonce, expected.nonce)) {
    throw new ThirdPartyFailure(Code.THIRD_PARTY_TOKEN_INVALID, 'nonce mismatch');
  }
  const subject = text(payload.sub, 255);
  if (!subject) throw new ThirdPartyFailure(Code.THIRD_PARTY_TOKEN_INVALID, 'no subject');
  return { subject, email: text(payload.email, 254), name: text(payload.name, 128) };
}

export interface DiscoveredProvider {
  discovery: Discovery;
  keys: JWTVerifyGetKey;
}

export interface OidcClientOptions {
  /** How long a discovery document is trusted before it is fetched again. */
  discoveryTtlMs?: number;
  timeoutMs?: number;
  now?: () => Date;
}

/** Talks to the providers: discovery (cached), the authorization URL, the code exchange, ID token checks. */
export function createOidcClient(options: OidcClientOptions = {}) {
  const ttl = options.discoveryTtlMs ?? 60 * 60 * 1000;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const now = options.now ?? (() => new Date());
  const cache = new Map<string, { at: number; discovered: DiscoveredProvider }>();

  async function fetchJson(url: string, init: RequestInit, what: string): Promise<{ status: number; body: unknown }> {
    let response: Response;
    try {
      response = await fetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      throw new ThirdPartyFailure(Code.THIRD_PARTY_PROVIDER_FAILED, `${what} unreachable: ${(error as Error).message}`);
    }
    const body: unknown = await response.json().catch(() => null);
    return { status: response.status, body };
  }

  return {
    /** OIDC Discovery §4: the document's issuer must be exactly the configured one. */
    async discover(provider: OidcProviderSettings): Promise<DiscoveredProvider> {
      const cached = cache.get(provider.id);
      if (cached && cached.at + ttl > Date.now()) return cached.discovered;
      const url = `${provider.issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
      const { status, body } = await fetchJson(url, { headers: { accept: 'application/json' } }, 'discovery');
      const parsed = DiscoverySchema.safeParse(body);
      if (status !== 200 || !parsed.success) {
        throw new ThirdPartyFailure(Code.THIRD_PARTY_PROVIDER_FAILED, `discovery answered ${status} without a usable document`);
      }
      const discovery = parsed.data;
      if (discovery.issuer !== provider.issuer) {
        throw new ThirdPartyFailure(Code.THIRD_PARTY_PROVIDER_FAILED, `discovery names issuer ${discovery.issuer}, not ${provider.issuer}`);
      }
      if (discovery.code_challenge_methods_supported && !discovery.code_challenge_methods_supported.includes('S256')) {
        throw new ThirdPartyFailure(Code.THIRD_PARTY_PROVIDER_FAILED, 'provider does not support PKCE S256');
      }
      const keys = createRemoteJWKSet(new URL(discovery.jwks_uri), { timeoutDuration: timeoutMs, cacheMaxAge: 10 * 60 * 1000 });
      const discovered = { discovery, keys };
      cache.set(provider.id, { at: Date.now(), discovered });
      return discovered;
    },

    authorizationUrl(
      provider: OidcProviderSettings,
      discovery: Discovery,
      flow: { state: string; nonce: string; codeVerifier: string; redirectUri: string },
    ): string {
      const url = new URL(discovery.authorization_endpoint);
      const params = {
        response_type: 'code',
        client_id: provider.clientId,
        redirect_uri: flow.redirectUri,
        scope: ['openid', ...provider.scopes.filter((s) => s !== 'openid')].join(' '),
        state: flow.state,
        nonce: flow.nonce,
        code_challenge: pkceChallenge(flow.codeVerifier),
        code_challenge_method: 'S256',
      };
      for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
      return url.toString();
    },

    /** RFC 6749 §4.1.3 with the PKCE verifier; client_secret_basic unless the provider only takes client_secret_post. */
    async exchangeCode(
      provider: OidcProviderSettings,
      discovery: Discovery,
      input: { code: string; codeVerifier: string; redirectUri: string },
    ): Promise<string> {
      const form = new URLSearchParams({
        grant_type: 'authorization_code',
        code: input.code,
        redirect_uri: input.redirectUri,
        code_verifier: input.codeVerifier,
      });
      const headers: Record<string, string> = { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' };
      const methods = discovery.token_endpoint_auth_methods_supported;
      if (methods && !methods.includes('client_secret_basic') && methods.includes('client_secret_post')) {
        form.set('client_id', provider.clientId);
        form.set('client_secret', provider.clientSecret);
      } else {
        // RFC 6749 §2.3.1: both parts form-encoded before base64.
        const basic = `${encodeURIComponent(provider.clientId)}:${encodeURIComponent(provider.clientSecret)}`;
        headers.authorization = `Basic ${Buffer.from(basic).toString('base64')}`;
      }
      const { status, body } = await fetchJson(discovery.token_endpoint, { method: 'POST', headers, body: form }, 'token endpoint');
      const answer = z.object({ id_token: z.string().min(1).optional(), error: z.string().optional() }).safeParse(body);
      if (status !== 200) {
        const error = answer.success ? answer.data.error : undefined;
        throw new ThirdPartyFailure(Code.THIRD_PARTY_PROVIDER_FAILED, `token endpoint answered ${status} ${error ?? ''}`.trim());
      }
      if (!answer.success || !answer.data.id_token)
        throw new ThirdPartyFailure(Code.THIRD_PARTY_TOKEN_INVALID, 'no id_token in the answer');
      return answer.data.id_token;
    },

    verify(provider: OidcProviderSettings, discovered: DiscoveredProvider, idToken: string, nonce: string): Promise<IdentityClaims> {
      return verifyIdToken(idToken, {
        keys: discovered.keys,
        issuer: provider.issuer,
        clientId: provider.clientId,
        nonce,
        algorithms: idTokenAlgorithms(discovered.discovery),
        now: now(),
      });
    },
  };
}

export type OidcClient = ReturnType<typeof createOidcClient>;
