import type { Duplex } from 'node:stream';

/**
 * The largest MQTT packet a gateway may send: a 4 MB report (report-decoder.ts REPORT_LIMITS) plus its topic
 * and headers. aedes' parser (mqtt-packet) would otherwise buffer a packet of up to 256 MB, the protocol's
 * limit, before anyone looks at it; a few such connections, even before sign-in, would take the server's memory.
 */
export const MAX_MQTT_PACKET_BYTES = 4 * 1024 * 1024 + 64 * 1024;

/**
 * Follows packet boundaries through a byte stream, reading only each fixed header (type byte and the
 * remaining length, 1–4 bytes of 7 bits) and skipping the body. Returns the first packet's declared size
 * that exceeds the limit, or a malformed length; otherwise undefined.
 */
export function createFrameSizeTracker(maxBytes: number) {
  let skip = 0; // body bytes of the current packet still to pass
  let header: 'type' | 'length' = 'type';
  let length = 0;
  let multiplier = 1;
  let lengthBytes = 0;
  return {
    /** Feeds the next chunk; returns a reason when the connection must be closed. */
    feed(chunk: Uint8Array): string | undefined {
      let at = 0;
      while (at < chunk.length) {
        if (skip > 0) {
          const step = Math.min(skip, chunk.length - at);
          skip -= step;
          at += step;
          continue;
        }
        const byte = chunk[at++] ?? 0;
        if (header === 'type') {
          header = 'length';
          length = 0;
          multiplier = 1;
          lengthBytes = 0;
          continue;
        }
        length += (byte & 0x7f) * multiplier;
        multiplier *= 128;
        lengthBytes += 1;
        if (length > maxBytes) return `packet of ${length} bytes or more (limit ${maxBytes})`;
        if (byte & 0x80) {
          if (lengthBytes >= 4) return 'malformed remaining length';
          continue;
        }
        header = 'type';
        skip = length;
      }
      return undefined;
    },
  };
}

/**
 * Closes a broker connection as soon as it announces a packet larger than the limit. It watches the bytes
 * the broker reads ('data' is emitted by each read), so the broker's own flow control is untouched.
 */
export function guardFrameSizes(socket: Duplex, maxBytes: number, onRefused: (reason: string) => void): void {
  const tracker = createFrameSizeTracker(maxBytes);
  const watch = (chunk: Buffer) => {
    const refused = tracker.feed(chunk);
    if (refused === undefined) return;
    socket.off('data', watch);
    onRefused(refused);
    socket.destroy();
  };
  socket.on('data', watch);
}
