import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A simulated bulb bridge (issue 22): an OAuth 2.0 provider (authorisation code with PKCE S256, refresh, revoke)
 * and a small Hue-style REST API (GET /api/lights, PUT /api/lights/{id}/state with on, bri 1–254, ct in mired).
 * The authorisation page approves at once (a user who said yes). Tests and the demo point the server's
 * LIGHT_BRIDGE_* settings at it; `state()` and `expireTokens()` let a test look inside.
 */
export interface SimulatedBulb {
  id: string;
  name: string;
  on: boolean;
  /** Hue brightness 1–254. */
  bri: number;
  /** Colour temperature in mired (153–500). */
  ct: number;
  reachable: boolean;
}

export interface LightBridge {
  url: string;
  settings: Record<string, string>;
  bulbs: Map<string, SimulatedBulb>;
  /** Every token it issued (access and refresh), to check none is stored in the clear. */
  issued: string[];
  /** Every PUT the bridge accepted, in order. */
  commands: { id: string; state: Partial<SimulatedBulb>; at: number }[];
  /** Tokens issued from now on last this many seconds. */
  setTokenLifetime(seconds: number): void;
  /** Every access token expires now (refresh tokens still work). */
  expireTokens(): void;
  /** Every token is withdrawn at the bridge (as if the user revoked the app there). */
  revokeAll(): void;
  /** While down, the API answers nothing (the socket is closed). */
  setDown(down: boolean): void;
  close(): Promise<void>;
}

interface Grant {
  refresh: string;
  accessExpires: number;
}

const DEFAULT_BULBS: SimulatedBulb[] = [
  { id: '1', name: 'Porch', on: false, bri: 1, ct: 370, reachable: true },
  { id: '2', name: 'Garage', on: false, bri: 1, ct: 370, reachable: true },
  { id: '3', name: 'Garden', on: false, bri: 1, ct: 370, reachable: true },
];

