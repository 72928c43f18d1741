import { Code } from '@sunward/contracts/codes';
import type { VideoStream } from '@sunward/contracts/video';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Radio, Select, Space, Tag, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import type { PageProps } from '../../app/page-props';
import { useSession } from '../../app/session';
import { PageTitle } from '../../components/PageTitle';
import { ApiCallError, refusalCode, refusalMessage } from '../../lib/api-client';
import { registerTexts } from '../../lib/feature-texts';
import {
  fetchChannels,
  fetchDevice,
  fetchDevices,
  fetchSpaces,
  fetchStream,
  NOT_ENABLED_CODES,
  startLive,
  startPlayback,
  stopStream,
  videoKeys,
} from './api';
import type { HlsPlayback } from './hls-player';
import { VideoNotEnabled } from './VideoNotEnabled';
import { videoTexts } from './video-texts';

registerTexts(videoTexts);

/** How long a stream may stay "starting" before the player gives up (INVITE, camera, first HLS segment). */
const START_TIMEOUT_MS = 30_000;

type Phase = { kind: 'idle' } | { kind: 'starting' } | { kind: 'playing' } | { kind: 'stopped' } | { kind: 'failed'; text: string };

/** A select with its visible label above it (the player's space, camera and channel pickers). */
function LabelledSelect<V extends string | number>(props: {
  id: string;
  label: string;
  minWidth: number;
  value: V | undefined;
  onChange: (value: V) => void;
  options: { value: V; label: string }[];
}) {
  return (
    <Space direction="vertical" size={2}>
      <label htmlFor={props.id}>{props.label}</label>
      <Select<V> id={props.id} style={{ minWidth: props.minWidth }} value={props.value} onChange={props.onChange} options={props.options} />
    </Space>
  );
}

/** The built-in media adapter could not run ffmpeg (the refusal's data names the reason: media/media-error.ts). */
function needsFfmpeg(error: unknown): boolean {
  if (!(error instanceof ApiCallError) || error.code !== Code.VIDEO_MEDIA_FAILED) return false;
  const data = error.data;
  return typeof data === 'object' && data !== null && 'reason' in data && data.reason === 'ffmpeg-missing';
}

/** A datetime-local value (the browser's zone) for `ms`. */
function localInput(ms: number): string {
  const d = new Date(ms - new Date(ms).getTimezoneOffset() * 60_000);
  return d.toISOString().slice(0, 16);
}

/**
 * The player (issue 23, spec: "video and playback are started and shut down"): a camera's channel live, or a
 * recorded period played back; Start asks the platform to INVITE the camera, the page waits ("starting") until the
 * media server has a playable HLS playlist, then plays it with hls.js (loaded here only); Stop sends BYE.
 */
