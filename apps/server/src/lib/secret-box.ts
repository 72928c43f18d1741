import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/**
 * Secrets the server must read back (a bulb bridge's OAuth tokens), sealed at rest with AES-256-GCM. The key is
 * generated once into DATA_DIR/keys/secret-box.key (mode 0600), like the firmware signing key; a backup carries
 * DATA_DIR with it. Sealed text: `v1.` + base64url(iv | tag | ciphertext).
 */
export interface SecretBox {
  seal(plain: string): string;
  /** undefined when the text was not sealed with this key (or tampered with). */
  open(sealed: string): string | undefined;
}

export function secretBoxWithKey(key: Buffer): SecretBox {
  if (key.length !== 32) throw new Error('secret box key must be 32 bytes');
  return {
    seal(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return `v1.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
    },
    open(sealed) {
      if (!sealed.startsWith('v1.')) return undefined;
      const raw = Buffer.from(sealed.slice(3), 'base64url');
      if (raw.length < 28) return undefined;
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
        decipher.setAuthTag(raw.subarray(12, 28));
        return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
      } catch {
        return undefined;
      }
    },
  };
}

/** The box of DATA_DIR/keys/secret-box.key, generated on first use. */
export async function loadSecretBox(dataDir: string): Promise<SecretBox> {
  const file = join(dataDir, 'keys', 'secret-box.key');
  let key: Buffer;
  try {
    key = Buffer.from((await readFile(file, 'utf8')).trim(), 'base64');
  } catch {
    key = randomBytes(32);
    await mkdir(dirname(file), { recursive: true, mode: 0o700 });
    await writeFile(file, key.toString('base64'), { mode: 0o600, flag: 'wx' }).catch(async () => {
      // Another process wrote it first: use theirs.
      key = Buffer.from((await readFile(file, 'utf8')).trim(), 'base64');
    });
  }
  return secretBoxWithKey(key);
}
