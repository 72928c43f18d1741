import { Code } from '@sunward/contracts/codes';
import {
  DISPLAY_TOKEN_HEADER,
  DisplayCompanySchema,
  DisplayDataSchema,
  type DisplayLinkCreate,
  DisplayLinkCreatedSchema,
  DisplayLinkRowSchema,
} from '@sunward/contracts/fullscreen';
import { z } from 'zod';
import { apiRequest } from '../../lib/api-client';

export const fullscreenKeys = {
  all: ['fullscreen'] as const,
  links: ['fullscreen', 'links'] as const,
  companies: (keyword: string) => ['fullscreen', 'companies', keyword] as const,
  data: (token: string | null, flowPlantId: number | undefined) =>
    ['fullscreen', 'data', token ? 'link' : 'user', token, flowPlantId] as const,
};

/** Refusals the display shows full-screen (a revoked or expired link) rather than as a toast. */
export const LINK_REFUSALS: readonly number[] = [Code.DISPLAY_LINK_INVALID, Code.DISPLAY_LINK_EXPIRED];

/** The display's figures: through the display link when there is a token, else as the signed-in user. */
export const fetchDisplayData = (token: string | null, flowPlantId: number | undefined) =>
  token
    ? apiRequest('/api/v1/fullscreen/link/data', {
        query: { flowPlantId },
        schema: DisplayDataSchema,
        anonymous: true,
        headers: { [DISPLAY_TOKEN_HEADER]: token },
        tolerate: LINK_REFUSALS,
      })
    : apiRequest('/api/v1/fullscreen/data', { query: { flowPlantId }, schema: DisplayDataSchema });

export const fetchDisplayLinks = () => apiRequest('/api/v1/fullscreen/links', { schema: z.array(DisplayLinkRowSchema) });

/** Companies a platform administrator may make a company display for (first 50 by name, a keyword narrows). */
export const fetchDisplayCompanies = (keyword: string) =>
  apiRequest('/api/v1/fullscreen/companies', { query: { keyword: keyword || undefined }, schema: z.array(DisplayCompanySchema) });

export const createDisplayLink = (input: DisplayLinkCreate) =>
  apiRequest('/api/v1/fullscreen/links', { method: 'POST', json: input, schema: DisplayLinkCreatedSchema });

export const revokeDisplayLink = (id: number) =>
  apiRequest(`/api/v1/fullscreen/links/${id}/revoke`, { method: 'POST', json: {}, schema: z.null() });