export function VideoPlayerPage({ route }: PageProps) {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const deviceId = Number(params.get('device')) || undefined;
  const channelParam = params.get('channel') ?? undefined;
  const spaces = useQuery({ queryKey: videoKeys.spaces, queryFn: fetchSpaces, retry: false });
  const device = useQuery({
    queryKey: videoKeys.device(deviceId ?? 0),
    queryFn: () => fetchDevice(deviceId ?? 0),
    enabled: deviceId !== undefined,
    retry: false,
  });
  const [chosenSpace, setChosenSpace] = useState<number | undefined>();
  const spaceId = chosenSpace ?? device.data?.spaceId ?? spaces.data?.infos[0]?.id;
  const devices = useQuery({
    queryKey: videoKeys.devices(spaceId ?? 0),
    queryFn: () => fetchDevices(spaceId ?? 0),
    enabled: spaceId !== undefined,
    retry: false,
  });
  const channels = useQuery({
    queryKey: videoKeys.channels(deviceId ?? 0),
    queryFn: () => fetchChannels(deviceId ?? 0),
    enabled: deviceId !== undefined,
    retry: false,
  });
  const gbId = channelParam ?? channels.data?.infos[0]?.gbId;
  const channel = channels.data?.infos.find((c) => c.gbId === gbId);
  // Playback is the company's (video.control); a customer watches their cameras live only.
  const playbackAllowed = useSession().has('video.control');
  const [mode, setMode] = useState<'live' | 'playback'>('live');
  const [from, setFrom] = useState(() => localInput(Date.now() - 3600_000));
  const [to, setTo] = useState(() => localInput(Date.now()));
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const videoRef = useRef<HTMLVideoElement>(null);
  const stream = useRef<VideoStream | undefined>(undefined);
  const playback = useRef<HlsPlayback | undefined>(undefined);
  const attempt = useRef(0);

  const release = () => {
    playback.current?.destroy();
    playback.current = undefined;
    const current = stream.current;
    stream.current = undefined;
    if (current) void stopStream(current.streamId).catch(() => undefined);
  };
  // Leaving the page stops the stream (the server would stop it after MEDIA_IDLE_MINUTES anyway).
  useEffect(
    () => () => {
      playback.current?.destroy();
      const current = stream.current;
      if (current) void stopStream(current.streamId).catch(() => undefined);
    },
    [],
  );

  const failed = (text: string) => {
    release();
    setPhase({ kind: 'failed', text });
  };

  const start = async () => {
    if (deviceId === undefined || !gbId) return;
    release();
    const mine = ++attempt.current;
    setPhase({ kind: 'starting' });
    try {
      let current =
        mode === 'live'
          ? await startLive(deviceId, gbId)
          : await startPlayback(deviceId, gbId, { start: new Date(from).toISOString(), end: new Date(to).toISOString() });
      stream.current = current;
      const deadline = Date.now() + START_TIMEOUT_MS;
      while (current.state === 'starting') {
        if (attempt.current !== mine) return;
        if (Date.now() > deadline) return failed(t('video.player.timeout'));
        await new Promise((resolve) => setTimeout(resolve, 1000));
        current = await fetchStream(current.streamId);
      }
      if (attempt.current !== mine) return;
      if (current.state !== 'playing' || !videoRef.current) return failed(t('video.player.failed'));
      const { playHls } = await import('./hls-player');
      playback.current = await playHls(videoRef.current, current.playUrl, () => failed(t('video.player.failed')));
      setPhase({ kind: 'playing' });
    } catch (error) {
      if (attempt.current !== mine) return;
      failed(
        error instanceof Error && error.message === 'no-mse'
          ? t('video.player.noMse')
          : needsFfmpeg(error)
            ? t('video.player.needsFfmpeg')
            : (refusalMessage(error) ?? t('video.player.failed')),
      );
    }
  };

  const stop = () => {
    attempt.current += 1;
    release();
    if (videoRef.current) videoRef.current.removeAttribute('src');
    setPhase({ kind: 'stopped' });
  };

  const code = refusalCode(spaces.error);
  if (code !== undefined && NOT_ENABLED_CODES.includes(code)) return <VideoNotEnabled route={route} />;
  const busy = phase.kind === 'starting' || phase.kind === 'playing';
  const select = (next: Record<string, string | undefined>) => {
    stop();
    setPhase({ kind: 'idle' });
    setParams(Object.fromEntries(Object.entries(next).filter((e): e is [string, string] => e[1] !== undefined)));
  };

  return (
    <Card className="sw-page-card" data-testid="video-player-page">
      <PageTitle route={route} spaced />
      <Space wrap style={{ marginBottom: 16 }} align="end">
        <LabelledSelect
          id="video-player-space"
          label={t('video.device.space')}
          minWidth={180}
          value={spaceId}
          onChange={(value: number) => {
            setChosenSpace(value);
            select({});
          }}
          options={(spaces.data?.infos ?? []).map((s) => ({ value: s.id, label: s.name }))}
        />
        <LabelledSelect
          id="video-player-device"
          label={t('video.player.device')}
          minWidth={200}
          value={deviceId}
          onChange={(value: number) => select({ device: String(value) })}
          options={(devices.data?.infos ?? []).map((d) => ({ value: d.id, label: `${d.name} (${t(`video.state.${d.state}`)})` }))}
        />
        <LabelledSelect
          id="video-player-channel"
          label={t('video.player.channel')}
          minWidth={200}
          value={gbId}
          onChange={(value: string) => select({ device: deviceId === undefined ? undefined : String(deviceId), channel: value })}
          options={(channels.data?.infos ?? []).map((c) => ({ value: c.gbId, label: `${c.name} (${c.gbId})` }))}
        />
        {playbackAllowed && (
          <Radio.Group
            aria-label={t('video.player.mode')}
            value={mode}
            disabled={busy}
            onChange={(e) => setMode(e.target.value as 'live' | 'playback')}
            optionType="button"
            options={[
              { value: 'live', label: t('video.player.live') },
              { value: 'playback', label: t('video.player.playback') },
            ]}
          />
        )}
      </Space>
      {mode === 'playback' && (
        <fieldset style={{ border: 0, padding: 0, margin: '0 0 16px' }}>
          <legend style={{ fontSize: 'inherit', marginBottom: 4 }}>{t('video.player.range')}</legend>
          <Space wrap>
            <input
              type="datetime-local"
              aria-label={t('video.player.rangeStart')}
              value={from}
              max={to}
              onChange={(e) => setFrom(e.target.value)}
              disabled={busy}
            />
            <span aria-hidden>–</span>
            <input
              type="datetime-local"
              aria-label={t('video.player.rangeEnd')}
              value={to}
              min={from}
              onChange={(e) => setTo(e.target.value)}
              disabled={busy}
            />
          </Space>
        </fieldset>
      )}
      <Space style={{ marginBottom: 16 }}>
        <Button type="primary" disabled={busy || deviceId === undefined || !gbId} onClick={() => void start()} data-testid="video-start">
          {t('video.player.start')}
        </Button>
        <Button disabled={!busy} onClick={stop} data-testid="video-stop">
          {t('video.player.stop')}
        </Button>
        <span role="status" aria-live="polite" data-testid="video-phase">
          {phase.kind === 'starting' && <Tag color="processing">{t('video.player.starting')}</Tag>}
          {phase.kind === 'playing' && <Tag color="success">{t('video.player.playing')}</Tag>}
          {phase.kind === 'stopped' && <Tag>{t('video.player.stopped')}</Tag>}
        </span>
      </Space>
      {phase.kind === 'failed' && (
        <Alert type="error" showIcon message={phase.text} style={{ marginBottom: 16 }} data-testid="video-error" />
      )}
      {phase.kind === 'idle' && <Typography.Paragraph type="secondary">{t('video.player.pick')}</Typography.Paragraph>}
      <video
        ref={videoRef}
        data-testid="video-element"
        aria-label={t('video.player.video', { channel: channel?.name ?? gbId ?? '' })}
        muted
        playsInline
        controls
        style={{ width: '100%', maxWidth: 960, aspectRatio: '16 / 9', background: '#000', display: 'block' }}
      />
    </Card>
  );
}
