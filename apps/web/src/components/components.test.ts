import { Code } from '@sunward/contracts/codes';
import { describe, expect, it } from 'vitest';
import { ApiCallError } from '../lib/api-client';
import { fillSettingsSlot, settingsSlot } from '../lib/settings-slots';
import { runExport } from './export-file';
import { placeRefusal } from './form-refusal';

const file = (disposition: string | null) => ({ blob: new Blob(['x']), disposition });

describe('export button', () => {
  it('saves under the name the server gives, else the fallback of the format', async () => {
    const saved: string[] = [];
    const steps = { fallbackName: (f: string) => `events.${f}`, save: (_: Blob, name: string) => saved.push(name) };
    expect(await runExport('csv', { ...steps, fetchFile: async () => file(`attachment; filename="events-1.csv"`) })).toBe('saved');
    expect(await runExport('xlsx', { ...steps, fetchFile: async () => file(null) })).toBe('saved');
    expect(saved).toEqual(['events-1.csv', 'events.xlsx']);
  });

  it('downloads nothing when the download centre takes the export over, and rejects on a refusal', async () => {
    let fetched = false;
    const steps = {
      fallbackName: () => 'x.xlsx',
      save: () => undefined,
      fetchFile: async () => {
        fetched = true;
        return file(null);
      },
    };
    expect(await runExport('xlsx', { ...steps, takeOver: async () => true })).toBe('handed-over');
    expect(fetched).toBe(false);
    const refused = new ApiCallError(706, 'Too many records', null, 200);
    await expect(runExport('xlsx', { ...steps, takeOver: async () => Promise.reject(refused) })).rejects.toBe(refused);
  });
});

describe('form dialog refusals', () => {
  it('puts a code-4 refusal beside each field it names', () => {
    const error = new ApiCallError(Code.VALIDATION, 'invalid', { errors: [{ field: 'name', message: 'Too long' }] }, 200);
    expect(placeRefusal(error, 'failed')).toEqual({ kind: 'fields', fields: [{ name: 'name', errors: ['Too long'] }] });
  });

  it('puts another refusal under the field it concerns, or says it as a message', () => {
    const taken = new ApiCallError(Code.ACCOUNT_EXISTS, 'The account exists', null, 200);
    expect(placeRefusal(taken, 'failed', () => 'account')).toEqual({ kind: 'field', name: 'account', text: 'The account exists' });
    expect(placeRefusal(taken, 'failed', () => undefined)).toEqual({ kind: 'message', text: 'The account exists' });
    expect(placeRefusal(new Error('network'), 'failed')).toEqual({ kind: 'message', text: 'failed' });
  });
});

describe('personal settings slots', () => {
  it('shows what the app filled, and nothing for an unfilled slot', () => {
    const Tab = () => null;
    expect(settingsSlot('notifications')).toBeUndefined();
    fillSettingsSlot('notifications', Tab);
    expect(settingsSlot('notifications')).toBe(Tab);
  });
});
