import { z } from 'zod';

/**
 * Video surveillance (issue 23, spec 02 "Camera and video space", spec 01 family `qvs`): a company's video spaces
 * (namespaces), the GB28181 cameras in each (devices, by their 20-digit SIP ID), their channels (gbId), and live or
 * playback streams started and shut down through the console. Cameras register with the platform's SIP server
 * (GET qvs/sipServer: what one types into the camera).
 *
 * Routes (all behind the company's `camera` app, which needs the platform administrator's grant first; another
 * company's space, camera or stream answers as not found: 4600, 4604, 4610):
 *   GET    /api/v1/qvs/sipServer                                  SipServerInfo                      video.view
 *   GET    /api/v1/qvs/namespaces?page&size&name                  VideoSpacePage                     video.view
 *   POST   /api/v1/qvs/namespaces                                 VideoSpaceCreate → VideoSpace      video.edit
 *   PUT    /api/v1/qvs/namespaces/{id}                            VideoSpaceUpdate → VideoSpace      video.edit
 *   POST   /api/v1/qvs/namespaces/{id}/active                     VideoSpaceActive → VideoSpace      video.edit
 *   DELETE /api/v1/qvs/namespaces/{id}                            (4616 while it holds cameras)      video.edit
 *   GET    /api/v1/qvs/namespaces/{id}/devices                    VideoDevicePage                    video.view
 *   POST   /api/v1/qvs/namespaces/{id}/devices                    VideoDeviceCreate → VideoDevice    video.edit
 *   GET    /api/v1/qvs/devices/{id}                               VideoDevice                        video.view
 *   PUT    /api/v1/qvs/devices/{id}                               VideoDeviceUpdate → VideoDevice    video.edit
 *   POST   /api/v1/qvs/devices/{id}/enable                        VideoDeviceEnable → VideoDevice    video.edit
 *   DELETE /api/v1/qvs/devices/{id}                                                                  video.edit
 *   GET    /api/v1/qvs/devices/{id}/channels                      VideoChannelList                   video.view
 *   POST   /api/v1/qvs/devices/{id}/channels/refresh              VideoChannelList (catalog query)   video.control
 *   POST   /api/v1/qvs/devices/{id}/channels/{gbId}/live          VideoStream                        video.control
 *   POST   /api/v1/qvs/devices/{id}/channels/{gbId}/playback      VideoPlaybackRange → VideoStream   video.control
 *   GET    /api/v1/qvs/streams/{streamId}                         VideoStream (poll: starting → playing) video.view
 *   POST   /api/v1/qvs/streams/{streamId}/stop                    VideoStream (stopped)              video.control
 *   GET    /api/v1/qvs/grants                (platform admin)     VideoGrantList
 *   POST   /api/v1/qvs/grants/{companyId}    (platform admin)     VideoGrantSet → VideoGrant
 */
export const VIDEO_LIMITS = {
  /** Spec 02: at most 10 video spaces (per company), one per customer. */
  spacesMax: 10,
  /** Spec 02: at most 9 devices in a space. */
  devicesPerSpaceMax: 9,
  nameMax: 50,
  /** Storage space of a video space, in GB (recordings kept on the cameras' or NVR's own storage count against it). */
  storageGbMin: 1,
  storageGbMax: 100_000,
  storageGbDefault: 100,
  /** Camera password (docs/decisions.md "Camera password"): the spec's stricter wording, 8–24 with upper, lower, digits. */
  passwordMin: 8,
  passwordMax: 24,
  /** A playback range may span at most one day. */
  playbackMaxSeconds: 24 * 3600,
  pageSizeMax: 100,
} as const;

/** A GB28181 code: 20 digits (centre 8, industry 2, type 3, network 1, serial 6), e.g. 34020000001320000001. */
export const GB_ID_PATTERN = /^\d{20}$/;
export const GbIdSchema = z.string().regex(GB_ID_PATTERN, '20 digits');

/**
 * Camera password (the SIP digest secret the camera registers with), chosen among the spec's two wordings:
 * 8–24 characters of letters, digits and dash, with at least one upper-case letter, one lower-case letter and one
 * digit (docs/decisions.md "Camera password": it guards a registration anyone on the internet can try).
 */
