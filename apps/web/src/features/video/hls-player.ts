import { storedSession } from '../../lib/storage';

/** What the player page needs of hls.js, so the library loads only when a stream starts (first-load budget). */
export interface HlsPlayback {
  destroy(): void;
}

/**
 * Plays an HLS playlist in `video`: hls.js over Media Source Extensions, with the console's bearer token on each
 * request to the console's own origin (the built-in media route checks it); an external media server's absolute
 * URL is fetched without it. Safari plays HLS natively. Rejects with 'no-mse' when neither can.
 */
export async function playHls(video: HTMLVideoElement, url: string, onFatal: (detail: string) => void): Promise<HlsPlayback> {
  const { default: Hls } = await import('hls.js');
  const sameOrigin = new URL(url, window.location.href).origin === window.location.origin;
  if (Hls.isSupported()) {
    const hls = new Hls({
      lowLatencyMode: false,
      // The console's Content-Security-Policy allows no blob: workers; transmuxing on the main thread is cheap for one camera.
      enableWorker: false,
      liveSyncDurationCount: 2,
      manifestLoadingMaxRetry: 6,
      xhrSetup: (xhr, requestUrl) => {
        const token = storedSession.read()?.access_token;
        if (token && new URL(requestUrl, window.location.href).origin === window.location.origin)
          xhr.setRequestHeader('authorization', `Bearer ${token}`);
      },
    });
    hls.on(Hls.Events.ERROR, (_event, data) => {
      if (data.fatal) onFatal(data.details);
    });
    hls.loadSource(url);
    hls.attachMedia(video);
    hls.on(Hls.Events.MANIFEST_PARSED, () => void video.play().catch(() => undefined));
    return hls;
  }
  if (!sameOrigin && video.canPlayType('application/vnd.apple.mpegurl')) {
    video.src = url;
    void video.play().catch(() => undefined);
    return { destroy: () => video.removeAttribute('src') };
  }
  throw new Error('no-mse');
}
