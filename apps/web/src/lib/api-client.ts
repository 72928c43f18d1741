import type { TokenResponse } from '@sunward/contracts/auth';
import { Code } from '@sunward/contracts/codes';
import type { ValidationIssue } from '@sunward/contracts/envelope';
import { LANGUAGE_TAGS } from '@sunward/contracts/languages';
import { currentLanguage } from './i18n';
import { clearStoredUser, storedSession } from './storage';

/** A refusal the server answered with a non-zero code; `handled` says the screen deals with it itself. */
export class ApiCallError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data: unknown,
    readonly httpStatus: number,
  ) {
    super(message);
  }
}

type QueryValue = string | number | boolean | undefined | readonly string[];

/** What checks a response's data: a contract's zod schema, or `lazySchema` (the schema's code loads on first use). */
export interface Parser<T> {
  parse(data: unknown): T | Promise<T>;
}

/**
 * A contract's schema loaded on first use. The sign-in page's calls use it so the page does not carry zod
 * (issue 18: the sign-in page's weight); the data is still checked by the contract's schema before anyone sees it.
 */
export function lazySchema<T>(load: () => Promise<Parser<T>>): Parser<T> {
  let loaded: Promise<Parser<T>> | undefined;
  return {
    parse: async (data) => {
      loaded ??= load();
      return (await loaded).parse(data);
    },
  };
}

export interface ApiRequest<T> {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  query?: Record<string, QueryValue>;
  json?: unknown;
  /** url-encoded body; arrays are sent as repeated keys (spec 01 §7). */
  form?: Record<string, QueryValue>;
  /** Validates the envelope's data; the client never hands out an unchecked shape. */
  schema: Parser<T>;
  /** Codes this call handles itself: no toast, the promise rejects with ApiCallError. */
  tolerate?: readonly number[];
  /** Sent without the bearer token (sign-in, anonymous calls). */
  anonymous?: boolean;
  /** Extra headers (a display link's token on the large-screen display). */
  headers?: Record<string, string>;
}

export interface ApiUi {
  toast(message: string): void;
  serverNotResponding(): void;
  /** Leaves for the sign-in page, reloading the app (spec 01 §4). */
  toLogin(): void;
}

// Until the shell installs its themed versions (public pages), antd's static message and confirm are
// loaded on first use, so the sign-in page does not carry them.
let ui: ApiUi = {
  toast: (text) => {
    void import('antd/es/message').then(({ default: message }) => message.error(text));
  },
  serverNotResponding: () => {
    void Promise.all([import('antd/es/modal'), import('i18next')]).then(([{ default: Modal }, { default: i18n }]) =>
      Modal.confirm({
        title: i18n.t('error.serverDownTitle'),
        content: i18n.t('error.serverDownText'),
        okText: i18n.t('error.reload'),
        cancelText: i18n.t('error.cancel'),
        onOk: () => window.location.reload(),
      }),
    );
  },
  toLogin: () => window.location.assign('/login'),
};

/** The shell installs antd's toast and confirm here once it is mounted. */
export function setApiUi(next: Partial<ApiUi>): void {
  ui = { ...ui, ...next };
}

interface Envelope {
  code: number;
  data: unknown;
  message: string;
}

/** The `{ code, data, message }` frame of every answer (contracts' envelope); `data` is checked by each call's schema. */
function envelopeOf(body: unknown): Envelope {
  const value = body as Partial<Envelope> | null;
  if (typeof value !== 'object' || value === null || typeof value.code !== 'number' || typeof value.message !== 'string')
    throw new TypeError('not an answer envelope');
  return { code: value.code, data: value.data, message: value.message };
}

function encode(params: Record<string, QueryValue>): URLSearchParams {
  const out = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) out.append(key, item);
    else out.append(key, String(value));
  }
  return out;
}

// One refresh at a time: calls that hit 401 meanwhile wait for it and retry with the new token.
let refreshing: Promise<TokenResponse> | null = null;

async function exchangeRefreshToken(refreshToken: string): Promise<TokenResponse> {
  const response = await fetch('/oauth/token', {
    method: 'POST',
    headers: {
      accept: 'application/json',
      'content-type': 'application/x-www-form-urlencoded',
      'accept-language': LANGUAGE_TAGS[currentLanguage()],
    },
    body: encode({ grant_type: 'refresh_token', refresh_token: refreshToken }),
  });
  const envelope = envelopeOf(await response.json());
  if (envelope.code !== Code.OK) throw new ApiCallError(envelope.code, envelope.message, envelope.data, response.status);
  const { TokenResponseSchema } = await import('@sunward/contracts/auth');
  const tokens = TokenResponseSchema.parse(envelope.data);
  storedSession.write(tokens);
  return tokens;
}

function refreshSession(): Promise<TokenResponse> {
  const session = storedSession.read();
  if (!session) return Promise.reject(new ApiCallError(Code.TOKEN_INVALID, '', null, 401));
  refreshing ??= exchangeRefreshToken(session.refresh_token).finally(() => {
    refreshing = null;
  });
  return refreshing;
}

function sessionEnded(): never {
  clearStoredUser();
  ui.toLogin();
  throw new ApiCallError(Code.TOKEN_INVALID, '', null, 401);
}

