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
 * bytes. Closed, a socket asking is parked (first come, first served); when the budget frees room, parked
 * sockets go back to reading a few per event-loop turn (each may bring up to 64 KB), so that reopening does
 * not pull a chunk from every connection at once.
 */
export interface ReadGate {
  /** Puts a broker connection behind the gate (before the broker reads from it). */
  attach(socket: Readable): void;
  /** The budget changed (bytes released, reports let in): wakes parked sockets if the gate is open. */
  changed(): void;
  /** Sockets waiting to read. */
  parked(): number;
}

export function createReadGate(options: {
  /** Whether sockets may read now. */
  isOpen: () => boolean;
  /** Parked sockets resumed per event-loop turn. */
  resumePerTurn: number;
}): ReadGate {
  // Insertion order: the longest parked reads first.
  const parked = new Map<Readable, (size: number) => void>();
  let scheduled = false;

  function pump() {
    scheduled = false;
    let resumed = 0;
    for (const [socket, read] of parked) {
      if (resumed >= options.resumePerTurn || !options.isOpen()) break;
      parked.delete(socket);
      resumed++;
      if (!socket.destroyed) read(socket.readableHighWaterMark);
    }
    // The next few in the next turn: the ones resumed now read their bytes in between.
    if (parked.size > 0 && options.isOpen()) schedule();
  }

  function schedule() {
    if (scheduled) return;
    scheduled = true;
    setImmediate(pump);
  }

  return {
    attach(socket) {
      const original = socket._read;
      socket._read = function gatedRead(this: Readable, size: number) {
        if (parked.size === 0 && options.isOpen()) {
          original.call(this, size);
          return;
        }
        parked.set(this, (n) => original.call(this, n));
      };
      socket.once('close', () => parked.delete(socket));
    },
    changed() {
      if (parked.size > 0 && options.isOpen()) schedule();
    },
    parked: () => parked.size,
  };
}
