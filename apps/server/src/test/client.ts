import type { FastifyInstance } from 'fastify';

export interface CallOptions {
  token?: string;
  json?: unknown;
  form?: Record<string, string | string[]>;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  /** The caller's address, for the per-address sign-in limits. */
  ip?: string;
}

export interface CallResult<T = unknown> {
  status: number;
  body: { code: number; data: T; message: string };
  headers: Record<string, string | string[] | number | undefined>;
}

/** Calls the server through its full request pipeline (parsers, hooks, schemas, error handler). */
export async function call<T = unknown>(
  app: FastifyInstance,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  options: CallOptions = {},
): Promise<CallResult<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let payload: string | undefined;
  if (options.form) {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(options.form)) for (const item of Array.isArray(v) ? v : [v]) params.append(k, item);
    payload = params.toString();
    headers['content-type'] = 'application/x-www-form-urlencoded';
  } else if (options.json !== undefined) {
    payload = JSON.stringify(options.json);
    headers['content-type'] = 'application/json';
  }
  const response = await app.inject({ method, url, headers, payload, query: options.query, remoteAddress: options.ip ?? '127.0.0.1' });
  return { status: response.statusCode, body: response.json(), headers: response.headers };
}

export interface Tokens {
  access_token: string;
  refresh_token: string;
  expires_in: number;
  token_type: string;
}

export async function signIn(app: FastifyInstance, account: string, password: string, ip?: string): Promise<Tokens> {
  const result = await call<Tokens>(app, 'POST', '/oauth/token', { form: { grant_type: 'password', username: account, password }, ip });
  if (result.body.code !== 0) throw new Error(`sign-in of ${account} failed: ${JSON.stringify(result.body)}`);
  return result.body.data;
}

/** A multipart/form-data body with text fields and at most one file, as a browser sends it. */
export function multipartBody(fields: Record<string, string>, file?: { name: string; bytes: Buffer }) {
  const boundary = `----sunward${Date.now()}${Math.random().toString(36).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields))
    parts.push(Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="${file.name}"\r\ncontent-type: application/octet-stream\r\n\r\n`,
      ),
    );
    parts.push(file.bytes, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}
