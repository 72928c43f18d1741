/**
 * Why a media server cannot take a stream. The video service turns it into its refusal; `reason` is stable
 * (the console words it: "video needs ffmpeg on the server"), `message` is for the log.
 */
export type MediaUnavailableReason = 'ffmpeg-missing' | 'media-server-unreachable' | 'media-server-refused';

export class MediaUnavailableError extends Error {
  constructor(
    readonly reason: MediaUnavailableReason,
    message: string,
  ) {
    super(message);
    this.name = 'MediaUnavailableError';
  }
}
