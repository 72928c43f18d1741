import { beforeEach, describe, expect, it } from 'vitest';
import { dropTicket, failurePath, identityLabel, keepTicket, pendingTicket, takeBrowserKey } from './third-party-flow';

/** sessionStorage as the browser has it, for the node test environment. */
class MemoryStorage {
  private items = new Map<string, string>();
  getItem = (key: string) => this.items.get(key) ?? null;
  setItem = (key: string, value: string) => void this.items.set(key, value);
  removeItem = (key: string) => void this.items.delete(key);
}

const identity = { provider: { id: 'corp', name: 'Corp ID' }, email: 'ann@corp.example', name: 'Ann' };

beforeEach(() => {
  Object.defineProperty(globalThis, 'sessionStorage', { value: new MemoryStorage(), configurable: true });
});

describe('the flow kept in this tab', () => {
  it('hands out a browser key once', () => {
    sessionStorage.setItem('thirdParty.flow.s1', 'key-1');
    expect(takeBrowserKey('s1')).toBe('key-1');
    expect(takeBrowserKey('s1')).toBeUndefined();
  });

  it('keeps a binding ticket until it expires or is dropped', () => {
    keepTicket({ outcome: 'bindingRequired', purpose: 'signIn', ticket: 't1', expiresIn: 900, identity }, 1_000);
    expect(pendingTicket(2_000)).toMatchObject({ ticket: 't1', identity });
    expect(pendingTicket(1_000 + 900_000)).toBeUndefined();
    keepTicket({ outcome: 'bindingRequired', purpose: 'signIn', ticket: 't2', expiresIn: 900, identity }, 1_000);
    dropTicket();
    expect(pendingTicket(2_000)).toBeUndefined();
  });

  it('ignores a damaged ticket entry', () => {
    sessionStorage.setItem('thirdParty.ticket', '{not json');
    expect(pendingTicket()).toBeUndefined();
  });

  it('shows the identity by e-mail, else by name', () => {
    expect(identityLabel(identity)).toBe('ann@corp.example');
    expect(identityLabel({ ...identity, email: null })).toBe('Ann');
    expect(identityLabel({ ...identity, email: null, name: null })).toBe('');
  });

  it('sends refusals to /authorizationFailed with a code or a reason word only', () => {
    expect(failurePath({ code: 121 })).toBe('/authorizationFailed?code=121');
    expect(failurePath({ reason: 'denied' })).toBe('/authorizationFailed?reason=denied');
  });
});
