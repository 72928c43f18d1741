import { randomBytes } from 'node:crypto';
import { Code } from '@sunward/contracts/codes';
import {
  type SipServerInfo,
  VIDEO_LIMITS,
  type VideoChannelList,
  type VideoDevice,
  type VideoDeviceCreate,
  type VideoDevicePage,
  type VideoDeviceState,
  type VideoDeviceUpdate,
  type VideoGrant,
  type VideoGrantList,
  type VideoPlaybackRange,
  type VideoSpace,
  type VideoSpacePage,
  type VideoSpaceUpdate,
  type VideoStream,
  type VideoStreamKind,
} from '@sunward/contracts/video';
import { ApiError } from '../../lib/envelope.js';
import type { SecretBox } from '../../lib/secret-box.js';
import type { AuthContext } from '../../plugins/auth.js';
import type { OperationLog } from '../audit/operation-log.js';
import { MediaUnavailableError } from './media/media-error.js';
import type { MediaServer } from './media/media-server.js';
import type { CatalogItem } from './sip/manscdp.js';
import { type CameraDirectory, SipNoAnswerError, SipNotRegisteredError, SipRefusedError, type SipServer } from './sip/sip-server.js';
import type { DeviceRecord, SpaceRecord, VideoRepository, VideoScope } from './video.repository.js';

/** A camera is inactive after this many keepalive intervals without one. */
export const MISSED_KEEPALIVES = 3;

interface StreamEntry {
  streamId: string;
  companyId: number;
  spaceId: number;
  deviceId: number;
  sipId: string;
  gbId: string;
  kind: VideoStreamKind;
  start: Date | null;
  end: Date | null;
  startedAt: Date;
  playing: boolean;
}