export const CAMERA_PASSWORD_PATTERN = /^(?=.*[a-z])(?=.*[A-Z])(?=.*\d)[A-Za-z0-9-]{8,24}$/;
export const CameraPasswordSchema = z
  .string()
  .regex(CAMERA_PASSWORD_PATTERN, '8-24 letters, digits or -, with upper and lower case and a digit');

const name = z.string().trim().min(1).max(VIDEO_LIMITS.nameMax);
const storageGb = z.number().int().min(VIDEO_LIMITS.storageGbMin).max(VIDEO_LIMITS.storageGbMax);

/** A video space (spec: namespace). `customerId` null: the company's own space. */
export const VideoSpaceSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  customerId: z.number().int().nullable(),
  customerName: z.string().nullable(),
  storageGb: z.number().int(),
  /** False once deactivated: its cameras are refused at registration and no stream starts. */
  active: z.boolean(),
  deviceCount: z.number().int(),
  createdAt: z.string(),
});
export type VideoSpace = z.infer<typeof VideoSpaceSchema>;

export const VideoSpacePageSchema = z.object({ infos: z.array(VideoSpaceSchema), total: z.number().int() });
export type VideoSpacePage = z.infer<typeof VideoSpacePageSchema>;

export const VideoSpaceCreateSchema = z.object({
  name,
  /** The customer this space is for (one space per customer); omitted or null: the company's own. */
  customerId: z.number().int().positive().nullable().optional(),
  storageGb: storageGb.default(VIDEO_LIMITS.storageGbDefault),
});
export type VideoSpaceCreate = z.input<typeof VideoSpaceCreateSchema>;

export const VideoSpaceUpdateSchema = z.object({ name, storageGb });
export type VideoSpaceUpdate = z.infer<typeof VideoSpaceUpdateSchema>;

/** POST qvs/namespaces/{id}/active: deactivate (false) or activate again (true). */
export const VideoSpaceActiveSchema = z.object({ active: z.boolean() });
export type VideoSpaceActive = z.infer<typeof VideoSpaceActiveSchema>;

/**
 * A camera's state (spec 02): `unregistered` (never registered), `inactive` (registration expired or keepalives
 * missed), `disabled` (switched off in the console: its REGISTER is refused), `active` (registered, keepalives on time).
 */
export const VIDEO_DEVICE_STATES = ['unregistered', 'inactive', 'disabled', 'active'] as const;
export const VideoDeviceStateSchema = z.enum(VIDEO_DEVICE_STATES);
export type VideoDeviceState = z.infer<typeof VideoDeviceStateSchema>;

export const VideoChannelStatusSchema = z.enum(['online', 'offline']);
export type VideoChannelStatus = z.infer<typeof VideoChannelStatusSchema>;

/** A channel of a camera or NVR (spec: channel, gbId), from the camera's catalog answer. */
export const VideoChannelSchema = z.object({
  gbId: z.string(),
  name: z.string(),
  status: VideoChannelStatusSchema,
  manufacturer: z.string().nullable(),
  model: z.string().nullable(),
  updatedAt: z.string(),
});
export type VideoChannel = z.infer<typeof VideoChannelSchema>;

export const VideoChannelListSchema = z.object({ infos: z.array(VideoChannelSchema), total: z.number().int() });
export type VideoChannelList = z.infer<typeof VideoChannelListSchema>;

/** A camera (spec: device, deviceId = its SIP ID). The password is never sent back. */
export const VideoDeviceSchema = z.object({
  id: z.number().int(),
  spaceId: z.number().int(),
  name: z.string(),
  sipId: z.string(),
  state: VideoDeviceStateSchema,
  enabled: z.boolean(),
  /** Where the camera registered from (ip:port), null before its first registration. */
  remoteAddress: z.string().nullable(),
  manufacturer: z.string().nullable(),
  model: z.string().nullable(),
  channelCount: z.number().int(),
  registeredAt: z.string().nullable(),
  lastKeepaliveAt: z.string().nullable(),
  createdAt: z.string(),
});
export type VideoDevice = z.infer<typeof VideoDeviceSchema>;

export const VideoDevicePageSchema = z.object({ infos: z.array(VideoDeviceSchema), total: z.number().int() });
export type VideoDevicePage = z.infer<typeof VideoDevicePageSchema>;

export const VideoDeviceCreateSchema = z.object({ name, sipId: GbIdSchema, password: CameraPasswordSchema });
export type VideoDeviceCreate = z.infer<typeof VideoDeviceCreateSchema>;

