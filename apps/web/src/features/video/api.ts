import { Code } from '@sunward/contracts/codes';
import {
  SipServerInfoSchema,
  VideoChannelListSchema,
  type VideoDeviceCreate,
  VideoDevicePageSchema,
  VideoDeviceSchema,
  type VideoDeviceUpdate,
  VideoGrantListSchema,
  VideoGrantSchema,
  type VideoPlaybackRange,
  type VideoSpaceCreate,
  VideoSpacePageSchema,
  VideoSpaceSchema,
  type VideoSpaceUpdate,
  VideoStreamSchema,
} from '@sunward/contracts/video';
import { z } from 'zod';
import { apiRequest } from '../../lib/api-client';

/** Refusals the video pages show themselves (beside a field, in the player, or as the app-not-enabled page). */
const VIDEO_CODES = [
  Code.VALIDATION,
  Code.NO_PERMISSION,
  Code.APP_NOT_ENABLED,
  Code.VIDEO_SPACE_NOT_FOUND,
  Code.VIDEO_SPACES_MAX,
  Code.VIDEO_CUSTOMER_HAS_SPACE,
  Code.VIDEO_DEVICES_MAX,
  Code.VIDEO_DEVICE_NOT_FOUND,
  Code.VIDEO_SIP_ID_EXISTS,
  Code.VIDEO_SPACE_INACTIVE,
  Code.VIDEO_DEVICE_DISABLED,
  Code.VIDEO_DEVICE_OFFLINE,
  Code.VIDEO_CHANNEL_NOT_FOUND,
  Code.VIDEO_STREAM_NOT_FOUND,
  Code.VIDEO_DEVICE_NO_ANSWER,
  Code.VIDEO_INVITE_REFUSED,
  Code.VIDEO_SERVICE_NOT_GRANTED,
  Code.VIDEO_SIP_OFF,
  Code.VIDEO_CUSTOMER_INVALID,
  Code.VIDEO_SPACE_HAS_DEVICES,
  Code.VIDEO_MEDIA_FAILED,
];

/** The codes that mean "this company cannot use video": the page shows what to do instead of a list. */
export const NOT_ENABLED_CODES: readonly number[] = [Code.APP_NOT_ENABLED, Code.VIDEO_SERVICE_NOT_GRANTED];

export const videoKeys = {
  all: ['video'] as const,
  sipServer: ['video', 'sipServer'] as const,
  spaces: ['video', 'spaces'] as const,
  devices: (spaceId: number) => ['video', 'devices', spaceId] as const,
  device: (id: number) => ['video', 'device', id] as const,
  channels: (deviceId: number) => ['video', 'channels', deviceId] as const,
  grants: ['video', 'grants'] as const,
};

const QVS = '/api/v1/qvs';

export const fetchSipServer = () => apiRequest(`${QVS}/sipServer`, { schema: SipServerInfoSchema, tolerate: VIDEO_CODES });
export const fetchSpaces = () =>
  apiRequest(`${QVS}/namespaces`, { query: { page: 1, size: 100 }, schema: VideoSpacePageSchema, tolerate: VIDEO_CODES });
export const createSpace = (space: VideoSpaceCreate) =>
  apiRequest(`${QVS}/namespaces`, { method: 'POST', json: space, schema: VideoSpaceSchema, tolerate: VIDEO_CODES });
export const updateSpace = (id: number, space: VideoSpaceUpdate) =>
  apiRequest(`${QVS}/namespaces/${id}`, { method: 'PUT', json: space, schema: VideoSpaceSchema, tolerate: VIDEO_CODES });
export const setSpaceActive = (id: number, active: boolean) =>
  apiRequest(`${QVS}/namespaces/${id}/active`, { method: 'POST', json: { active }, schema: VideoSpaceSchema, tolerate: VIDEO_CODES });

export const fetchDevices = (spaceId: number) =>
  apiRequest(`${QVS}/namespaces/${spaceId}/devices`, {
    query: { page: 1, size: 100 },
    schema: VideoDevicePageSchema,
    tolerate: VIDEO_CODES,
  });
export const fetchDevice = (id: number) => apiRequest(`${QVS}/devices/${id}`, { schema: VideoDeviceSchema, tolerate: VIDEO_CODES });
export const createDevice = (spaceId: number, device: VideoDeviceCreate) =>
  apiRequest(`${QVS}/namespaces/${spaceId}/devices`, { method: 'POST', json: device, schema: VideoDeviceSchema, tolerate: VIDEO_CODES });
export const updateDevice = (id: number, device: VideoDeviceUpdate) =>
  apiRequest(`${QVS}/devices/${id}`, { method: 'PUT', json: device, schema: VideoDeviceSchema, tolerate: VIDEO_CODES });
export const setDeviceEnabled = (id: number, enabled: boolean) =>
  apiRequest(`${QVS}/devices/${id}/enable`, { method: 'POST', json: { enabled }, schema: VideoDeviceSchema, tolerate: VIDEO_CODES });
export const deleteDevice = (id: number) =>
  apiRequest(`${QVS}/devices/${id}`, { method: 'DELETE', schema: z.unknown(), tolerate: VIDEO_CODES });

export const fetchChannels = (deviceId: number) =>
  apiRequest(`${QVS}/devices/${deviceId}/channels`, { schema: VideoChannelListSchema, tolerate: VIDEO_CODES });
export const refreshChannels = (deviceId: number) =>
  apiRequest(`${QVS}/devices/${deviceId}/channels/refresh`, {
    method: 'POST',
    json: {},
    schema: VideoChannelListSchema,
    tolerate: VIDEO_CODES,
  });

export const startLive = (deviceId: number, gbId: string) =>
  apiRequest(`${QVS}/devices/${deviceId}/channels/${gbId}/live`, {
    method: 'POST',
    json: {},
    schema: VideoStreamSchema,
    tolerate: VIDEO_CODES,
  });
export const startPlayback = (deviceId: number, gbId: string, range: VideoPlaybackRange) =>
  apiRequest(`${QVS}/devices/${deviceId}/channels/${gbId}/playback`, {
    method: 'POST',
    json: range,
    schema: VideoStreamSchema,
    tolerate: VIDEO_CODES,
  });
export const fetchStream = (streamId: string) =>
  apiRequest(`${QVS}/streams/${streamId}`, { schema: VideoStreamSchema, tolerate: VIDEO_CODES });
export const stopStream = (streamId: string) =>
  apiRequest(`${QVS}/streams/${streamId}/stop`, { method: 'POST', json: {}, schema: VideoStreamSchema, tolerate: VIDEO_CODES });

/** The platform administrator's grant of the video service, per company (a page, searched by company name). */
export const fetchGrants = (query: { page: number; size: number; name: string }) =>
  apiRequest(`${QVS}/grants`, {
    query: { page: query.page, size: query.size, ...(query.name === '' ? {} : { name: query.name }) },
    schema: VideoGrantListSchema,
    tolerate: VIDEO_CODES,
  });
export const setGrant = (companyId: number, granted: boolean) =>
  apiRequest(`${QVS}/grants/${companyId}`, { method: 'POST', json: { granted }, schema: VideoGrantSchema, tolerate: VIDEO_CODES });
