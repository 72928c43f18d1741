import { GATEWAY_PROTOCOL_VERSION, type ReplyPayload } from '@sunward/contracts/gateway-protocol';
import { describe, expect, it } from 'vitest';
import { createCommandHandler, createControls, createGatewaySettings, gatewaySettingsState } from './command-handler.js';

function gateway() {
  const replies: ReplyPayload[] = [];
  const settings = createGatewaySettings('mqtt://broker.local:1884');
  let statusSent = 0;
  const handler = createCommandHandler({
    states: [],
    controls: createControls(),
    reply: (r) => replies.push(r),
    gateway: settings,
    onConfigured: () => {
      statusSent += 1;
    },
    now: () => 1_700_000_000_000,
  });
  const send = (id: string, body: Record<string, unknown>) => {
    handler.handle(Buffer.from(JSON.stringify({ v: GATEWAY_PROTOCOL_VERSION, id, ...body })));
    return replies.find((r) => r.id === id);
  };
  return { settings, send, statusSent: () => statusSent };
}

describe('the simulated gateway’s configuration', () => {
  it('starts with the address it connects to and applies a new one, reporting its settings', () => {
    const g = gateway();
    expect(gatewaySettingsState(g.settings)).toEqual({ serverAddress: 'broker.local:1884', locked: false, digitalOutput: false });
    expect(g.send('1', { op: 'configure', config: { serverAddress: 'iot.example.com:8883' } })).toMatchObject({
      status: 'ok',
      config: { serverAddress: 'iot.example.com:8883', locked: false },
    });
    expect(g.statusSent()).toBe(1);
  });

  it('refuses every change while locked but unlocking, and keeps only the time of a password', () => {
    const g = gateway();
    expect(g.send('1', { op: 'configure', config: { locked: true } })?.status).toBe('ok');
    expect(g.send('2', { op: 'configure', config: { digitalOutput: true } })).toMatchObject({ status: 'error', error: 'locked' });
    expect(g.send('3', { op: 'configure', config: { locked: false, digitalOutput: true } })).toMatchObject({
      status: 'ok',
      config: { locked: false, digitalOutput: true },
    });
    const reply = g.send('4', { op: 'configure', config: { connectionPassword: 'Strong1Pass' } });
    expect(reply?.config).toEqual({
      serverAddress: 'broker.local:1884',
      locked: false,
      digitalOutput: true,
      passwordSetAt: 1_700_000_000_000,
    });
    expect(JSON.stringify(reply)).not.toContain('Strong1Pass');
  });

  it('answers bad_request to a value outside its format instead of staying silent', () => {
    const g = gateway();
    expect(g.send('1', { op: 'configure', config: { connectionPassword: 'weak' } })).toMatchObject({
      status: 'error',
      error: 'bad_request',
    });
    expect(g.send('2', { op: 'configure', config: { serverAddress: 'no-port' } })).toMatchObject({ status: 'error', error: 'bad_request' });
    expect(g.send('3', { op: 'configure', device: 'IN0001', config: { locked: true } })).toMatchObject({
      status: 'error',
      error: 'bad_request',
    });
  });
});
