import { join } from 'node:path';
import type { RtpContainer } from './rtp.js';

/** The HLS the built-in adapter writes: short segments in a rolling playlist (live latency about 3 segments). */
export const HLS_SEGMENT_SECONDS = 1;
export const HLS_LIST_SIZE = 6;
export const PLAYLIST = 'index.m3u8';
/** The segment names ffmpeg writes, the only names the media route serves besides the playlist. */
export const SEGMENT_PATTERN = /^seg\d{1,9}\.ts$/;

/**
 * ffmpeg's command line for one stream: the RTP payload arrives on stdin (the adapter strips the RTP header);
 * the video is copied, not re-encoded (the camera's H.264 is what the browser decodes), into HLS under `dir`.
 */
export function hlsArguments(options: { container: RtpContainer; dir: string }): string[] {
  return [
    '-hide_banner',
    '-loglevel',
    'error',
    // Cameras' timestamps start anywhere; let ffmpeg make them continuous from 0.
    '-fflags',
    '+genpts+discardcorrupt',
    // A second of probing is enough for one H.264 track and starts the playlist sooner.
    '-analyzeduration',
    '1000000',
    '-probesize',
    '1000000',
    '-f',
    options.container === 'mpegts' ? 'mpegts' : 'mpeg',
    '-i',
    'pipe:0',
    '-map',
    '0:v:0',
    '-c:v',
    'copy',
    '-an',
    '-f',
    'hls',
    '-hls_time',
    String(HLS_SEGMENT_SECONDS),
    '-hls_list_size',
    String(HLS_LIST_SIZE),
    '-hls_flags',
    'delete_segments+independent_segments+omit_endlist',
    '-hls_segment_filename',
    join(options.dir, 'seg%05d.ts'),
    join(options.dir, PLAYLIST),
  ];
}

/** Whether a playlist has at least one segment (the stream is playable). */
export function playlistHasSegment(text: string): boolean {
  return text.split('\n').some((line) => SEGMENT_PATTERN.test(line.trim()));
}
