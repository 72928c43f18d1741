import { once } from 'node:events';
import { connect, createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { bindPort, closeServer } from './listeners.js';

describe('closeServer', () => {
  it('ends a connection nobody answers, so a shutdown never waits for a client to hang up', async () => {
    // A listener whose connections nobody reads: a gateway reconnecting after the broker closed.
    const server = createServer(() => undefined);
    const { port } = await bindPort(server, { port: 0, host: '127.0.0.1', setting: 'MQTT_PORT', explicit: true });
    const client = connect(port, '127.0.0.1');
    await once(client, 'connect');
    const ended = once(client, 'close');
    await closeServer(server);
    await ended;
    expect(server.listening).toBe(false);
  });

  it('does nothing to a server that is not listening', async () => {
    await expect(closeServer(createServer())).resolves.toBeUndefined();
  });
});

describe('a port nobody answers yet', () => {
  it('ends a connection at once while nothing takes the port (the broker before the database opened)', async () => {
    const server = createServer();
    const { port } = await bindPort(server, { port: 0, host: '127.0.0.1', setting: 'MQTT_PORT', explicit: true });
    const client = connect(port, '127.0.0.1');
    await once(client, 'close');
    await closeServer(server);
  });
});
