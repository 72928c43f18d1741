import { Code } from '@sunward/contracts/codes';
import { type CryptoKey, createLocalJWKSet, exportJWK, generateKeyPair, type JWTPayload, SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { idTokenAlgorithms, newSecret, pkceChallenge, ThirdPartyFailure, verifyIdToken } from './oidc-client.js';
import { OidcProvidersSettingSchema } from './oidc-settings.js';

const ISSUER = 'https://id.example.com';
const CLIENT = 'sunward';
const NONCE = 'n-0123456789';
const NOW = new Date('2025-06-01T12:00:00Z');
const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

let privateKey: CryptoKey;
let otherKey: CryptoKey;
let keys: ReturnType<typeof createLocalJWKSet>;

beforeAll(async () => {
  const published = await generateKeyPair('RS256', { extractable: true });
  privateKey = published.privateKey;
  otherKey = (await generateKeyPair('RS256')).privateKey;
  // The provider's published key set holds the public half of `privateKey` only.
  keys = createLocalJWKSet({ keys: [{ ...(await exportJWK(published.publicKey)), kid: 'k1', alg: 'RS256' }] });
});

function token(claims: JWTPayload = {}, key: CryptoKey = privateKey): Promise<string> {
  const payload = {
    iss: ISSUER,
    aud: CLIENT,
    sub: 'ann-1',
    iat: seconds(NOW),
    exp: seconds(NOW) + 300,
    nonce: NONCE,
    email: 'ann@example.com',
    name: 'Ann',
    ...claims,
  };
  return new SignJWT(payload).setProtectedHeader({ alg: 'RS256', kid: 'k1' }).sign(key);
}

const expected = { issuer: ISSUER, clientId: CLIENT, nonce: NONCE, algorithms: ['RS256'], now: NOW };

async function refusal(promise: Promise<unknown>): Promise<{ code: number; reason: string }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ThirdPartyFailure) return { code: error.responseCode, reason: error.reason };
    throw error;
  }
  throw new Error('accepted');
}

describe('verifyIdToken', () => {
  it('accepts a token signed by the provider for this client with this nonce', async () => {
    await expect(verifyIdToken(await token(), { keys, ...expected })).resolves.toEqual({
      subject: 'ann-1',
      email: 'ann@example.com',
      name: 'Ann',
    });
  });

  it('refuses another signer, issuer, audience, nonce, an expired token and a foreign azp with 123', async () => {
    const cases: Array<[string, Promise<string>, Partial<typeof expected>?]> = [
      ['signature', token({}, otherKey)],
      ['issuer', token({ iss: 'https://evil.example' })],
      ['audience', token({ aud: 'someone-else' })],
      ['nonce', token({ nonce: 'replayed' })],
      ['expired', token({ exp: seconds(NOW) - 61 })],
      ['azp', token({ aud: [CLIENT, 'other'], azp: 'other' })],
      ['algorithm', token(), { algorithms: ['ES256'] }],
    ];
    for (const [what, signed, override] of cases) {
      const r = await refusal(verifyIdToken(await signed, { keys, ...expected, ...override }));
      expect(r.code, what).toBe(Code.THIRD_PARTY_TOKEN_INVALID);
      expect(r.reason, what).not.toBe('');
    }
  });

  it('refuses a token without a nonce', async () => {
    const r = await refusal(verifyIdToken(await token({ nonce: undefined }), { keys, ...expected }));
    expect(r.reason).toBe('nonce mismatch');
  });

  it('tolerates a minute of clock skew', async () => {
    await expect(verifyIdToken(await token({ exp: seconds(NOW) - 30 }), { keys, ...expected })).resolves.toBeDefined();
  });
});

describe('flow secrets', () => {
  it('makes 43-character secrets and the RFC 7636 S256 challenge', () => {
    expect(newSecret()).toMatch(/^[\w-]{43}$/);
    expect(newSecret()).not.toBe(newSecret());
    // RFC 7636 appendix B.
    expect(pkceChallenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
  });

  it('accepts asymmetric signing algorithms only', () => {
    expect(idTokenAlgorithms({ id_token_signing_alg_values_supported: ['none', 'HS256', 'RS256', 'ES256'] })).toEqual(['RS256', 'ES256']);
    expect(idTokenAlgorithms({})).toEqual(['RS256']);
  });
});

describe('OIDC_PROVIDERS', () => {
  const provider = { id: 'corp', name: 'Corp ID', issuer: ISSUER, clientId: 'c', clientSecret: 's' };

  it('reads a JSON array, with email and profile scopes by default; unset means none', () => {
    expect(OidcProvidersSettingSchema.parse(JSON.stringify([provider]))).toEqual([{ ...provider, scopes: ['email', 'profile'] }]);
    expect(OidcProvidersSettingSchema.parse(undefined)).toEqual([]);
    expect(OidcProvidersSettingSchema.parse('')).toEqual([]);
  });

  it('refuses bad JSON, duplicate ids, plain http off loopback and a bad id', () => {
    expect(OidcProvidersSettingSchema.safeParse('[{').success).toBe(false);
    expect(OidcProvidersSettingSchema.safeParse(JSON.stringify([provider, provider])).success).toBe(false);
    expect(OidcProvidersSettingSchema.safeParse(JSON.stringify([{ ...provider, issuer: 'http://id.example.com' }])).success).toBe(false);
    expect(OidcProvidersSettingSchema.safeParse(JSON.stringify([{ ...provider, issuer: 'http://127.0.0.1:4000' }])).success).toBe(true);
    expect(OidcProvidersSettingSchema.safeParse(JSON.stringify([{ ...provider, id: 'Corp ID' }])).success).toBe(false);
  });
});
