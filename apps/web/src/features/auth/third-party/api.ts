import { Code } from '@sunward/contracts/codes';
import {
  BoundIdentityListSchema,
  ThirdPartyAuthorizeResponseSchema,
  type ThirdPartyPurpose,
  type ThirdPartyTokenRequest,
  ThirdPartyTokenResponseSchema,
} from '@sunward/contracts/third-party';
import { apiRequest } from '../../../lib/api-client';

export { fetchThirdPartyProviders, thirdPartyKeys } from './providers';

/** The flow's own refusals: the pages show them (or /authorizationFailed does) instead of a toast. */
const FLOW_CODES = [
  Code.VALIDATION,
  Code.ACCOUNT_DISABLED,
  Code.RATE_LIMITED,
  Code.THIRD_PARTY_PROVIDER_UNKNOWN,
  Code.THIRD_PARTY_STATE_INVALID,
  Code.THIRD_PARTY_PROVIDER_FAILED,
  Code.THIRD_PARTY_TOKEN_INVALID,
  // An account with two-factor sign-in is asked for its code after the provider, as after a password.
  Code.SECOND_FACTOR_REQUIRED,
];

const BINDING_CODES = [
  Code.NO_PERMISSION,
  Code.THIRD_PARTY_PROVIDER_UNKNOWN,
  Code.THIRD_PARTY_TICKET_INVALID,
  Code.THIRD_PARTY_BOUND_ELSEWHERE,
  Code.THIRD_PARTY_ALREADY_BOUND,
  Code.THIRD_PARTY_NOT_BOUND,
];

export function authorizeThirdParty(provider: string, purpose: ThirdPartyPurpose) {
  return apiRequest('/oauth/third/authorize', {
    method: 'POST',
    anonymous: true,
    json: { provider, purpose },
    schema: ThirdPartyAuthorizeResponseSchema,
    tolerate: FLOW_CODES,
  });
}

export function completeThirdParty(request: ThirdPartyTokenRequest) {
  return apiRequest('/oauth/third/token', {
    method: 'POST',
    anonymous: true,
    json: request,
    schema: ThirdPartyTokenResponseSchema,
    tolerate: FLOW_CODES,
  });
}

export function fetchBoundIdentities() {
  return apiRequest('/api/v1/user/third', { schema: BoundIdentityListSchema });
}

export function bindThirdParty(ticket: string) {
  return apiRequest('/api/v1/user/third/bind', {
    method: 'POST',
    json: { ticket },
    schema: BoundIdentityListSchema,
    tolerate: BINDING_CODES,
  });
}

export function unbindThirdParty(provider: string) {
  return apiRequest('/api/v1/user/third/unbind', {
    method: 'POST',
    json: { provider },
    schema: BoundIdentityListSchema,
    tolerate: BINDING_CODES,
  });
}
