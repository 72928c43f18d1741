import type { FastifyInstance } from 'fastify';

/**
 * Timing of API calls through the full request pipeline (token, permission, validation, SQL, envelope)
 * with Fastify's inject: 10 warm-ups, then `runs` timed calls; prints p50, p95, p99 and the body size.
 */
export function createMeasurer(app: FastifyInstance, password: string, runs: number) {
  async function token(account: string): Promise<string> {
    const response = await app.inject({
      method: 'POST',
      url: '/oauth/token',
      payload: { grant_type: 'password', username: account, password: password },
    });
    return (response.json() as { data: { access_token: string } }).data.access_token;
  }

  async function measure(name: string, bearer: string, url: (i: number) => string) {
    const call = async (i: number) => {
      const response = await app.inject({ method: 'GET', url: url(i), headers: { authorization: `Bearer ${bearer}` } });
      const body = response.json() as { code: number };
      if (body.code !== 0) throw new Error(`${url(i)} answered ${JSON.stringify(body)}`);
      return response.body.length;
    };
    let bytes = 0;
    for (let i = 0; i < 10; i++) bytes = await call(i);
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      const s = performance.now();
      await call(i);
      times.push(performance.now() - s);
    }
    times.sort((a, b) => a - b);
    const p = (x: number) => (times[Math.min(times.length - 1, Math.floor(x * times.length))] ?? 0).toFixed(2);
    console.log(`${name.padEnd(62)} p50 ${p(0.5)} ms  p95 ${p(0.95)} ms  p99 ${p(0.99)} ms  (${(bytes / 1024).toFixed(0)} KB)`);
  }

  return { token, measure };
}
