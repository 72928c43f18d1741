import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject, sign, verify } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/**
 * The platform's firmware signing key (Ed25519). Each image's SHA-256 digest is signed; devices hold
 * the public key (GET /api/v1/firmware/publicKey) and verify the signature before they apply an image.
 */
export interface FirmwareSigner {
  /** Base64 Ed25519 signature of the 32-byte SHA-256 digest. */
  sign(sha256: Buffer): string;
  verify(sha256: Buffer, signature: string): boolean;
  publicKeyPem: string;
}

/** The key from FIRMWARE_SIGNING_KEY_FILE, or the one generated once into DATA_DIR/keys (mode 0600). */
export async function loadFirmwareSigner(options: { keyFile: string | undefined; dataDir: string }): Promise<FirmwareSigner> {
  const privateKey = options.keyFile
    ? await readKey(options.keyFile)
    : await readOrCreateKey(join(options.dataDir, 'keys', 'firmware-ed25519.pem'));
  const publicKey = createPublicKey(privateKey);
  return {
    sign: (digest) => sign(null, digest, privateKey).toString('base64'),
    verify: (digest, signature) => verify(null, digest, publicKey, Buffer.from(signature, 'base64')),
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

async function readKey(file: string): Promise<KeyObject> {
  const key = createPrivateKey(await readFile(file));
  if (key.asymmetricKeyType !== 'ed25519') throw new Error(`${file} is not an Ed25519 private key`);
  return key;
}

async function readOrCreateKey(file: string): Promise<KeyObject> {
  try {
    return await readKey(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  const { privateKey } = generateKeyPairSync('ed25519');
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' });
  try {
    // wx: two servers starting on one DATA_DIR keep the first key rather than overwrite it.
    await writeFile(file, pem, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return readKey(file);
  }
  return privateKey;
}