export async function apiRequest<T>(path: string, request: ApiRequest<T>): Promise<T> {
  const send = async (accessToken: string | undefined): Promise<Response> => {
    const headers: Record<string, string> = {
      ...request.headers,
      accept: 'application/json',
      'accept-language': LANGUAGE_TAGS[currentLanguage()],
    };
    if (accessToken) headers.authorization = `Bearer ${accessToken}`;
    let body: BodyInit | undefined;
    if (request.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = encode(request.form);
    } else if (request.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(request.json);
    }
    const query = request.query ? `?${encode(request.query)}` : '';
    try {
      return await fetch(`${path}${query}`, { method: request.method ?? 'GET', headers, body });
    } catch (error) {
      ui.serverNotResponding();
      throw error;
    }
  };

  const usedToken = request.anonymous ? undefined : storedSession.read()?.access_token;
  let response = await send(usedToken);
  if (response.status === 401 && !request.anonymous && usedToken) {
    const current = storedSession.read()?.access_token;
    // Another call may have refreshed already while this one was in flight.
    const retryToken = current && current !== usedToken ? current : await refreshSession().then((t) => t.access_token, sessionEnded);
    response = await send(retryToken);
    if (response.status === 401) sessionEnded();
  }
  if (response.status >= 500) {
    ui.serverNotResponding();
    throw new ApiCallError(Code.SERVER_ERROR, '', null, response.status);
  }
  let envelope: Envelope;
  try {
    envelope = envelopeOf(await response.json());
  } catch {
    ui.serverNotResponding();
    throw new ApiCallError(Code.SERVER_ERROR, '', null, response.status);
  }
  if (envelope.code === Code.OK) return await request.schema.parse(envelope.data);
  const error = new ApiCallError(envelope.code, envelope.message, envelope.data, response.status);
  if (request.tolerate?.includes(envelope.code)) throw error;
  if (envelope.code === Code.WRONG_CREDENTIALS) sessionEnded();
  if (envelope.code === Code.TOKEN_INVALID && !request.anonymous) sessionEnded();
  ui.toast(envelope.message);
  throw error;
}

/**
 * For what apiRequest does not speak (multipart uploads, file downloads, event streams): the same
 * bearer token and language, and the same single-flight refresh on HTTP 401. The caller reads the
 * response (readEnvelope for JSON answers).
 */
export async function authorizedFetch(path: string, init: RequestInit = {}): Promise<Response> {
  const send = (accessToken: string | undefined) => {
    const headers = new Headers(init.headers);
    headers.set('accept-language', LANGUAGE_TAGS[currentLanguage()]);
    if (accessToken) headers.set('authorization', `Bearer ${accessToken}`);
    return fetch(path, { ...init, headers });
  };
  const usedToken = storedSession.read()?.access_token;
  const response = await send(usedToken);
  if (response.status !== 401 || !usedToken) return response;
  const current = storedSession.read()?.access_token;
  const retryToken = current && current !== usedToken ? current : await refreshSession().then((t) => t.access_token, sessionEnded);
  return send(retryToken);
}

/** The envelope of a response from authorizedFetch: its data on code 0, ApiCallError otherwise. */
export async function readEnvelope<T>(response: Response, schema: Parser<T>): Promise<T> {
  let envelope: Envelope;
  try {
    envelope = envelopeOf(await response.json().catch(() => null));
  } catch {
    throw new ApiCallError(Code.SERVER_ERROR, '', null, response.status);
  }
  if (envelope.code !== Code.OK) throw new ApiCallError(envelope.code, envelope.message, envelope.data, response.status);
  return await schema.parse(envelope.data);
}

/**
 * A file from the API (exports, downloads). A refusal (e.g. 706, too many records) comes back as a JSON
 * envelope instead of the file: it is shown like any refusal and the promise rejects.
 */
export async function fetchFile(pathWithQuery: string): Promise<{ blob: Blob; disposition: string | null }> {
  const response = await authorizedFetch(pathWithQuery);
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('application/json') || !response.ok) {
    await readEnvelope(response, { parse: (data) => data });
    throw new ApiCallError(Code.SERVER_ERROR, '', null, response.status);
  }
  return { blob: await response.blob(), disposition: response.headers.get('content-disposition') };
}

/** The field problems of a code-4 refusal (contracts' ValidationErrorData), or none when the answer names none. */
export function validationIssues(error: unknown): ValidationIssue[] {
  if (!(error instanceof ApiCallError) || error.code !== Code.VALIDATION) return [];
  // contracts' ValidationErrorData ({ errors: [{ field, message }] }), read without zod: the sign-in form shows
  // these and stays light (issue 18).
  const errors: unknown = (error.data as { errors?: unknown } | null)?.errors;
  if (!Array.isArray(errors)) return [];
  const issues = errors.filter(
    (e): e is ValidationIssue =>
      typeof e === 'object' && e !== null && 'field' in e && typeof e.field === 'string' && 'message' in e && typeof e.message === 'string',
  );
  return issues.length === errors.length ? issues : [];
}

/** Field → message of a code-4 refusal, for the form to show beside each field. */
export function fieldErrors(error: unknown): Record<string, string> {
  return Object.fromEntries(validationIssues(error).map((issue) => [issue.field, issue.message]));
}

/** The server's words for a refusal: the first field's problem for code 4, else the refusal's message. */
export function refusalMessage(error: unknown): string | undefined {
  if (!(error instanceof ApiCallError)) return undefined;
  return Object.values(fieldErrors(error))[0] ?? (error.message || undefined);
}

/** The code of a refusal, for checks that turn a code into a field message. */
export const refusalCode = (error: unknown): number | undefined => (error instanceof ApiCallError ? error.code : undefined);
