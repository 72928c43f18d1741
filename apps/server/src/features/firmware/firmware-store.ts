import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Where firmware images are kept: put returns a key, get and remove take it. The file system under
 * DATA_DIR/firmware is one implementation; an object store can take its place behind the same interface.
 */
export interface FirmwareStore {
  put(bytes: Buffer, extension: string): Promise<string>;
  get(key: string): Promise<Buffer | undefined>;
  remove(key: string): Promise<void>;
}

const KEY = /^[a-f0-9]{32}\.(bin|hex)$/;
const TEMP_SUFFIX = '.part';

/**
 * Images as files under `dir`, named by random keys. A write goes to a temporary name and is renamed
 * into place, so a failed or refused upload never leaves a partial image under a real key; temporary
 * files left by a crash are swept when the store opens.
 */
export async function createFileFirmwareStore(dir: string): Promise<FirmwareStore> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  for (const name of await readdir(dir)) if (name.endsWith(TEMP_SUFFIX)) await rm(join(dir, name), { force: true });
  const pathOf = (key: string) => {
    if (!KEY.test(key)) throw new Error(`not a firmware storage key: ${key}`);
    return join(dir, key);
  };
  return {
    async put(bytes, extension) {
      const key = `${randomBytes(16).toString('hex')}.${extension}`;
      const temp = `${pathOf(key)}${TEMP_SUFFIX}`;
      try {
        await writeFile(temp, bytes, { flag: 'wx', mode: 0o600 });
        await rename(temp, pathOf(key));
      } catch (error) {
        await rm(temp, { force: true });
        throw error;
      }
      return key;
    },
    async get(key) {
      if (!KEY.test(key)) return undefined;
      return readFile(pathOf(key)).catch(() => undefined);
    },
    async remove(key) {
      if (KEY.test(key)) await rm(pathOf(key), { force: true });
    },
  };
}
