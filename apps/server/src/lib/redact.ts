import type { FastifyRequest } from 'fastify';

/** Written in a log line where a secret was. */
export const REDACTED = '[redacted]';

/** Words that make a field secret wherever they appear in its name (camelCase, snake_case or kebab-case). */
const SECRET_WORDS = new Set([
  'code',
  'codes',
  'password',
  'passwd',
  'pwd',
  'token',
  'tokens',
  'key',
  'keys',
  'secret',
  'sig',
  'signature',
  'otp',
  'captcha',
  'ticket',
  'challenge',
  'authorization',
  'cookie',
]);

/** Whether a field of this name holds a secret: verification codes, passwords, tokens, keys, signatures. */
export function isSecretName(name: string): boolean {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/);
  return words.some((word) => SECRET_WORDS.has(word));
}

/**
 * The URL with the value of every secret query parameter replaced (`/anonymous/checkCode?account=a&code=[redacted]`);
 * the path and the other parameters stay as sent, so the line still says what was called.
 */
export function redactUrl(url: string): string {
  const question = url.indexOf('?');
  if (question === -1) return url;
  const query = url
    .slice(question + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const rawName = equals === -1 ? pair : pair.slice(0, equals);
      let name = rawName;
      try {
        name = decodeURIComponent(rawName.replaceAll('+', ' '));
      } catch {
        // An undecodable name is judged as sent.
      }
      return equals !== -1 && isSecretName(name.replace(/\[\]$/, '')) ? `${rawName}=${REDACTED}` : pair;
    })
    .join('&');
  return `${url.slice(0, question + 1)}${query}`;
}

/** Header, body and token paths pino blanks in every line (bodies are logged only by the code that chooses to). */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  'req.headers["x-confirm-password"]',
  '*.password',
  '*.refresh_token',
  '*.access_token',
  '*.token',
];

/** The logger's request line: what was called and from where, with secret query values redacted. */
export function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/** The server's logger settings: level, redacted paths and the request serializer above. */
export function loggerOptions(level: string) {
  return {
    level,
    redact: { paths: REDACT_PATHS, censor: REDACTED },
    serializers: { req: serializeRequest },
  };
}