/** Rename, and optionally change the password (omitted: unchanged). */
export const VideoDeviceUpdateSchema = z.object({ name, password: CameraPasswordSchema.optional() });
export type VideoDeviceUpdate = z.infer<typeof VideoDeviceUpdateSchema>;

export const VideoDeviceEnableSchema = z.object({ enabled: z.boolean() });
export type VideoDeviceEnable = z.infer<typeof VideoDeviceEnableSchema>;

/** GET qvs/sipServer: what one types into a GB28181 camera's platform access page (docs/video.md). */
export const SipServerInfoSchema = z.object({
  /** False when SIP_PORT=off: cameras cannot register. */
  enabled: z.boolean(),
  /** SIP server IP (SIP_PUBLIC_IP, else this machine's first non-loopback IPv4). */
  ip: z.string(),
  /** SIP server ID (SIP_SERVER_ID, 20 digits). */
  id: z.string(),
  /** SIP server domain (SIP_DOMAIN, the digest realm; usually the ID's first 10 digits). */
  domain: z.string(),
  /** UDP port. */
  port: z.number().int(),
  transport: z.literal('UDP'),
  /** Seconds between keepalives the platform expects; a camera is inactive after 3 missed. */
  keepaliveSeconds: z.number().int(),
  /** The registration validity the platform grants at most. */
  registerExpiresSeconds: z.number().int(),
});
export type SipServerInfo = z.infer<typeof SipServerInfoSchema>;

export const VideoStreamKindSchema = z.enum(['live', 'playback']);
export type VideoStreamKind = z.infer<typeof VideoStreamKindSchema>;
/** `starting`: INVITE sent or the media not playable yet; `playing`: the URL plays; `stopped`: BYE sent or received. */
export const VideoStreamStateSchema = z.enum(['starting', 'playing', 'stopped']);
export type VideoStreamState = z.infer<typeof VideoStreamStateSchema>;

/** A live or playback stream (spec: streamId): the answer of start, stop and GET qvs/streams/{streamId}. */
export const VideoStreamSchema = z.object({
  streamId: z.string(),
  deviceId: z.number().int(),
  gbId: z.string(),
  kind: VideoStreamKindSchema,
  state: VideoStreamStateSchema,
  /** The HLS playlist the browser plays (relative to the console's origin, or absolute for an external media server). */
  playUrl: z.string(),
  /** Playback only: the recorded range asked. */
  start: z.string().nullable(),
  end: z.string().nullable(),
  startedAt: z.string(),
});
export type VideoStream = z.infer<typeof VideoStreamSchema>;

/** POST qvs/devices/{id}/channels/{gbId}/playback: the recorded range to play (ISO times, end after start, ≤ 1 day). */
export const VideoPlaybackRangeSchema = z
  .object({ start: z.iso.datetime({ offset: true }), end: z.iso.datetime({ offset: true }) })
  .refine((r) => Date.parse(r.end) > Date.parse(r.start), { message: 'end after start', path: ['end'] })
  .refine((r) => Date.parse(r.end) - Date.parse(r.start) <= VIDEO_LIMITS.playbackMaxSeconds * 1000, {
    message: 'at most one day',
    path: ['end'],
  });
export type VideoPlaybackRange = z.infer<typeof VideoPlaybackRangeSchema>;

/** The platform administrator's grant of the video service to a company (spec 02: enabled by the administrator). */
export const VideoGrantSchema = z.object({
  companyId: z.number().int(),
  companyName: z.string(),
  granted: z.boolean(),
  grantedAt: z.string().nullable(),
});
export type VideoGrant = z.infer<typeof VideoGrantSchema>;
export const VideoGrantListSchema = z.object({ infos: z.array(VideoGrantSchema), total: z.number().int() });
export type VideoGrantList = z.infer<typeof VideoGrantListSchema>;
export const VideoGrantSetSchema = z.object({ granted: z.boolean() });
export type VideoGrantSet = z.infer<typeof VideoGrantSetSchema>;

/** GET qvs/namespaces, qvs/namespaces/{id}/devices and qvs/grants: a page, and a name filter where it applies. */
export const VideoPageQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  size: z.coerce.number().int().min(1).max(VIDEO_LIMITS.pageSizeMax).default(20),
  name: z.string().trim().max(VIDEO_LIMITS.nameMax).optional(),
});
export type VideoPageQuery = z.infer<typeof VideoPageQuerySchema>;
