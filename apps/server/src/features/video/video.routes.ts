import { Code } from '@sunward/contracts/codes';
import { envelopeSchema } from '@sunward/contracts/envelope';
import { IdParamSchema } from '@sunward/contracts/ids';
import {
  GbIdSchema,
  SipServerInfoSchema,
  VideoChannelListSchema,
  VideoDeviceCreateSchema,
  VideoDeviceEnableSchema,
  VideoDevicePageSchema,
  VideoDeviceSchema,
  VideoDeviceUpdateSchema,
  VideoGrantListSchema,
  VideoGrantSchema,
  VideoGrantSetSchema,
  VideoPageQuerySchema,
  VideoPlaybackRangeSchema,
  VideoSpaceActiveSchema,
  VideoSpaceCreateSchema,
  VideoSpacePageSchema,
  VideoSpaceSchema,
  VideoSpaceUpdateSchema,
  VideoStreamSchema,
} from '@sunward/contracts/video';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../lib/envelope.js';
import type { SmartAppsService } from '../smart-apps/smart-apps.service.js';
import type { VideoService } from './video.service.js';

const TAGS = ['Video'];
const BASE = '/api/v1/qvs';
const IdParams = z.object({ id: IdParamSchema });
const ChannelParams = z.object({ id: IdParamSchema, gbId: GbIdSchema.describe('The channel’s 20-digit GB28181 code') });
const StreamParams = z.object({
  streamId: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/)
    .describe('The stream id the start call answered'),
});
const done = { 200: envelopeSchema(z.null()) };
/** Why starting and stopping live video is a read: it changes no record (company accounts need video.control too). */
const WATCHING = 'watches live video; no record changes (company accounts need video.control, the service checks)';

/**
 * The video family of spec 01 (`/api/v1/qvs`, issue 23): video spaces (namespaces), cameras (devices by SIP ID),
 * channels (gbId) and live or playback streams (streamId) started and shut down. Every route answers 4400 unless
 * the caller's company enabled the camera app (which needs the platform administrator's grant first, 4613). A
 * customer (an account of no company) passes when a company serving them enabled it, and then reads only the space
 * assigned to them and watches its cameras live (spec 02: one space per customer).
 */
