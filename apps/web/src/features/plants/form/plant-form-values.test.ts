import type { PlantDetail } from '@sunward/contracts/plants';
import { describe, expect, it } from 'vitest';
import { gatewayRefusalField, isCheckedOk } from './gateway-checks';
import { pictureProblem } from './picture-check';
import {
  fieldNamePath,
  plantFieldValuesOf,
  tariffValuesOf,
  toGatewayBindings,
  toPlantFields,
  toTariff,
  wizardStepOf,
} from './plant-form-values';

const FIELDS = {
  name: 'Sunny Acres',
  capacityKwp: 120.5,
  plantType: 1,
  latitude: 52.52,
  longitude: 13.405,
  timezone: 'Europe/Berlin',
  meteringTopology: 'net' as const,
};

describe('plant form values', () => {
  it('builds the plant fields, leaving empty inputs out', () => {
    const result = toPlantFields({ ...FIELDS, alias: '', address: 'Berlin, Germany', gridDate: '2024-05-01', contactPhone: '' }, 'en');
    expect(result).toEqual({ ok: true, value: { ...FIELDS, address: 'Berlin, Germany', gridDate: '2024-05-01' } });
  });

  it('reports the server’s rules beside the field, in the user’s language', () => {
    const result = toPlantFields({ ...FIELDS, name: 'abc', capacityKwp: 60_000 }, 'en');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues).toEqual([
      { field: 'name', message: '5 to 32 characters, no special characters' },
      { field: 'capacityKwp', message: 'between 0.01 and 50,000 kWp' },
    ]);
    const cn = toPlantFields({ ...FIELDS, name: 'abc' }, 'cn');
    expect(cn.ok ? '' : cn.issues[0]?.message).not.toBe('5 to 32 characters, no special characters');
  });

  it('sends only the prices of the chosen pricing method', () => {
    const values = {
      currency: 'EUR',
      price: 0.2,
      feedInPrice: 0.08,
      selfUsePrice: 0.3,
      segments: [{ start: '00:00', end: '24:00', price: 0.1 }],
      totalInvestment: 1000,
    };
    expect(toTariff({ ...values, pricingMethod: 'constant' }, 'en')).toEqual({
      ok: true,
      value: { currency: 'EUR', pricingMethod: 'constant', price: 0.2, totalInvestment: 1000 },
    });
    expect(toTariff({ ...values, pricingMethod: 'generation', totalInvestment: null }, 'en')).toEqual({
      ok: true,
      value: { currency: 'EUR', pricingMethod: 'generation', feedInPrice: 0.08, selfUsePrice: 0.3 },
    });
  });

  it('names the time-of-use period at fault under the tariff', () => {
    const result = toTariff(
      {
        currency: 'EUR',
        pricingMethod: 'tou',
        segments: [
          { start: '00:00', end: '08:00', price: 0.1 },
          { start: '08:00', end: '22:00', price: 0.2 },
        ],
      },
      'en',
    );
    expect(result).toEqual({ ok: false, issues: [{ field: 'tariff.segments.1', message: 'the last period ends at 24:00' }] });
  });

  it('refuses a price with three decimals and an investment above the limit', () => {
    const result = toTariff({ currency: 'EUR', pricingMethod: 'constant', price: 0.123, totalInvestment: 10_000_000 }, 'en');
    expect(result.ok ? [] : result.issues.map((i) => i.field)).toEqual(['tariff.price', 'tariff.totalInvestment']);
  });

  it('binds only rows with both a serial number and a key', () => {
    expect(toGatewayBindings([{ sn: 'GW1', key: 'K1' }, { sn: '', key: '' }, { sn: 'GW2' }])).toEqual([{ sn: 'GW1', key: 'K1' }]);
  });

  it('maps a named field to the input showing it and the wizard step holding it', () => {
    expect(fieldNamePath('name')).toEqual(['name']);
    expect(fieldNamePath('tariff.segments.2')).toEqual(['tariff', 'segments', 2, 'end']);
    expect(fieldNamePath('tariff.price')).toEqual(['tariff', 'price']);
    expect(fieldNamePath('gateways.1')).toEqual(['gateways', 1, 'sn']);
    expect(fieldNamePath('gateways.1.key')).toEqual(['gateways', 1, 'key']);
    expect(wizardStepOf('gateways.0.sn')).toBe(0);
    expect(wizardStepOf('tariff.segments.2')).toBe(1);
    expect(wizardStepOf('latitude')).toBe(2);
  });

  it('reads a plant and its tariff back into the form', () => {
    const plant = {
      ...FIELDS,
      id: 7,
      alias: null,
      gridDate: null,
      address: null,
      region: 'Germany',
      picture: null,
      contactName: 'Ann',
      contactPhone: null,
      installer: null,
      ownerName: null,
    } as unknown as PlantDetail;
    expect(plantFieldValuesOf(plant)).toMatchObject({ name: 'Sunny Acres', region: 'Germany', contactName: 'Ann', alias: undefined });
    expect(tariffValuesOf(null)).toMatchObject({ currency: 'EUR', pricingMethod: 'constant' });
    expect(tariffValuesOf({ currency: 'CNY', pricingMethod: 'constant', price: 0.4 }).segments).toHaveLength(1);
  });
});

describe('gateway checks and picture checks', () => {
  it('keeps a check only while the row still says what was checked', () => {
    const states = { 'GW1\u0000K1': { status: 'ok' as const, sn: 'GW1', online: true, deviceCount: 2 } };
    expect(isCheckedOk(states, { sn: 'GW1', key: 'K1' })).toBe(true);
    expect(isCheckedOk(states, { sn: 'GW1', key: 'K2' })).toBe(false);
    expect(isCheckedOk(states, { sn: '', key: '' })).toBe(false);
  });

  it('puts a wrong key beside the key and an unknown or bound gateway beside the serial number', () => {
    expect(gatewayRefusalField(300)).toBe('key');
    expect(gatewayRefusalField(301)).toBe('sn');
    expect(gatewayRefusalField(305)).toBe('sn');
  });

  it('accepts JPG and PNG up to 3 MB and refuses the rest before sending', () => {
    expect(pictureProblem({ name: 'roof.JPG', type: 'image/jpeg', size: 1000 }, 'en')).toBeNull();
    expect(pictureProblem({ name: 'roof.gif', type: 'image/gif', size: 1000 }, 'en')).toBe('JPG, JPEG or PNG only');
    expect(pictureProblem({ name: 'roof.png', type: 'image/png', size: 3 * 1024 * 1024 + 1 }, 'en')).toBe('at most 3 MB');
  });
});