export interface VideoServiceDeps {
  repository: VideoRepository;
  box: SecretBox;
  log: OperationLog;
  media: MediaServer;
  /** The SIP server once it is listening (undefined with SIP_PORT=off). */
  sip: () => SipServer | undefined;
  settings:
    | { serverId: string; domain: string; ip: string; port: number; keepaliveSeconds: number; registerExpiresSeconds: number }
    | undefined;
  logger?: { warn(obj: object, msg: string): void };
  now?: () => Date;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function stateOf(d: DeviceRecord): VideoDeviceState {
  if (!d.enabled) return 'disabled';
  if (!d.registeredAt) return 'unregistered';
  return d.online && d.spaceActive ? 'active' : 'inactive';
}

function spaceView(s: SpaceRecord): VideoSpace {
  return {
    id: s.id,
    name: s.name,
    customerId: s.customerId,
    customerName: s.customerName,
    storageGb: s.storageGb,
    active: s.active,
    deviceCount: s.deviceCount,
    createdAt: s.createdAt.toISOString(),
  };
}

function deviceView(d: DeviceRecord): VideoDevice {
  return {
    id: d.id,
    spaceId: d.spaceId,
    name: d.name,
    sipId: d.sipId,
    state: stateOf(d),
    enabled: d.enabled,
    remoteAddress: d.remoteAddress,
    manufacturer: d.manufacturer,
    model: d.model,
    channelCount: d.channelCount,
    registeredAt: iso(d.registeredAt),
    lastKeepaliveAt: iso(d.lastKeepaliveAt),
    createdAt: d.createdAt.toISOString(),
  };
}

/**
 * Video surveillance (issue 23 parts 1, 2, 6): spaces, cameras and channels of the caller's company (another
 * company's answer "not found"), streams started and shut down through the SIP server and the media server, and
 * the camera directory the SIP server asks (credentials, registration, keepalives, catalogs).
 */
export function createVideoService(deps: VideoServiceDeps) {
  const { repository, box, media } = deps;
  const now = deps.now ?? (() => new Date());
  const streams = new Map<string, StreamEntry>();

  function companyOf(auth: AuthContext): number {
    // Accounts outside a company have no spaces: every id is "not found" for them.
    if (auth.companyId === null) throw new ApiError(Code.VIDEO_SPACE_NOT_FOUND);
    return auth.companyId;
  }

  /**
   * What the caller's reads reach: a company's account its company's spaces; an account of no company (a customer
   * of companies, spec 02: "one space per customer") only the space assigned to it, read-only. Writes (video.edit,
   * which customers never hold) keep to the company (`companyOf`).
   */
  function scopeOf(auth: AuthContext): VideoScope {
    return auth.companyId === null ? { kind: 'customer', userId: auth.userId } : { kind: 'company', companyId: auth.companyId };
  }

  /** A customer watches live video of their space's cameras and nothing more (no playback, no catalog query). */
  function companyOnly(auth: AuthContext): void {
    if (auth.companyId === null) throw new ApiError(Code.NO_PERMISSION);
  }

  async function spaceOf(auth: AuthContext, id: number, scope: VideoScope = { kind: 'company', companyId: companyOf(auth) }) {
    const space = await repository.space(scope, id);
    if (!space) throw new ApiError(Code.VIDEO_SPACE_NOT_FOUND);
    return space;
  }

  /** A camera the caller reaches (`read`: a customer's too; otherwise the caller's company's only). */
  async function deviceOf(auth: AuthContext, id: number, read = false): Promise<DeviceRecord> {
    if (auth.companyId === null && !read) throw new ApiError(Code.VIDEO_DEVICE_NOT_FOUND);
    const device = await repository.device(scopeOf(auth), id);
    if (!device) throw new ApiError(Code.VIDEO_DEVICE_NOT_FOUND);
    return device;
  }

  /**
   * Live video's routes are reads (video.view) so a read-only customer can watch; a company's account still needs
   * video.control to start or stop a stream, as before.
   */
  function mayWatch(auth: AuthContext): void {
    if (auth.companyId !== null && !auth.permissions.has('video.control')) throw new ApiError(Code.NO_PERMISSION);
  }

  /** Whether a stream is of a camera the caller reaches (a customer: of their own space). */
  async function reaches(auth: AuthContext, entry: StreamEntry): Promise<boolean> {
    if (auth.companyId !== null) return entry.companyId === auth.companyId;
    return (await repository.space(scopeOf(auth), entry.spaceId)) !== undefined;
  }

  function streamView(entry: StreamEntry, stopped = false): VideoStream {
    return {
      streamId: entry.streamId,
      deviceId: entry.deviceId,
      gbId: entry.gbId,
      kind: entry.kind,
      state: stopped ? 'stopped' : entry.playing ? 'playing' : 'starting',
      playUrl: media.playUrl(entry.streamId),
      start: iso(entry.start),
      end: iso(entry.end),
      startedAt: entry.startedAt.toISOString(),
    };
  }

  /** Ends a stream on every side: BYE to the camera (unless it ended it), the media server's receiver. */
  async function endStream(streamId: string, byCamera: boolean): Promise<StreamEntry | undefined> {
    const entry = streams.get(streamId);
    streams.delete(streamId);
    if (!byCamera) await deps.sip()?.bye(streamId);
    await media.close(streamId).catch((error: unknown) => deps.logger?.warn({ err: error, streamId }, 'closing a stream failed'));
    return entry;
  }

  async function endStreamsOf(sipIds: readonly string[]): Promise<void> {
    const set = new Set(sipIds);
    await Promise.all([...streams.values()].filter((s) => set.has(s.sipId)).map((s) => endStream(s.streamId, false)));
  }

  async function startStream(
    auth: AuthContext,
    deviceId: number,
    gbId: string,
    kind: VideoStreamKind,
    range?: VideoPlaybackRange,
  ): Promise<VideoStream> {
    const device = await deviceOf(auth, deviceId, kind === 'live');
    if (!device.enabled) throw new ApiError(Code.VIDEO_DEVICE_DISABLED);
    if (!device.spaceActive) throw new ApiError(Code.VIDEO_SPACE_INACTIVE);
    if (stateOf(device) !== 'active') throw new ApiError(Code.VIDEO_DEVICE_OFFLINE);
    const channels = await repository.channels(device.id);
    if (!channels.some((c) => c.gbId === gbId)) throw new ApiError(Code.VIDEO_CHANNEL_NOT_FOUND);
    const sip = deps.sip();
    if (!sip) throw new ApiError(Code.VIDEO_SIP_OFF);
    const liveId = `live_${device.sipId}_${gbId}`;
    if (kind === 'live') {
      // Viewers of one channel share its live stream.
      const running = streams.get(liveId);
      if (running) return streamView({ ...running, playing: running.playing || (await media.isReady(liveId).catch(() => false)) });
    }
    const streamId = kind === 'live' ? liveId : `pb_${gbId}_${randomBytes(6).toString('hex')}`;
    const entry: StreamEntry = {
      streamId,
      companyId: device.companyId,
      spaceId: device.spaceId,
      deviceId: device.id,
      sipId: device.sipId,
      gbId,
      kind,
      start: range ? new Date(range.start) : null,
      end: range ? new Date(range.end) : null,
      startedAt: now(),
      playing: false,
    };
    let receiver: Awaited<ReturnType<MediaServer['openReceiver']>>;
    try {
      receiver = await media.openReceiver(streamId, kind);
    } catch (error) {
      deps.logger?.warn({ err: error, streamId }, 'media server refused a receiver');
      // The reason travels in the refusal's data: the player words "video needs ffmpeg on the server" from it.
      throw new ApiError(
        Code.VIDEO_MEDIA_FAILED,
        {},
        { reason: error instanceof MediaUnavailableError ? error.reason : 'media-server-refused' },
      );
    }
    streams.set(streamId, entry);
    try {
      await sip.invite({
        streamId,
        sipId: device.sipId,
        channelId: gbId,
        receiver,
        kind,
        start: entry.start ?? undefined,
        end: entry.end ?? undefined,
      });
    } catch (error) {
      streams.delete(streamId);
      await media.close(streamId).catch(() => undefined);
      await deps.log.record(auth, {
        action: `video.${kind}.start`,
        targetType: 'device',
        target: `camera:${device.sipId}:${gbId}`,
        result: 'failed',
        detail: error instanceof SipRefusedError ? `SIP ${error.status}` : 'no answer',
      });
      if (error instanceof SipRefusedError) throw new ApiError(Code.VIDEO_INVITE_REFUSED);
      if (error instanceof SipNotRegisteredError) throw new ApiError(Code.VIDEO_DEVICE_OFFLINE);
      if (error instanceof SipNoAnswerError) throw new ApiError(Code.VIDEO_DEVICE_NO_ANSWER);
      throw error;
    }
    await deps.log.record(auth, {
      action: `video.${kind}.start`,
      targetType: 'device',
      target: `camera:${device.sipId}:${gbId}`,
      request: range ?? undefined,
      result: 'ok',
    });
    return streamView(entry);
  }

  const directory: CameraDirectory = {
    async credentials(sipId) {
      const device = await repository.deviceBySipId(sipId);
      if (!device) return undefined;
      const password = box.open(device.passwordSealed);
      if (password === undefined) return undefined;
      return { password, allowed: device.enabled && device.spaceActive };
    },
    async registered(sipId, remote, expiresSeconds) {
      const at = now();
      await repository.registered(sipId, remote, at, new Date(at.getTime() + expiresSeconds * 1000));
    },
    async unregistered(sipId) {
      await repository.unregistered(sipId);
      await endStreamsOf([sipId]);
    },
    async keepalive(sipId) {
      return repository.keepalive(sipId, now());
    },
    async channels(sipId, items: CatalogItem[]) {
      await repository.replaceChannels(sipId, items);
    },
    async address(sipId) {
      const device = await repository.deviceBySipId(sipId);
      return device?.online ? (device.remoteAddress ?? undefined) : undefined;
    },
    streamEnded(streamId) {
      void endStream(streamId, true);
    },
  };

  return {
    directory,

    /** The companies an account of no company is a customer of (the camera app's gate resolves the customer's). */
    servingCompanies(auth: AuthContext): Promise<number[]> {
      return auth.companyId === null ? repository.servingCompanies(auth.userId) : Promise.resolve([]);
    },

    /** The SIP server's details are for whoever adds cameras: a company's accounts, not its customers. */
    sipServerInfoFor(auth: AuthContext): SipServerInfo {
      companyOnly(auth);
      return this.sipServerInfo();
    },

    sipServerInfo(): SipServerInfo {
      const s = deps.settings;
      return {
        enabled: s !== undefined && deps.sip() !== undefined,
        ip: s?.ip ?? '',
        id: s?.serverId ?? '',
        domain: s?.domain ?? '',
        port: deps.sip()?.port ?? s?.port ?? 0,
        transport: 'UDP',
        keepaliveSeconds: s?.keepaliveSeconds ?? 60,
        registerExpiresSeconds: s?.registerExpiresSeconds ?? 3600,
      };
    },

    // Spaces.
    async spaces(auth: AuthContext, query: { page: number; size: number; name?: string }): Promise<VideoSpacePage> {
      const { rows, total } = await repository.spaces(scopeOf(auth), query.page, query.size, query.name);
      return { infos: rows.map(spaceView), total };
    },
    async createSpace(auth: AuthContext, input: { name: string; customerId?: number | null; storageGb: number }): Promise<VideoSpace> {
      const companyId = companyOf(auth);
      const customerId = input.customerId ?? null;
      if (customerId !== null && !(await repository.customerOf(companyId, customerId))) throw new ApiError(Code.VIDEO_CUSTOMER_INVALID);
      const outcome = await repository.insertSpace(
        { companyId, name: input.name, customerId, storageGb: input.storageGb },
        VIDEO_LIMITS.spacesMax,
      );
      if (!outcome.ok) throw new ApiError(outcome.reason === 'spaces_max' ? Code.VIDEO_SPACES_MAX : Code.VIDEO_CUSTOMER_HAS_SPACE);
      await deps.log.record(auth, {
        action: 'video.space.create',
        targetType: 'device',
        target: `video-space:${outcome.id}`,
        request: input,
        result: 'ok',
      });
      return spaceView(await spaceOf(auth, outcome.id));
    },
    async updateSpace(auth: AuthContext, id: number, input: VideoSpaceUpdate): Promise<VideoSpace> {
      await spaceOf(auth, id);
      await repository.updateSpace(companyOf(auth), id, input);
      await deps.log.record(auth, {
        action: 'video.space.edit',
        targetType: 'device',
        target: `video-space:${id}`,
        request: input,
        result: 'ok',
      });
      return spaceView(await spaceOf(auth, id));
    },
    /** Deactivating ends the space's registrations and streams; its cameras are refused until it is active again. */
    async setSpaceActive(auth: AuthContext, id: number, active: boolean): Promise<VideoSpace> {
      await spaceOf(auth, id);
      await repository.updateSpace(companyOf(auth), id, { active });
      if (!active) {
        const sipIds = await repository.spaceSipIds(id);
        await endStreamsOf(sipIds);
        await repository.setOffline(sipIds);
        for (const sipId of sipIds) deps.sip()?.forget(sipId);
      }
      await deps.log.record(auth, {
        action: active ? 'video.space.activate' : 'video.space.deactivate',
        targetType: 'device',
        target: `video-space:${id}`,
        result: 'ok',
      });
      return spaceView(await spaceOf(auth, id));
    },
    async deleteSpace(auth: AuthContext, id: number): Promise<void> {
      const space = await spaceOf(auth, id);
      if (space.deviceCount > 0) throw new ApiError(Code.VIDEO_SPACE_HAS_DEVICES);
      await repository.deleteSpace(companyOf(auth), id);
      await deps.log.record(auth, { action: 'video.space.delete', targetType: 'device', target: `video-space:${id}`, result: 'ok' });
    },

    // Cameras.
    async devices(auth: AuthContext, spaceId: number, query: { page: number; size: number }): Promise<VideoDevicePage> {
      await spaceOf(auth, spaceId, scopeOf(auth));
      const { rows, total } = await repository.devices(scopeOf(auth), spaceId, query.page, query.size);
      return { infos: rows.map(deviceView), total };
    },
    async device(auth: AuthContext, id: number): Promise<VideoDevice> {
      return deviceView(await deviceOf(auth, id, true));
    },
    async createDevice(auth: AuthContext, spaceId: number, input: VideoDeviceCreate): Promise<VideoDevice> {
      const space = await spaceOf(auth, spaceId);
      const outcome = await repository.insertDevice(
        { spaceId, companyId: space.companyId, name: input.name, sipId: input.sipId, passwordSealed: box.seal(input.password) },
        VIDEO_LIMITS.devicesPerSpaceMax,
      );
      if (!outcome.ok)
        throw new ApiError(
          outcome.reason === 'devices_max'
            ? Code.VIDEO_DEVICES_MAX
            : outcome.reason === 'sip_id_exists'
              ? Code.VIDEO_SIP_ID_EXISTS
              : Code.VIDEO_SPACE_NOT_FOUND,
        );
      await deps.log.record(auth, {
        action: 'video.device.create',
        targetType: 'device',
        target: `camera:${input.sipId}`,
        request: { name: input.name, spaceId },
        result: 'ok',
      });
      return deviceView(await deviceOf(auth, outcome.id));
    },
    async updateDevice(auth: AuthContext, id: number, input: VideoDeviceUpdate): Promise<VideoDevice> {
      const device = await deviceOf(auth, id);
      await repository.updateDevice(device.companyId, id, {
        name: input.name,
        ...(input.password ? { passwordSealed: box.seal(input.password) } : {}),
      });
      await deps.log.record(auth, {
        action: 'video.device.edit',
        targetType: 'device',
        target: `camera:${device.sipId}`,
        request: { name: input.name, password: input.password ? 'changed' : 'unchanged' },
        result: 'ok',
      });
      return deviceView(await deviceOf(auth, id));
    },
    async setDeviceEnabled(auth: AuthContext, id: number, enabled: boolean): Promise<VideoDevice> {
      const device = await deviceOf(auth, id);
      await repository.updateDevice(device.companyId, id, enabled ? { enabled } : { enabled, online: false });
      if (!enabled) {
        await endStreamsOf([device.sipId]);
        deps.sip()?.forget(device.sipId);
      }
      await deps.log.record(auth, {
        action: enabled ? 'video.device.enable' : 'video.device.disable',
        targetType: 'device',
        target: `camera:${device.sipId}`,
        result: 'ok',
      });
      return deviceView(await deviceOf(auth, id));
    },
    async deleteDevice(auth: AuthContext, id: number): Promise<void> {
      const device = await deviceOf(auth, id);
      await endStreamsOf([device.sipId]);
      deps.sip()?.forget(device.sipId);
      await repository.deleteDevice(device.companyId, id);
      await deps.log.record(auth, { action: 'video.device.delete', targetType: 'device', target: `camera:${device.sipId}`, result: 'ok' });
    },

    // Channels.
    async channels(auth: AuthContext, id: number): Promise<VideoChannelList> {
      const device = await deviceOf(auth, id, true);
      const rows = await repository.channels(device.id);
      return {
        infos: rows.map((c) => ({
          gbId: c.gbId,
          name: c.name,
          status: c.status === 'online' ? 'online' : 'offline',
          manufacturer: c.manufacturer,
          model: c.model,
          updatedAt: c.updatedAt.toISOString(),
        })),
        total: rows.length,
      };
    },
    /** Asks the camera for its catalog and answers the stored channels once it has arrived. */
    async refreshChannels(auth: AuthContext, id: number): Promise<VideoChannelList> {
      companyOnly(auth);
      const device = await deviceOf(auth, id);
      if (!device.enabled) throw new ApiError(Code.VIDEO_DEVICE_DISABLED);
      if (!device.spaceActive) throw new ApiError(Code.VIDEO_SPACE_INACTIVE);
      if (stateOf(device) !== 'active') throw new ApiError(Code.VIDEO_DEVICE_OFFLINE);
      const sip = deps.sip();
      if (!sip) throw new ApiError(Code.VIDEO_SIP_OFF);
      try {
        await sip.queryCatalog(device.sipId);
      } catch (error) {
        if (error instanceof SipNotRegisteredError) throw new ApiError(Code.VIDEO_DEVICE_OFFLINE);
        if (error instanceof SipRefusedError) throw new ApiError(Code.VIDEO_INVITE_REFUSED);
        throw new ApiError(Code.VIDEO_DEVICE_NO_ANSWER);
      }
      return this.channels(auth, id);
    },

    // Streams.
    async startLive(auth: AuthContext, deviceId: number, gbId: string): Promise<VideoStream> {
      mayWatch(auth);
      return startStream(auth, deviceId, gbId, 'live');
    },
    async startPlayback(auth: AuthContext, deviceId: number, gbId: string, range: VideoPlaybackRange): Promise<VideoStream> {
      companyOnly(auth);
      return startStream(auth, deviceId, gbId, 'playback', range);
    },
    async stream(auth: AuthContext, streamId: string): Promise<VideoStream> {
      const entry = streams.get(streamId);
      if (!entry || !(await reaches(auth, entry))) throw new ApiError(Code.VIDEO_STREAM_NOT_FOUND);
      if (!entry.playing) entry.playing = await media.isReady(streamId).catch(() => false);
      return streamView(entry);
    },
    async stopStream(auth: AuthContext, streamId: string): Promise<VideoStream> {
      const entry = streams.get(streamId);
      mayWatch(auth);
      if (!entry || !(await reaches(auth, entry))) throw new ApiError(Code.VIDEO_STREAM_NOT_FOUND);
      await endStream(streamId, false);
      await deps.log.record(auth, {
        action: `video.${entry.kind}.stop`,
        targetType: 'device',
        target: `camera:${entry.sipId}:${entry.gbId}`,
        result: 'ok',
      });
      return streamView(entry, true);
    },
    /** Whether the caller may watch a stream (the media routes ask before serving its HLS). */
    async canView(auth: AuthContext, streamId: string): Promise<boolean> {
      const entry = streams.get(streamId);
      return entry !== undefined && auth.permissions.has('video.view') && (await reaches(auth, entry));
    },
    /** The media server stopped a stream nobody watched: the camera is told with BYE. */
    async idle(streamId: string): Promise<void> {
      streams.delete(streamId);
      await deps.sip()?.bye(streamId);
    },

    /** The sweep: cameras with a registration run out or MISSED_KEEPALIVES keepalives missed go inactive. */
    async sweep(): Promise<number> {
      const at = now();
      const keepaliveMs = (deps.settings?.keepaliveSeconds ?? 60) * 1000;
      const sipIds = await repository.sweepInactive(at, new Date(at.getTime() - MISSED_KEEPALIVES * keepaliveMs));
      if (sipIds.length > 0) {
        await endStreamsOf(sipIds);
        for (const sipId of sipIds) deps.sip()?.forget(sipId);
      }
      return sipIds.length;
    },

    // The platform administrator's grant (spec 02: the video service is enabled by the administrator).
    async grants(auth: AuthContext, query: { page: number; size: number; name?: string }): Promise<VideoGrantList> {
      if (auth.roleKey !== 'platform_admin') throw new ApiError(Code.NO_PERMISSION);
      const { rows, total } = await repository.grants(query.page, query.size, query.name);
      return {
        infos: rows.map((r) => ({
          companyId: r.companyId,
          companyName: r.companyName,
          granted: r.grantedAt !== null,
          grantedAt: iso(r.grantedAt),
        })),
        total,
      };
    },
    async setGrant(auth: AuthContext, companyId: number, granted: boolean): Promise<VideoGrant> {
      if (auth.roleKey !== 'platform_admin') throw new ApiError(Code.NO_PERMISSION);
      const companyName = await repository.companyName(companyId);
      if (companyName === undefined) throw new ApiError(Code.NOT_FOUND);
      await repository.setGrant(companyId, granted, auth.userId);
      await deps.log.record(auth, {
        action: granted ? 'video.grant' : 'video.revoke',
        targetType: 'device',
        target: `company:${companyId}`,
        result: 'ok',
      });
      return { companyId, companyName, granted, grantedAt: granted ? now().toISOString() : null };
    },
    /** Whether the platform administrator granted the video service to the company (the application centre asks). */
    isGranted(companyId: number): Promise<boolean> {
      return repository.isGranted(companyId);
    },

    /** Shutdown: every stream's receiver (the SIP server sends the BYEs as it closes). */
    async close(): Promise<void> {
      await Promise.all([...streams.keys()].map((id) => media.close(id).catch(() => undefined)));
      streams.clear();
    },
  };
}

export type VideoService = ReturnType<typeof createVideoService>;
