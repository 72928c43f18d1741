/**
 * RTP as the built-in media adapter reads it (RFC 3550): the header is skipped and the payload, the camera's
 * MPEG-TS or MPEG-PS bytes, is piped to ffmpeg. Pure functions, no sockets.
 */

export interface RtpPacket {
  payloadType: number;
  sequence: number;
  timestamp: number;
  ssrc: number;
  payload: Buffer;
}

/** One RTP packet, or undefined for anything that is not one (RTCP, garbage, a truncated header). */
export function parseRtp(packet: Buffer): RtpPacket | undefined {
  if (packet.length < 12) return undefined;
  const first = packet[0] ?? 0;
  if (first >> 6 !== 2) return undefined;
  const payloadType = (packet[1] ?? 0) & 0x7f;
  // RTCP shares the port space (payload types 72-76 with the marker bit are its packet types 200-204).
  if (payloadType >= 72 && payloadType <= 76) return undefined;
  const csrcCount = first & 0x0f;
  let offset = 12 + csrcCount * 4;
  if (first & 0x10) {
    if (packet.length < offset + 4) return undefined;
    offset += 4 + packet.readUInt16BE(offset + 2) * 4;
  }
  let end = packet.length;
  if (first & 0x20) end -= packet[packet.length - 1] ?? 0;
  if (offset > end) return undefined;
  return {
    payloadType,
    sequence: packet.readUInt16BE(2),
    timestamp: packet.readUInt32BE(4),
    ssrc: packet.readUInt32BE(8),
    payload: packet.subarray(offset, end),
  };
}

/** What the camera packs into RTP: MPEG-TS (payload type 33, sync byte 0x47) or MPEG-PS (GB28181's usual, pack header 00 00 01 BA). */
export type RtpContainer = 'mpegts' | 'mpeg-ps';

/** The container of a stream from its first packets; undefined until one says (a PS stream may start mid-pack). */
export function detectContainer(packet: RtpPacket): RtpContainer | undefined {
  const p = packet.payload;
  if (packet.payloadType === 33 || (p.length >= 188 && p[0] === 0x47)) return 'mpegts';
  if (p.length >= 4 && p[0] === 0 && p[1] === 0 && p[2] === 1 && p[3] === 0xba) return 'mpeg-ps';
  return undefined;
}

/** The SSRC as GB28181 writes it in the SDP's y= line (10 decimal digits) to the number in the RTP header. */
export function ssrcNumber(y: string): number {
  return Number(y) >>> 0;
}
