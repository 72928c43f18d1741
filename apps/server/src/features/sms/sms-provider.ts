/** What a provider answered for one message: sent (with its id), or only recorded (no provider configured). */
export interface SmsOutcome {
  status: 'sent' | 'logged';
  providerId: string | null;
}

/** One SMS provider behind msg/send. `send` rejects when the provider refuses or cannot be reached. */
export interface SmsProvider {
  readonly name: string;
  send(phone: string, content: string): Promise<SmsOutcome>;
}

export type SmsProviderSettings = { kind: 'log' } | { kind: 'http'; url: string; token: string | undefined; timeoutMs: number };

/**
 * SMS_PROVIDER unset: nothing leaves the server; each message is only written to the send log (status
 * "logged"), so the product works without a contract. `http`: a JSON POST {to, text} to SMS_HTTP_URL
 * with SMS_HTTP_TOKEN as bearer, the shape most SMS gateways (and a small relay to any other) accept;
 * a 2xx answer is sent, its JSON `id` kept as the provider's message id.
 */
export function createSmsProvider(settings: SmsProviderSettings): SmsProvider {
  if (settings.kind === 'log') return { name: 'log', send: async () => ({ status: 'logged', providerId: null }) };
  return {
    name: 'http',
    async send(phone, content) {
      const response = await fetch(settings.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          ...(settings.token ? { authorization: `Bearer ${settings.token}` } : {}),
        },
        body: JSON.stringify({ to: phone, text: content }),
        signal: AbortSignal.timeout(settings.timeoutMs),
      });
      const body = await response.text();
      if (!response.ok) throw new Error(`provider answered HTTP ${response.status}: ${body.slice(0, 200)}`);
      let id: string | null = null;
      try {
        const parsed: unknown = JSON.parse(body);
        if (typeof parsed === 'object' && parsed !== null && 'id' in parsed) id = String(parsed.id);
      } catch {
        // A provider that answers plain text: accepted, without an id.
      }
      return { status: 'sent', providerId: id };
    },
  };
}
