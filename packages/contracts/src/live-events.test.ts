import { describe, expect, it } from 'vitest';
import { parseLiveEvent } from './live-events.js';

describe('parseLiveEvent', () => {
  it('reads a pushed device change', () => {
    const event = { type: 'device', deviceId: 1, plantId: 2, status: 1, powerW: 1500, soc: null, ts: '2026-11-26T10:00:00Z' };
    expect(parseLiveEvent(JSON.stringify(event))).toEqual(event);
  });
  it('reads the unread count', () => {
    expect(parseLiveEvent('{"type":"message","userId":3,"plantId":null,"unread":4}')).toMatchObject({ unread: 4 });
  });
  it('skips what is not JSON, an unknown type or a wrong field', () => {
    expect(parseLiveEvent('{')).toBeUndefined();
    expect(parseLiveEvent('{"type":"weather","plantId":1}')).toBeUndefined();
    expect(parseLiveEvent('{"type":"plant","plantId":"1","status":1}')).toBeUndefined();
  });
});
