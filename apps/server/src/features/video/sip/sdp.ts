import type { MediaReceiver } from '../media/media-server.js';

/**
 * The SDP offers of GB28181 INVITEs (GB/T 28181-2016 §9.2, annex F): the platform receives (recvonly) RTP carrying
 * MPEG-PS (96) or H.264 (98) at the media server's address; `s=Play` with `t=0 0` for live, `s=Playback` with the
 * recorded range as Unix seconds and `u=<channel>:0` for playback; `y=` is the SSRC the media server expects.
 */
export function inviteSdp(options: {
  serverId: string;
  channelId: string;
  receiver: MediaReceiver;
  kind: 'live' | 'playback';
  start?: Date;
  end?: Date;
}): string {
  const { receiver } = options;
  const playback = options.kind === 'playback';
  const seconds = (d: Date | undefined) => Math.floor((d?.getTime() ?? 0) / 1000);
  const lines = [
    'v=0',
    `o=${options.serverId} 0 0 IN IP4 ${receiver.ip}`,
    `s=${playback ? 'Playback' : 'Play'}`,
    ...(playback ? [`u=${options.channelId}:0`] : []),
    `c=IN IP4 ${receiver.ip}`,
    playback ? `t=${seconds(options.start)} ${seconds(options.end)}` : 't=0 0',
    `m=video ${receiver.port} RTP/AVP 96 98 97`,
    'a=recvonly',
    'a=rtpmap:96 PS/90000',
    'a=rtpmap:98 H264/90000',
    'a=rtpmap:97 MPEG4/90000',
    `y=${receiver.ssrc}`,
  ];
  return `${lines.join('\r\n')}\r\n`;
}

/** What a camera's answer says of its sending side (lenient: missing lines are undefined). */
export function parseSdpAnswer(text: string): {
  ip: string | undefined;
  port: number | undefined;
  ssrc: string | undefined;
  session: string | undefined;
} {
  const line = (prefix: string) =>
    text
      .split(/\r?\n/)
      .find((l) => l.startsWith(prefix))
      ?.slice(prefix.length)
      .trim();
  const c = line('c=');
  const m = line('m=');
  const port = m ? Number(/^\w+\s+(\d{1,5})/.exec(m)?.[1]) : Number.NaN;
  return {
    ip: c ? /IN\s+IP[46]\s+(\S+)/.exec(c)?.[1] : undefined,
    port: Number.isInteger(port) && port > 0 && port < 65536 ? port : undefined,
    ssrc: line('y='),
    session: line('s='),
  };
}
