import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

type FormValue = string | string[];

/**
 * Parses url-encoded text the way spec 01 §7 sends it: repeated keys become arrays, and the
 * `key[]=` spelling of jQuery-style clients means the same as a repeated `key=`.
 */
export function parseUrlEncoded(text: string): Record<string, FormValue> {
  const out: Record<string, FormValue> = {};
  for (const [rawKey, value] of new URLSearchParams(text)) {
    const isArray = rawKey.endsWith('[]');
    const key = isArray ? rawKey.slice(0, -2) : rawKey;
    if (key === '__proto__' || key === 'constructor' || key === 'prototype') continue;
    const existing = out[key];
    if (existing === undefined) out[key] = isArray ? [value] : value;
    else out[key] = Array.isArray(existing) ? [...existing, value] : [existing, value];
  }
  return out;
}

export const bodyParsersPlugin = fp(async (app: FastifyInstance) => {
  await app.register(formbody, { parser: parseUrlEncoded, bodyLimit: 1024 * 1024 });
  // Fields and files arrive as body values, so the same zod schemas validate form and JSON bodies.
  await app.register(multipart, { attachFieldsToBody: 'keyValues', limits: { fileSize: 8 * 1024 * 1024, files: 5, fields: 100 } });
});
