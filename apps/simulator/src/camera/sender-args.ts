/**
 * The simulated camera's video: ffmpeg's test picture encoded as H.264 (baseline, a keyframe every second, so
 * 1-second HLS segments can be cut without re-encoding) in MPEG-TS over RTP (payload type 33) to the address
 * the INVITE's SDP named. Real GB28181 cameras send MPEG-PS (payload 96); the built-in media adapter takes both.
 */
export interface SenderTarget {
  ip: string;
  port: number;
  /** The SDP's y= line (10 digits), the SSRC the receiver expects. */
  ssrc: string;
  kind: 'live' | 'playback';
}

export const FRAME_RATE = 25;

export function senderArguments(target: SenderTarget): string[] {
  // The picture tells live (moving test pattern) from playback (colour bars with a moving square) at a glance.
  const source = target.kind === 'live' ? `testsrc=size=640x360:rate=${FRAME_RATE}` : `testsrc2=size=640x360:rate=${FRAME_RATE}`;
  const ssrc = Number(target.ssrc) >>> 0;
  return [
    '-hide_banner',
    '-loglevel',
    'error',
    '-nostdin',
    '-re',
    '-f',
    'lavfi',
    '-i',
    source,
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-tune',
    'zerolatency',
    '-profile:v',
    'baseline',
    '-pix_fmt',
    'yuv420p',
    '-g',
    String(FRAME_RATE),
    '-keyint_min',
    String(FRAME_RATE),
    '-sc_threshold',
    '0',
    '-b:v',
    '600k',
    '-an',
    '-f',
    'rtp_mpegts',
    // ffmpeg's option is a signed 32-bit value; GB28181 SSRCs (at most 1999999999) fit.
    '-rtp_muxer_options',
    `ssrc=${ssrc | 0}`,
    `rtp://${target.ip.includes(':') ? `[${target.ip}]` : target.ip}:${target.port}?pkt_size=1328`,
  ];
}
