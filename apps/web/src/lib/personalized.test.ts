import { describe, expect, it } from 'vitest';
import { chooseHomePage } from './personalized';

describe('the page / opens', () => {
  const canOpen = (allowed: string[]) => (path: string) => allowed.includes(path);

  it('is the page chosen in personal settings when the role can open it', () => {
    expect(chooseHomePage('/device/event', canOpen(['/plants', '/device/event']), '/plants')).toBe('/device/event');
  });

  it('falls back to the first page the role can open when it cannot open the chosen one', () => {
    expect(chooseHomePage('/device/gateway/list', canOpen(['/plants']), '/plants')).toBe('/plants');
    expect(chooseHomePage('/device/gateway/list', canOpen([]), undefined)).toBeUndefined();
  });
});
