import { mkdirSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** A DATA_DIR the server cannot use; the message is one line naming the setting and the path. */
export class DataDirError extends Error {}

const WHY: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  ENOTDIR: 'a part of the path is a file',
  EEXIST: 'a file of that name is in the way',
};

function reason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code ?? '';
  return WHY[code] ? `${WHY[code]}, ${code}` : error instanceof Error ? error.message : String(error);
}

/** Bytes a probe writes: enough to notice a full disk before the database does. */
const PROBE_BYTES = 64 * 1024;

/**
 * Checks at start that DATA_DIR can be used (the embedded database, keys, uploads, outbox live there),
 * before anything is written into it: it exists or can be created, a file can be written and removed
 * in it, and the file system has at least `minFreeMb` free. Throws DataDirError otherwise.
 */
export function checkDataDir(dataDir: string, minFreeMb: number): void {
  const path = resolve(dataDir);
  try {
    mkdirSync(path, { recursive: true });
  } catch (error) {
    throw new DataDirError(`DATA_DIR ${path} cannot be created (${reason(error)}): set DATA_DIR to a writable directory.`);
  }
  const probe = join(path, `.write-test-${process.pid}`);
  try {
    writeFileSync(probe, Buffer.alloc(PROBE_BYTES));
  } catch (error) {
    throw new DataDirError(`DATA_DIR ${path} is not writable (${reason(error)}): set DATA_DIR to a writable directory with free space.`);
  } finally {
    try {
      rmSync(probe, { force: true });
    } catch {
      // Not there to remove (the directory could not even be searched): the write already failed.
    }
  }
  let freeMb: number;
  try {
    const stats = statfsSync(path);
    freeMb = (Number(stats.bavail) * Number(stats.bsize)) / (1024 * 1024);
  } catch {
    return; // A file system that cannot say (some network mounts): the write probe passed.
  }
  if (freeMb < minFreeMb)
    throw new DataDirError(
      `DATA_DIR ${path} has only ${Math.floor(freeMb)} MB free, below DATA_DIR_MIN_FREE_MB (${minFreeMb} MB): free space or set DATA_DIR to another disk.`,
    );
}