export const videoRoutes: FastifyPluginAsyncZod<{ service: VideoService; apps: Pick<SmartAppsService, 'require' | 'isEnabled'> }> = async (
  app,
  { service, apps },
) => {
  app.addHook('onRequest', async (request) => {
    const auth = request.requireAuth();
    if (auth.companyId === null)
      for (const companyId of await service.servingCompanies(auth)) if (await apps.isEnabled(companyId, 'camera')) return;
    await apps.require(auth, 'camera');
  });
  const spaceAnswer = { 200: envelopeSchema(VideoSpaceSchema) };
  const deviceAnswer = { 200: envelopeSchema(VideoDeviceSchema) };
  const streamAnswer = { 200: envelopeSchema(VideoStreamSchema) };
  const channelsAnswer = { 200: envelopeSchema(VideoChannelListSchema) };

  app.get(
    `${BASE}/sipServer`,
    {
      config: { access: 'video.view' },
      schema: {
        tags: TAGS,
        summary: 'The SIP server details one types into a GB28181 camera (IP, ID, domain, UDP port); not for customers',
        response: { 200: envelopeSchema(SipServerInfoSchema) },
      },
    },
    async (request) => ok(request, service.sipServerInfoFor(request.requireAuth())),
  );

  app.get(
    `${BASE}/namespaces`,
    {
      config: { access: 'video.view' },
      schema: {
        tags: TAGS,
        summary: 'The company’s video spaces (a customer: the one assigned to them)',
        querystring: VideoPageQuerySchema,
        response: { 200: envelopeSchema(VideoSpacePageSchema) },
      },
    },
    async (request) => ok(request, await service.spaces(request.requireAuth(), request.query)),
  );
  app.post(
    `${BASE}/namespaces`,
    {
      config: { access: { kind: 'manage', key: 'video.edit' } },
      schema: {
        tags: TAGS,
        summary: 'Creates a video space (at most 10 per company: 4601; one per customer: 4602)',
        'x-codes': [Code.VIDEO_SPACES_MAX, Code.VIDEO_CUSTOMER_HAS_SPACE, Code.VIDEO_CUSTOMER_INVALID],
        body: VideoSpaceCreateSchema,
        response: spaceAnswer,
      },
    },
    async (request) => ok(request, await service.createSpace(request.requireAuth(), request.body)),
  );
  app.put(
    `${BASE}/namespaces/:id`,
    {
      config: { access: { kind: 'manage', key: 'video.edit' } },
      schema: {
        tags: TAGS,
        summary: 'Renames a video space or changes its storage space',
        'x-codes': [Code.VIDEO_SPACE_NOT_FOUND],
        params: IdParams,
        body: VideoSpaceUpdateSchema,
        response: spaceAnswer,
      },
    },
    async (request) => ok(request, await service.updateSpace(request.requireAuth(), request.params.id, request.body)),
  );
  app.post(
    `${BASE}/namespaces/:id/active`,
    {
      config: { access: { kind: 'manage', key: 'video.edit' } },
      schema: {
        tags: TAGS,
        summary: 'Deactivates a video space (its cameras are unregistered and refused, streams stop) or activates it again',
        'x-codes': [Code.VIDEO_SPACE_NOT_FOUND],
        params: IdParams,
        body: VideoSpaceActiveSchema,
        response: spaceAnswer,
      },
    },
    async (request) => ok(request, await service.setSpaceActive(request.requireAuth(), request.params.id, request.body.active)),
  );
  app.delete(
    `${BASE}/namespaces/:id`,
    {
      config: { access: { kind: 'manage', key: 'video.edit' } },
      schema: {
        tags: TAGS,
        summary: 'Deletes an empty video space (with cameras: 4616)',
        'x-codes': [Code.VIDEO_SPACE_NOT_FOUND, Code.VIDEO_SPACE_HAS_DEVICES],
        params: IdParams,
        response: done,
      },
    },
    async (request) => {
      await service.deleteSpace(request.requireAuth(), request.params.id);
      return ok(request, null);
    },
  );

  app.get(
    `${BASE}/namespaces/:id/devices`,
    {
      config: { access: 'video.view' },
      schema: {
        tags: TAGS,
        summary: 'The cameras of a video space with their state',
        'x-codes': [Code.VIDEO_SPACE_NOT_FOUND],
        params: IdParams,
        querystring: VideoPageQuerySchema,
        response: { 200: envelopeSchema(VideoDevicePageSchema) },
      },
    },
    async (request) => ok(request, await service.devices(request.requireAuth(), request.params.id, request.query)),
  );
  app.post(
    `${BASE}/namespaces/:id/devices`,
    {
      config: { access: { kind: 'manage', key: 'video.edit' } },
      schema: {
        tags: TAGS,
        summary: 'Adds a camera by its SIP ID and password (at most 9 per space: 4603; SIP ID taken: 4605)',
        'x-codes': [Code.VIDEO_SPACE_NOT_FOUND, Code.VIDEO_DEVICES_MAX, Code.VIDEO_SIP_ID_EXISTS],
        params: IdParams,
        body: VideoDeviceCreateSchema,
        response: deviceAnswer,
      },
    },
    async (request) => ok(request, await service.createDevice(request.requireAuth(), request.params.id, request.body)),
  );
  app.get(
    `${BASE}/devices/:id`,
    {
      config: { access: 'video.view' },
      schema: { tags: TAGS, summary: 'One camera', 'x-codes': [Code.VIDEO_DEVICE_NOT_FOUND], params: IdParams, response: deviceAnswer },
    },
    async (request) => ok(request, await service.device(request.requireAuth(), request.params.id)),
  );
  app.put(
    `${BASE}/devices/:id`,
    {
      config: { access: { kind: 'manage', key: 'video.edit' } },
      schema: {
        tags: TAGS,
        summary: 'Renames a camera or changes its password',
        'x-codes': [Code.VIDEO_DEVICE_NOT_FOUND],
        params: IdParams,
        body: VideoDeviceUpdateSchema,
        response: deviceAnswer,
      },
    },
    async (request) => ok(request, await service.updateDevice(request.requireAuth(), request.params.id, request.body)),
  );
  app.post(
    `${BASE}/devices/:id/enable`,
    {
      config: { access: { kind: 'manage', key: 'video.edit' } },
      schema: {
        tags: TAGS,
        summary: 'Enables or disables a camera (disabled: its registration is refused and its streams stop)',
        'x-codes': [Code.VIDEO_DEVICE_NOT_FOUND],
        params: IdParams,
        body: VideoDeviceEnableSchema,
        response: deviceAnswer,
      },
    },
    async (request) => ok(request, await service.setDeviceEnabled(request.requireAuth(), request.params.id, request.body.enabled)),
  );
  app.delete(
    `${BASE}/devices/:id`,
    {
      config: { access: { kind: 'manage', key: 'video.edit' } },
      schema: { tags: TAGS, summary: 'Deletes a camera', 'x-codes': [Code.VIDEO_DEVICE_NOT_FOUND], params: IdParams, response: done },
    },
    async (request) => {
      await service.deleteDevice(request.requireAuth(), request.params.id);
      return ok(request, null);
    },
  );

  app.get(
    `${BASE}/devices/:id/channels`,
    {
      config: { access: 'video.view' },
      schema: {
        tags: TAGS,
        summary: 'A camera’s channels (from its last catalog)',
        'x-codes': [Code.VIDEO_DEVICE_NOT_FOUND],
        params: IdParams,
        response: channelsAnswer,
      },
    },
    async (request) => ok(request, await service.channels(request.requireAuth(), request.params.id)),
  );
  app.post(
    `${BASE}/devices/:id/channels/refresh`,
    {
      config: { access: { kind: 'operate', key: 'video.control' } },
      schema: {
        tags: TAGS,
        summary: 'Asks the camera for its catalog (SIP MESSAGE Query Catalog) and answers the channels it sent',
        'x-codes': [Code.VIDEO_DEVICE_NOT_FOUND, Code.VIDEO_DEVICE_OFFLINE, Code.VIDEO_DEVICE_NO_ANSWER, Code.VIDEO_SIP_OFF],
        params: IdParams,
        response: channelsAnswer,
      },
    },
    async (request) => ok(request, await service.refreshChannels(request.requireAuth(), request.params.id)),
  );
  app.post(
    `${BASE}/devices/:id/channels/:gbId/live`,
    {
      // Watching records nothing: a company's account still needs video.control (the service asks), a customer
      // (read-only, video.view) watches the cameras of their own space.
      config: { access: { kind: 'view', key: 'video.view', readsOnly: WATCHING } },
      schema: {
        tags: TAGS,
        summary:
          'Starts (or joins) a channel’s live video: INVITE s=Play to the camera, the media server receives (a customer: their own space’s cameras)',
        'x-codes': [
          Code.VIDEO_DEVICE_NOT_FOUND,
          Code.VIDEO_CHANNEL_NOT_FOUND,
          Code.VIDEO_DEVICE_OFFLINE,
          Code.VIDEO_DEVICE_DISABLED,
          Code.VIDEO_SPACE_INACTIVE,
          Code.VIDEO_DEVICE_NO_ANSWER,
          Code.VIDEO_INVITE_REFUSED,
          Code.VIDEO_MEDIA_FAILED,
        ],
        params: ChannelParams,
        response: streamAnswer,
      },
    },
    async (request) => ok(request, await service.startLive(request.requireAuth(), request.params.id, request.params.gbId)),
  );
  app.post(
    `${BASE}/devices/:id/channels/:gbId/playback`,
    {
      config: { access: { kind: 'operate', key: 'video.control' } },
      schema: {
        tags: TAGS,
        summary: 'Starts a playback of a recorded range: INVITE s=Playback with t=start end',
        'x-codes': [
          Code.VIDEO_DEVICE_NOT_FOUND,
          Code.VIDEO_CHANNEL_NOT_FOUND,
          Code.VIDEO_DEVICE_OFFLINE,
          Code.VIDEO_DEVICE_DISABLED,
          Code.VIDEO_SPACE_INACTIVE,
          Code.VIDEO_DEVICE_NO_ANSWER,
          Code.VIDEO_INVITE_REFUSED,
          Code.VIDEO_MEDIA_FAILED,
        ],
        params: ChannelParams,
        body: VideoPlaybackRangeSchema,
        response: streamAnswer,
      },
    },
    async (request) =>
      ok(request, await service.startPlayback(request.requireAuth(), request.params.id, request.params.gbId, request.body)),
  );
  app.get(
    `${BASE}/streams/:streamId`,
    {
      config: { access: 'video.view' },
      schema: {
        tags: TAGS,
        summary: 'A stream’s state (starting until the media plays)',
        'x-codes': [Code.VIDEO_STREAM_NOT_FOUND],
        params: StreamParams,
        response: streamAnswer,
      },
    },
    async (request) => ok(request, await service.stream(request.requireAuth(), request.params.streamId)),
  );
  app.post(
    `${BASE}/streams/:streamId/stop`,
    {
      config: { access: { kind: 'view', key: 'video.view', readsOnly: WATCHING } },
      schema: {
        tags: TAGS,
        summary: 'Shuts a live or playback stream down (BYE to the camera)',
        'x-codes': [Code.VIDEO_STREAM_NOT_FOUND],
        params: StreamParams,
        response: streamAnswer,
      },
    },
    async (request) => ok(request, await service.stopStream(request.requireAuth(), request.params.streamId)),
  );
};

/** The platform administrator's grant of the video service to companies (outside the camera app's gate). */
export const videoGrantRoutes: FastifyPluginAsyncZod<{ service: VideoService }> = async (app, { service }) => {
  app.get(
    `${BASE}/grants`,
    {
      config: { access: 'video.view' },
      schema: {
        tags: TAGS,
        summary: 'Companies and whether the video service is granted to each (platform administrator)',
        querystring: VideoPageQuerySchema,
        response: { 200: envelopeSchema(VideoGrantListSchema) },
      },
    },
    async (request) => ok(request, await service.grants(request.requireAuth(), request.query)),
  );
  app.post(
    `${BASE}/grants/:companyId`,
    {
      config: { access: { kind: 'manage', key: 'video.edit' } },
      schema: {
        tags: TAGS,
        summary:
          'Grants or withdraws the video service for a company (platform administrator); the company’s administrator then enables the camera app',
        params: z.object({ companyId: IdParamSchema }),
        body: VideoGrantSetSchema,
        response: { 200: envelopeSchema(VideoGrantSchema) },
      },
    },
    async (request) => ok(request, await service.setGrant(request.requireAuth(), request.params.companyId, request.body.granted)),
  );
};
