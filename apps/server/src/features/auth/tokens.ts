import { createHash, randomBytes, randomUUID } from 'node:crypto';

/** Opaque bearer tokens: 256 random bits. The server keeps only their SHA-256. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

export function newSessionId(): string {
  return randomUUID();
}
