import { open } from 'node:fs/promises';
import { Code } from '@sunward/contracts/codes';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ApiError } from '../../../lib/envelope.js';
import type { AuthContext } from '../../../plugins/auth.js';
import { builtinMedia } from './create-media-server.js';
import { PLAYLIST } from './ffmpeg-args.js';
import { MEDIA_URL_PREFIX, STREAM_ID_PATTERN } from './ffmpeg-media-server.js';
import type { MediaServer } from './media-server.js';

export interface MediaRoutesOptions {
  media: MediaServer;
  /** Whether the caller may watch the camera this stream comes from (the video service answers: company, app, role). */
  canView(auth: AuthContext, streamId: string): Promise<boolean>;
}

/**
 * The built-in adapter's HLS (playlist and segments) for the console's player (hls.js, bearer token on each
 * request). An external media server (ZLMediaKit) serves its own HLS, so there this answers 404.
 */
export const mediaRoutes: FastifyPluginAsyncZod<MediaRoutesOptions> = async (app, { media, canView }) => {
  const builtin = builtinMedia(media);
  app.get(
    `${MEDIA_URL_PREFIX}/:streamId/:file`,
    {
      config: { access: 'signed-in' },
      schema: {
        'x-codes': [Code.NOT_FOUND],
        tags: ['Video'],
        summary: `A live or playback stream's HLS: ${PLAYLIST} (rolling, 1-second segments) and its segNNNNN.ts; 404 for a stream that is not running or a camera the caller may not watch`,
        params: z.object({
          streamId: z.string().regex(STREAM_ID_PATTERN).describe('The stream id the start call answered'),
          file: z.string().max(32).describe(`${PLAYLIST} or a segment it names`),
        }),
      },
    },
    async (request, reply) => {
      const { streamId, file } = request.params;
      if (!builtin || !(await canView(request.requireAuth(), streamId))) throw new ApiError(Code.NOT_FOUND);
      const path = builtin.fileOf(streamId, file);
      // ffmpeg deletes old segments as the playlist rolls: one just gone is a 404 like any other.
      const handle = path ? await open(path, 'r').catch(() => undefined) : undefined;
      if (!handle) throw new ApiError(Code.NOT_FOUND);
      const playlist = file === PLAYLIST;
      reply
        .type(playlist ? 'application/vnd.apple.mpegurl' : 'video/mp2t')
        // The playlist changes every second; a segment never changes but is the viewer's alone.
        .header('cache-control', playlist ? 'no-store' : 'private, max-age=60');
      return reply.send(handle.createReadStream());
    },
  );
};
