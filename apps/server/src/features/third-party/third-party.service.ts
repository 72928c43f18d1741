import type { TokenResponse } from '@sunward/contracts/auth';
import { Code } from '@sunward/contracts/codes';
import {
  type BoundIdentity,
  THIRD_PARTY_LIMITS,
  type ThirdPartyAuthorizeResponse,
  type ThirdPartyProvider,
  type ThirdPartyPurpose,
  type ThirdPartyTokenRequest,
  type ThirdPartyTokenResponse,
} from '@sunward/contracts/third-party';
import type { FastifyBaseLogger } from 'fastify';
import { ApiError } from '../../lib/envelope.js';
import { newSecret, type OidcClient, sameSecret, sha256, ThirdPartyFailure } from './oidc-client.js';
import type { OidcProviderSettings } from './oidc-settings.js';
import type { ThirdPartyRepository } from './third-party.repository.js';

/** Started flows one address may have open at once: enough for several tabs, not for filling the table. */
const LIVE_FLOWS_PER_ADDRESS = 30;

export interface ThirdPartyDeps {
  repository: ThirdPartyRepository;
  client: OidcClient;
  providers: readonly OidcProviderSettings[];
  /** OIDC_REDIRECT_URL; unset: the console's /loginThird at the origin the request came to. */
  redirectUrl: string | undefined;
  /** Issues the session of a verified user (auth.service startSession). */
  startSession(input: { userId: number; ip: string; userAgent: string | undefined; method: string }): Promise<TokenResponse>;
  log: FastifyBaseLogger;
  now?: () => Date;
}

const isPurpose = (value: string): value is ThirdPartyPurpose => value === 'signIn' || value === 'bind';

/**
 * Third-party sign-in (issue 7): the OpenID Connect authorization-code flow with PKCE, state and nonce,
 * signing in bound identities and handing out binding tickets for the others. An identity is never
 * bound by matching e-mail addresses: only its owner, signed in with their password, binds it.
 */
