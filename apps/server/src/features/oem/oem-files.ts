import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';

export interface ImageInfo {
  type: 'png' | 'jpg';
  width: number;
  height: number;
}

/** A PNG or JPEG judged by its bytes (signature and header), never by its name; its pixel size. SVG and the rest: undefined. */
export function sniffImage(bytes: Uint8Array): ImageInfo | undefined {
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length >= 24 && png.every((b, i) => bytes[i] === b)) {
    const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (view.toString('latin1', 12, 16) !== 'IHDR') return undefined;
    return { type: 'png', width: view.readUInt32BE(16), height: view.readUInt32BE(20) };
  }
  if (bytes.length > 4 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) {
    const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    let at = 2;
    while (at + 9 < view.length) {
      if (view[at] !== 0xff) return undefined;
      const marker = view[at + 1] ?? 0;
      if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
        at += 2;
        continue;
      }
      const length = view.readUInt16BE(at + 2);
      // Start of frame (baseline, progressive...), not DHT (C4), JPG (C8) or DAC (CC).
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc)
        return { type: 'jpg', height: view.readUInt16BE(at + 5), width: view.readUInt16BE(at + 7) };
      at += 2 + length;
    }
  }
  return undefined;
}

/**
 * Whether a stored file is an Android package: a ZIP whose central directory holds AndroidManifest.xml
 * (a renamed ZIP of anything else has none). Reads the end of the file and the directory only.
 */
export async function isApk(path: string): Promise<boolean> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    if (size < 22) return false;
    const head = Buffer.alloc(4);
    await handle.read(head, 0, 4, 0);
    if (head.readUInt32LE(0) !== 0x04034b50) return false;
    const tailSize = Math.min(size, 65_557);
    const tail = Buffer.alloc(tailSize);
    await handle.read(tail, 0, tailSize, size - tailSize);
    const eocd = tail.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
    if (eocd < 0 || eocd + 22 > tail.length) return false;
    const entries = tail.readUInt16LE(eocd + 10);
    const dirSize = tail.readUInt32LE(eocd + 12);
    const dirOffset = tail.readUInt32LE(eocd + 16);
    if (dirOffset + dirSize > size || dirSize > 64 * 1024 * 1024) return false;
    const dir = Buffer.alloc(dirSize);
    await handle.read(dir, 0, dirSize, dirOffset);
    let at = 0;
    for (let i = 0; i < entries && at + 46 <= dir.length; i++) {
      if (dir.readUInt32LE(at) !== 0x02014b50) return false;
      const nameLength = dir.readUInt16LE(at + 28);
      const extra = dir.readUInt16LE(at + 30);
      const comment = dir.readUInt16LE(at + 32);
      if (dir.toString('utf8', at + 46, at + 46 + nameLength) === 'AndroidManifest.xml') return true;
      at += 46 + nameLength + extra + comment;
    }
    return false;
  } finally {
    await handle.close();
  }
}

const IMAGE_NAME = /^[a-f0-9]{32}\.(png|jpg)$/;
const APK_NAME = /^[a-f0-9]{32}\.apk$/;

/** OEM files under DATA_DIR/oem (images) and DATA_DIR/oem/apk, named at random: pages fetch them without a token. */
export function createOemFileStore(dataDir: string) {
  const dir = join(dataDir, 'oem');
  const apkDir = join(dir, 'apk');
  return {
    async saveImage(bytes: Buffer, type: 'png' | 'jpg'): Promise<string> {
      const name = `${randomBytes(16).toString('hex')}.${type}`;
      await mkdir(dir, { recursive: true });
      await writeFile(join(dir, name), bytes);
      return name;
    },
    async readImage(name: string): Promise<{ bytes: Buffer; mime: string } | undefined> {
      if (!IMAGE_NAME.test(name)) return undefined;
      const bytes = await readFile(join(dir, name)).catch(() => undefined);
      return bytes ? { bytes, mime: name.endsWith('.png') ? 'image/png' : 'image/jpeg' } : undefined;
    },
    async removeImage(name: string): Promise<void> {
      if (IMAGE_NAME.test(name)) await rm(join(dir, name), { force: true });
    },
    /**
     * Streams an upload to a temporary file, stopping past `maxBytes`: its name, size and SHA-256, or
     * 'tooLarge' (the partial file removed).
     */
    async receiveApk(
      stream: Readable,
      maxBytes: number,
    ): Promise<{ name: string; path: string; size: number; sha256: string } | 'tooLarge'> {
      await mkdir(apkDir, { recursive: true });
      const name = `${randomBytes(16).toString('hex')}.apk`;
      const temp = join(apkDir, `${name}.part`);
      const hash = createHash('sha256');
      let size = 0;
      const out = createWriteStream(temp);
      try {
        for await (const chunk of stream) {
          const bytes = chunk as Buffer;
          size += bytes.length;
          if (size > maxBytes) {
            out.destroy();
            stream.resume();
            await rm(temp, { force: true });
            return 'tooLarge';
          }
          hash.update(bytes);
          if (!out.write(bytes)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
        }
        await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
      } catch (error) {
        out.destroy();
        await rm(temp, { force: true });
        throw error;
      }
      return { name, path: temp, size, sha256: hash.digest('hex') };
    },
    async keepApk(received: { name: string; path: string }): Promise<void> {
      await rename(received.path, join(apkDir, received.name));
    },
    async dropTemp(path: string): Promise<void> {
      await rm(path, { force: true });
    },
    async removeApk(name: string): Promise<void> {
      if (APK_NAME.test(name)) await rm(join(apkDir, name), { force: true });
    },
    /** The APK's size and a reader of a byte range (resumable downloads). */
    async apk(name: string): Promise<{ size: number; read(start: number, end: number): Readable } | undefined> {
      if (!APK_NAME.test(name)) return undefined;
      const path = join(apkDir, name);
      const info = await stat(path).catch(() => undefined);
      if (!info) return undefined;
      return { size: info.size, read: (start, end) => createReadStream(path, { start, end }) };
    },
  };
}

export type OemFileStore = ReturnType<typeof createOemFileStore>;
