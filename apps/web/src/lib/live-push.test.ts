import { describe, expect, it } from 'vitest';
import { parseSse, typesQuery } from './live-push';

describe('live events', () => {
  it('parses complete events and keeps the unfinished rest', () => {
    const { messages, rest } = parseSse('retry: 3000\n\nevent: device\ndata: {"plantId":3}\n\n: keep-alive\n\nevent: plant\ndata: {"pl');
    expect(messages).toEqual([{ event: 'device', data: '{"plantId":3}' }]);
    expect(rest).toBe('event: plant\ndata: {"pl');
  });
});

describe('the shared connection', () => {
  const noop = () => undefined;
  it('asks for the union of what its subscribers want, once each, in a stable order', () => {
    expect(typesQuery([{ types: ['message'], onEvent: noop }])).toBe('message');
    expect(
      typesQuery([
        { types: ['message'], onEvent: noop },
        { types: ['upgrade', 'device', 'message'], onEvent: noop },
      ]),
    ).toBe('device,message,upgrade');
    expect(typesQuery([])).toBe('');
  });
});
