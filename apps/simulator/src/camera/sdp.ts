/**
 * The SDP of a GB28181 INVITE (the platform's offer) and the camera's answer. GB28181 adds `y=` (the SSRC,
 * 10 digits) and `f=` (media format) to plain SDP; `s=Play` is live, `s=Playback` a recording between t='s times.
 */
export interface SdpOffer {
  ip: string;
  port: number;
  payloadTypes: number[];
  ssrc: string | undefined;
  kind: 'live' | 'playback';
  /** Playback: the range asked (Unix seconds), from the t= line. */
  start?: number;
  end?: number;
}

export function parseOffer(sdp: string): SdpOffer | undefined {
  let sessionIp: string | undefined;
  let mediaIp: string | undefined;
  let port: number | undefined;
  let payloadTypes: number[] = [];
  let ssrc: string | undefined;
  let kind: SdpOffer['kind'] = 'live';
  let start: number | undefined;
  let end: number | undefined;
  let inVideo = false;
  for (const raw of sdp.split(/\r?\n/)) {
    const line = raw.trim();
    const type = line[0];
    const value = line.slice(2);
    if (line[1] !== '=') continue;
    if (type === 's') kind = /^playback$/i.test(value.trim()) ? 'playback' : 'live';
    else if (type === 'c') {
      const ip = /^IN IP[46] (\S+)/.exec(value)?.[1];
      if (inVideo) mediaIp = ip;
      else sessionIp = ip;
    } else if (type === 't') {
      const [from, to] = value.split(/\s+/).map(Number);
      if (from && to) [start, end] = [from, to];
    } else if (type === 'm') {
      const match = /^video (\d+) \S+ ?([\d ]*)$/.exec(value);
      inVideo = Boolean(match);
      if (match) {
        port = Number(match[1]);
        payloadTypes = (match[2] ?? '').split(/\s+/).filter(Boolean).map(Number);
      }
    } else if (type === 'y') ssrc = value.trim();
  }
  const ip = mediaIp ?? sessionIp;
  if (!ip || !port || port > 65535) return undefined;
  return { ip, port, payloadTypes, ssrc, kind, start, end };
}

/** The camera's answer: it sends MPEG-TS (payload 33) from `localIp`, with the SSRC it was given. */
export function buildAnswer(options: { channelId: string; localIp: string; localPort: number; offer: SdpOffer }): string {
  const { offer } = options;
  return [
    'v=0',
    `o=${options.channelId} 0 0 IN IP4 ${options.localIp}`,
    `s=${offer.kind === 'live' ? 'Play' : 'Playback'}`,
    `c=IN IP4 ${options.localIp}`,
    `t=${offer.start ?? 0} ${offer.end ?? 0}`,
    `m=video ${options.localPort} RTP/AVP 33`,
    'a=sendonly',
    'a=rtpmap:33 MP2T/90000',
    ...(offer.ssrc ? [`y=${offer.ssrc}`] : []),
    '',
  ].join('\r\n');
}
