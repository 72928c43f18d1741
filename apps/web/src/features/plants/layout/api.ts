import { Code } from '@sunward/contracts/codes';
import {
  LayoutEditorDataSchema,
  LayoutLinkSchema,
  LayoutLiveSchema,
  LogicalLayoutSchema,
  type LogicalPeriod,
  PhysicalLayoutSchema,
  PublicLayoutSchema,
  type SaveLayoutBody,
} from '@sunward/contracts/plant-layout';
import { apiRequest } from '../../../lib/api-client';

export const layoutKeys = {
  editor: (id: number) => ['plant-layout', id, 'editor'] as const,
  logical: (id: number, period: LogicalPeriod) => ['plant-layout', id, 'logical', period] as const,
  live: (id: number) => ['plant-layout', id, 'live'] as const,
  link: (id: number) => ['plant-layout', id, 'link'] as const,
  public: (token: string, period: LogicalPeriod) => ['plant-layout', 'public', token, period] as const,
};

export const fetchEditor = (id: number) => apiRequest(`/api/v1/plant/${id}/physical/layout`, { schema: LayoutEditorDataSchema });

/** A conflicting save (4300) and the spec's refusals come back to the editor, which says what to do. */
export const saveLayout = (id: number, body: SaveLayoutBody) =>
  apiRequest(`/api/v1/plant/${id}/layout/physical`, {
    method: 'POST',
    json: body,
    schema: PhysicalLayoutSchema,
    tolerate: [Code.LAYOUT_VERSION_STALE, Code.LAYOUT_TOO_MANY_PANELS, Code.LAYOUT_GROUP_LOCKED, Code.LAYOUT_REFERENCE_INVALID],
  });

export const fetchLogical = (id: number, period: LogicalPeriod) =>
  apiRequest(`/api/v1/plant/${id}/logical/layout/${period}`, { schema: LogicalLayoutSchema });

export const fetchLive = (id: number) => apiRequest(`/api/v1/plant/${id}/physical/layout/live`, { schema: LayoutLiveSchema });

export const fetchLink = (id: number) => apiRequest(`/api/v1/plant/${id}/layout/link`, { schema: LayoutLinkSchema });
export const createLink = (id: number) =>
  apiRequest(`/api/v1/plant/${id}/layout/link`, { method: 'POST', json: {}, schema: LayoutLinkSchema });
export const revokeLink = (id: number) =>
  apiRequest(`/api/v1/plant/${id}/layout/link/revoke`, { method: 'POST', json: {}, schema: LayoutLinkSchema });

export const fetchPublic = (token: string, period: LogicalPeriod) =>
  apiRequest(`/api/v1/public/layout/${encodeURIComponent(token)}`, {
    query: { period },
    schema: PublicLayoutSchema,
    anonymous: true,
    tolerate: [Code.LAYOUT_LINK_INVALID],
  });
