import type { Readable } from 'node:stream';

/**
 * Stops reading from the broker's sockets while ingest has enough reports waiting for its byte budget
 * (byte-budget.ts): the bytes stay in the kernel, TCP's window closes and the gateways wait with their
 * reports unacknowledged, instead of the server parsing ever more of them into memory.
 *
 * aedes alone does not stop: it reads a connection's next chunk when the packets of the last one are handled,
 * but every 'readable' event also counts as one handled packet, so under load a connection's packets in flight
 * grow by one per chunk read, without bound (issue 26 part 7: 1.66 GB at 32,000 readings/s offered).
 *
 * The gate sits in each socket's `_read`, the one place a Node stream asks the operating system for more
 * bytes. It is closed while the reports waiting for the budget and the bytes read but not yet taken by the broker
 * (a connection whose earlier packets wait is not read by aedes, so what its socket read sits in its stream)
 * reach the read-ahead. Closed, a socket asking is parked (first come, first served), and the sockets still
 * reading stop (else each would bring one more 64 KB chunk). When room comes back, parked sockets go back to
 * reading a few per event-loop turn, so that reopening does not pull a chunk from every connection at once.
 */
export interface ReadGate {
  /** Puts a broker connection behind the gate (before the broker reads from it). */
  attach(socket: Readable): void;
  /** The budget changed (a report waits, bytes came back): stops or resumes reading. */
  changed(): void;
  /** Sockets waiting to read. */
  parked(): number;
  /** Bytes read from the sockets and not yet taken by the broker. */
  buffered(): number;
}

/** Node's socket internals: the libuv handle reading for the stream (net.Socket and TLSSocket both have one). */
interface SocketHandle {
  reading?: boolean;
  readStop?: () => number;
}

export function createReadGate(options: {
  /** Payload bytes parsed and waiting for the byte budget. */
  waitingBytes: () => number;
  /**
   * Sockets read while the waiting bytes and the bytes read but not yet taken by the broker stay under this:
   * a resumed socket's bytes can sit in its stream while the broker is still busy with its earlier packets.
   */
  readAheadBytes: number;
  /** Parked sockets resumed per event-loop turn. */
  resumePerTurn: number;
}): ReadGate {
  let buffered = 0;
  const isOpen = () => buffered + options.waitingBytes() < options.readAheadBytes;
  // Insertion order: the longest parked reads first.
  const parked = new Map<Readable, () => void>();
  const attached = new Map<Readable, (size: number) => void>();
  // Sockets let read since the gate last closed: the only ones that can be reading when it closes again.
  const mayRead = new Set<Readable>();
  let scheduled = false;
  let wasOpen = true;

  function pump() {
    scheduled = false;
    let resumed = 0;
    for (const [socket, read] of parked) {
      if (resumed >= options.resumePerTurn || !isOpen()) break;
      parked.delete(socket);
      resumed++;
      if (!socket.destroyed) {
        mayRead.add(socket);
        read();
      }
    }
    // The next few in the next turn: the ones resumed now read their bytes in between.
    if (parked.size > 0 && isOpen()) schedule();
  }

  function schedule() {
    if (scheduled) return;
    scheduled = true;
    setImmediate(pump);
  }

  /** Stops the sockets that are reading now; they resume from the parked list like the others. */
  function stopReading() {
    for (const socket of mayRead) {
      const original = attached.get(socket);
      if (!original || parked.has(socket)) continue;
      const handle = (socket as unknown as { _handle?: SocketHandle | null })._handle;
      if (!handle?.reading || typeof handle.readStop !== 'function') continue;
      handle.reading = false;
      handle.readStop();
      parked.set(socket, () => original.call(socket, socket.readableHighWaterMark));
    }
    mayRead.clear();
  }

  const gate: ReadGate = {
    attach(socket) {
      const original = socket._read;
      attached.set(socket, original);
      // Bytes in the stream's buffer: counted when read from the kernel, uncounted when the broker takes them.
      const push = socket.push;
      socket.push = function countedPush(this: Readable, chunk: unknown, encoding?: BufferEncoding) {
        if (chunk instanceof Uint8Array) {
          buffered += chunk.length;
          if (wasOpen && !isOpen()) gate.changed();
        }
        return push.call(this, chunk, encoding);
      };
      socket.on('data', (chunk: Buffer) => {
        buffered -= chunk.length;
        gate.changed();
      });
      socket._read = function gatedRead(this: Readable, size: number) {
        if (parked.size === 0 && isOpen()) {
          mayRead.add(this);
          original.call(this, size);
          return;
        }
        parked.set(this, () => original.call(this, size));
      };
      socket.once('close', () => {
        buffered -= socket.readableLength;
        parked.delete(socket);
        attached.delete(socket);
        mayRead.delete(socket);
        gate.changed();
      });
    },
    changed() {
      const open = isOpen();
      if (!open && wasOpen) stopReading();
      wasOpen = open;
      if (open && parked.size > 0) schedule();
    },
    parked: () => parked.size,
    buffered: () => buffered,
  };
  return gate;
}