export function createThirdPartyService(deps: ThirdPartyDeps) {
  const { repository, client, log } = deps;
  const now = deps.now ?? (() => new Date());
  const byId = new Map(deps.providers.map((p) => [p.id, p]));

  function provider(id: string): OidcProviderSettings {
    const found = byId.get(id);
    if (!found) throw new ApiError(Code.THIRD_PARTY_PROVIDER_UNKNOWN);
    return found;
  }

  const summary = (p: { id: string; name: string }): ThirdPartyProvider => ({ id: p.id, name: p.name });
  const nameOf = (id: string): ThirdPartyProvider => summary(byId.get(id) ?? { id, name: id });

  async function list(userId: number): Promise<BoundIdentity[]> {
    const rows = await repository.identitiesOf(userId);
    return rows.map((r) => ({
      provider: nameOf(r.provider),
      email: r.email,
      name: r.name,
      boundAt: r.createdAt.toISOString(),
      lastUsedAt: r.lastUsedAt?.toISOString() ?? null,
    }));
  }

  /** Logs why a flow failed (the caller sees only the code's message) and passes the refusal on. */
  async function logged<T>(context: Record<string, unknown>, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof ApiError) {
        const reason = error instanceof ThirdPartyFailure ? error.reason : `code ${error.responseCode}`;
        log.warn({ event: 'third_party_sign_in', outcome: 'refused', reason, ...context }, 'third-party sign-in refused');
      }
      throw error;
    }
  }

  return {
    config(): ThirdPartyProvider[] {
      return deps.providers.map(summary);
    },

    /** Starts a flow: stores its secrets and answers the provider's authorization URL. */
    async authorize(input: {
      provider: string;
      purpose: ThirdPartyPurpose;
      ip: string;
      origin: string;
    }): Promise<ThirdPartyAuthorizeResponse> {
      const settings = provider(input.provider);
      return logged({ provider: settings.id, ip: input.ip }, async () => {
        const { discovery } = await client.discover(settings);
        const at = now();
        await repository.deleteExpired(at);
        if ((await repository.countLiveFlowsFrom(input.ip, at)) >= LIVE_FLOWS_PER_ADDRESS) throw new ApiError(Code.RATE_LIMITED);
        const state = newSecret();
        const browserKey = newSecret();
        const flow = {
          provider: settings.id,
          purpose: input.purpose,
          nonce: newSecret(),
          codeVerifier: newSecret(),
          redirectUri: deps.redirectUrl ?? `${input.origin}/loginThird`,
        };
        await repository.insertFlow({
          ...flow,
          stateHash: sha256(state),
          browserKeyHash: sha256(browserKey),
          ip: input.ip,
          expiresAt: new Date(at.getTime() + THIRD_PARTY_LIMITS.flowTtlSeconds * 1000),
        });
        return {
          authorizationUrl: client.authorizationUrl(settings, discovery, { ...flow, state }),
          state,
          browserKey,
          expiresIn: THIRD_PARTY_LIMITS.flowTtlSeconds,
        };
      });
    },

    /**
     * Completes a flow: the state is used up first (a replay finds nothing), then the code is exchanged
     * and the ID token verified. A bound identity signs in; otherwise the answer carries a binding ticket.
     */
    async complete(input: ThirdPartyTokenRequest & { ip: string; userAgent: string | undefined }): Promise<ThirdPartyTokenResponse> {
      return logged({ ip: input.ip }, async () => {
        const flow = await repository.takeFlow(sha256(input.state), now());
        if (!flow) throw new ThirdPartyFailure(Code.THIRD_PARTY_STATE_INVALID, 'state unknown, used or expired');
        if (!sameSecret(sha256(input.browserKey), flow.browserKeyHash)) {
          throw new ThirdPartyFailure(Code.THIRD_PARTY_STATE_INVALID, 'browser key does not match the flow');
        }
        const settings = provider(flow.provider);
        // RFC 9207: an answer naming another issuer came from another provider (mix-up attack).
        if (input.iss !== undefined && input.iss !== settings.issuer) {
          throw new ThirdPartyFailure(Code.THIRD_PARTY_TOKEN_INVALID, `authorization response from issuer ${input.iss}`);
        }
        const discovered = await client.discover(settings);
        const idToken = await client.exchangeCode(settings, discovered.discovery, {
          code: input.code,
          codeVerifier: flow.codeVerifier,
          redirectUri: flow.redirectUri,
        });
        const claims = await client.verify(settings, discovered, idToken, flow.nonce);
        const purpose = isPurpose(flow.purpose) ? flow.purpose : 'signIn';
        const identity = { provider: summary(settings), email: claims.email, name: claims.name };

        if (purpose === 'signIn') {
          const bound = await repository.findIdentity(settings.id, claims.subject);
          if (bound) {
            if (bound.disabledAt) throw new ApiError(Code.ACCOUNT_DISABLED);
            await repository.touchIdentity(settings.id, claims.subject, claims, now());
            const tokens = await deps.startSession({
              userId: bound.userId,
              ip: input.ip,
              userAgent: input.userAgent,
              method: `oidc:${settings.id}`,
            });
            return { outcome: 'signedIn', ...tokens };
          }
        }
        const ticket = newSecret();
        await repository.insertTicket({
          ticketHash: sha256(ticket),
          provider: settings.id,
          subject: claims.subject,
          email: claims.email,
          name: claims.name,
          expiresAt: new Date(now().getTime() + THIRD_PARTY_LIMITS.ticketTtlSeconds * 1000),
        });
        log.info(
          { event: 'third_party_sign_in', outcome: 'binding_required', provider: settings.id, purpose, ip: input.ip },
          'identity not bound',
        );
        return { outcome: 'bindingRequired', purpose, ticket, expiresIn: THIRD_PARTY_LIMITS.ticketTtlSeconds, identity };
      });
    },

    /** Binds the ticket's identity to the signed-in caller; binding one's own identity again changes nothing. */
    async bind(userId: number, ticket: string): Promise<BoundIdentity[]> {
      const ticketHash = sha256(ticket);
      const at = now();
      const pending = await repository.findTicket(ticketHash, at);
      if (!pending) throw new ApiError(Code.THIRD_PARTY_TICKET_INVALID);
      provider(pending.provider);
      const holder = await repository.findIdentity(pending.provider, pending.subject);
      if (holder && holder.userId !== userId) throw new ApiError(Code.THIRD_PARTY_BOUND_ELSEWHERE);
      if (holder) {
        await repository.deleteTicket(ticketHash);
        return list(userId);
      }
      const mine = await repository.identitiesOf(userId);
      if (mine.some((i) => i.provider === pending.provider)) throw new ApiError(Code.THIRD_PARTY_ALREADY_BOUND);
      const result = await repository.bindWithTicket(ticketHash, userId, at);
      if (result === 'ticket') throw new ApiError(Code.THIRD_PARTY_TICKET_INVALID);
      if (result === 'taken') throw new ApiError(Code.THIRD_PARTY_BOUND_ELSEWHERE);
      log.info({ event: 'third_party_bind', provider: pending.provider, userId }, 'third-party identity bound');
      return list(userId);
    },

    async unbind(userId: number, providerId: string): Promise<BoundIdentity[]> {
      if (!(await repository.unbind(userId, providerId))) throw new ApiError(Code.THIRD_PARTY_NOT_BOUND);
      log.info({ event: 'third_party_unbind', provider: providerId, userId }, 'third-party identity unbound');
      return list(userId);
    },

    list,
  };
}

export type ThirdPartyService = ReturnType<typeof createThirdPartyService>;