async function body(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function json(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
}

export async function startLightBridge(options: { port?: number; clientId?: string; clientSecret?: string } = {}): Promise<LightBridge> {
  const clientId = options.clientId ?? 'sunward';
  const clientSecret = options.clientSecret ?? 'bridge-secret';
  const bulbs = new Map(DEFAULT_BULBS.map((b) => [b.id, { ...b }]));
  const codes = new Map<string, { challenge: string; redirect: string; expires: number }>();
  const access = new Map<string, Grant>();
  const refresh = new Map<string, string>();
  const commands: LightBridge['commands'] = [];
  const issued: string[] = [];
  let lifetime = 3600;
  let down = false;

  const issue = () => {
    const accessToken = randomBytes(24).toString('base64url');
    const refreshToken = randomBytes(24).toString('base64url');
    access.set(accessToken, { refresh: refreshToken, accessExpires: Date.now() + lifetime * 1000 });
    refresh.set(refreshToken, accessToken);
    issued.push(accessToken, refreshToken);
    return { access_token: accessToken, refresh_token: refreshToken, token_type: 'Bearer', expires_in: lifetime };
  };
  const clientOk = (req: IncomingMessage, form: URLSearchParams) => {
    const basic = req.headers.authorization?.startsWith('Basic ')
      ? Buffer.from(req.headers.authorization.slice(6), 'base64').toString('utf8')
      : `${form.get('client_id') ?? ''}:${form.get('client_secret') ?? ''}`;
    return basic === `${clientId}:${clientSecret}`;
  };

  const server: Server = createServer((req, res) => {
    void (async () => {
      if (down) {
        req.socket.destroy();
        return;
      }
      const url = new URL(req.url ?? '/', 'http://bridge');
      if (req.method === 'GET' && url.pathname === '/oauth/authorize') {
        const redirect = url.searchParams.get('redirect_uri') ?? '';
        const challenge = url.searchParams.get('code_challenge') ?? '';
        if (
          url.searchParams.get('client_id') !== clientId ||
          url.searchParams.get('code_challenge_method') !== 'S256' ||
          !challenge ||
          !redirect
        ) {
          res.writeHead(400).end('invalid_request');
          return;
        }
        const code = randomBytes(16).toString('base64url');
        codes.set(code, { challenge, redirect, expires: Date.now() + 60_000 });
        const back = new URL(redirect);
        back.searchParams.set('code', code);
        back.searchParams.set('state', url.searchParams.get('state') ?? '');
        res.writeHead(302, { location: back.toString() }).end();
        return;
      }
      if (req.method === 'POST' && url.pathname === '/oauth/token') {
        const form = new URLSearchParams(await body(req));
        if (!clientOk(req, form)) return json(res, 401, { error: 'invalid_client' });
        if (form.get('grant_type') === 'authorization_code') {
          const entry = codes.get(form.get('code') ?? '');
          codes.delete(form.get('code') ?? '');
          const verifier = form.get('code_verifier') ?? '';
          const challenge = createHash('sha256').update(verifier).digest('base64url');
          if (!entry || entry.expires < Date.now() || entry.challenge !== challenge || entry.redirect !== form.get('redirect_uri'))
            return json(res, 400, { error: 'invalid_grant' });
          return json(res, 200, issue());
        }
        if (form.get('grant_type') === 'refresh_token') {
          const old = refresh.get(form.get('refresh_token') ?? '');
          if (old === undefined) return json(res, 400, { error: 'invalid_grant' });
          refresh.delete(form.get('refresh_token') ?? '');
          access.delete(old);
          return json(res, 200, issue());
        }
        return json(res, 400, { error: 'unsupported_grant_type' });
      }
      if (req.method === 'POST' && url.pathname === '/oauth/revoke') {
        const form = new URLSearchParams(await body(req));
        const token = form.get('token') ?? '';
        const grant = access.get(token);
        if (grant) {
          access.delete(token);
          refresh.delete(grant.refresh);
        }
        const accessOfRefresh = refresh.get(token);
        if (accessOfRefresh !== undefined) {
          refresh.delete(token);
          access.delete(accessOfRefresh);
        }
        res.writeHead(200).end();
        return;
      }
      if (url.pathname.startsWith('/api/')) {
        const token = req.headers.authorization?.replace(/^Bearer /, '') ?? '';
        const grant = access.get(token);
        if (!grant || grant.accessExpires < Date.now()) return json(res, 401, { error: 'invalid_token' });
        if (req.method === 'GET' && url.pathname === '/api/lights') {
          return json(
            res,
            200,
            Object.fromEntries(
              [...bulbs.values()].map((b) => [b.id, { name: b.name, state: { on: b.on, bri: b.bri, ct: b.ct, reachable: b.reachable } }]),
            ),
          );
        }
        const match = /^\/api\/lights\/([^/]+)\/state$/.exec(url.pathname);
        if (req.method === 'PUT' && match) {
          const bulb = bulbs.get(match[1] ?? '');
          if (!bulb) return json(res, 404, { error: 'not_found' });
          const state = JSON.parse(await body(req)) as Partial<SimulatedBulb>;
          if (typeof state.on === 'boolean') bulb.on = state.on;
          if (typeof state.bri === 'number') bulb.bri = Math.min(254, Math.max(1, Math.round(state.bri)));
          if (typeof state.ct === 'number') bulb.ct = Math.min(500, Math.max(153, Math.round(state.ct)));
          commands.push({ id: bulb.id, state, at: Date.now() });
          return json(res, 200, [{ success: state }]);
        }
      }
      res.writeHead(404).end();
    })().catch(() => res.writeHead(500).end());
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    settings: {
      LIGHT_BRIDGE_AUTHORIZE_URL: `${url}/oauth/authorize`,
      LIGHT_BRIDGE_TOKEN_URL: `${url}/oauth/token`,
      LIGHT_BRIDGE_REVOKE_URL: `${url}/oauth/revoke`,
      LIGHT_BRIDGE_API_URL: `${url}/api`,
      LIGHT_BRIDGE_CLIENT_ID: clientId,
      LIGHT_BRIDGE_CLIENT_SECRET: clientSecret,
    },
    bulbs,
    issued,
    commands,
    setTokenLifetime: (seconds) => {
      lifetime = seconds;
    },
    expireTokens: () => {
      for (const grant of access.values()) grant.accessExpires = 0;
    },
    revokeAll: () => {
      access.clear();
      refresh.clear();
    },
    setDown: (value) => {
      down = value;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
