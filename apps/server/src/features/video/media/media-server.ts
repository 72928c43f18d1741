/**
 * Where a camera's video goes (issue 23): the SIP side (features/video/sip) asks a media server for a receiving
 * port, puts it in the INVITE's SDP, and the browser plays what the media server makes of it. Adapters: the
 * built-in one (ffmpeg turning the RTP stream into HLS under DATA_DIR) and ZLMediaKit (its HTTP API), chosen by
 * the MEDIA_SERVER setting.
 */
export type StreamKind = 'live' | 'playback';

/** Where the camera sends its RTP for one stream. */
export interface MediaReceiver {
  streamId: string;
  /** The address the camera should send to (the SDP's c= line). */
  ip: string;
  /** The UDP port (the SDP's m= line). */
  port: number;
  /** GB28181's y= line: 0 + 9 digits for live, 1 + 9 digits for playback. */
  ssrc: string;
}

export interface MediaServer {
  readonly name: string;
  /** Prepares to receive one stream; the answer goes into the INVITE's SDP. */
  openReceiver(streamId: string, kind: StreamKind): Promise<MediaReceiver>;
  /** The URL the browser plays (an HLS playlist), relative to the console's origin or absolute. */
  playUrl(streamId: string): string;
  /** Whether the stream has produced something playable yet (the console shows "starting" until then). */
  isReady(streamId: string): Promise<boolean>;
  /** Stops receiving one stream and frees what it used. Closing an unknown stream does nothing. */
  close(streamId: string): Promise<void>;
  /** Stops every stream (server shutdown). */
  closeAll(): Promise<void>;
}
