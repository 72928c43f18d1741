import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export type LogoType = 'jpg' | 'png' | 'gif';

/** Spec 02 §5 company logo: jpg, jpeg, gif or png, judged by the file's signature, never by its name. */
export function sniffLogo(bytes: Uint8Array): LogoType | undefined {
  if (bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpg';
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length > 8 && png.every((b, i) => bytes[i] === b)) return 'png';
  const head = Buffer.from(bytes.subarray(0, 6)).toString('latin1');
  if (bytes.length > 6 && (head === 'GIF87a' || head === 'GIF89a')) return 'gif';
  return undefined;
}

const NAME = /^[a-f0-9]{32}\.(png|jpg|gif)$/;
const MIME: Record<LogoType, string> = { jpg: 'image/jpeg', png: 'image/png', gif: 'image/gif' };

/** Company images under DATA_DIR/company, named at random: <img> fetches them without a token, so the name is the secret. */
export function createLogoStore(dataDir: string) {
  const dir = join(dataDir, 'company');
  return {
    isName: (name: string) => NAME.test(name),
    async save(bytes: Buffer, type: LogoType): Promise<string> {
      const name = `${randomBytes(16).toString('hex')}.${type}`;
      await mkdir(dir, { recursive: true });
      await writeFile(join(dir, name), bytes);
      return `/api/v1/files/company/${name}`;
    },
    async exists(url: string): Promise<boolean> {
      const name = url.split('/').pop() ?? '';
      return (
        NAME.test(name) &&
        (await readFile(join(dir, name)).then(
          () => true,
          () => false,
        ))
      );
    },
    async read(name: string): Promise<{ bytes: Buffer; mime: string } | undefined> {
      if (!NAME.test(name)) return undefined;
      const bytes = await readFile(join(dir, name)).catch(() => undefined);
      const type = name.split('.').pop() as LogoType;
      return bytes ? { bytes, mime: MIME[type] } : undefined;
    },
  };
}

export type LogoStore = ReturnType<typeof createLogoStore>;
