import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CONTRACT_MODULES, componentNames } from './components.js';
import { exampleOf } from './examples.js';
import { accessSentence, isPublic, operationCodes, operationIdFor } from './operations.js';
import { constraints, describePathParameter, describeQueryParameter } from './parameters.js';

const CONTRACTS = new URL('../../../../packages/contracts/src/', import.meta.url);

describe('operationIdFor', () => {
  it('is the method and the path words in camelCase, parameters as By<Name>, without /api/v1', () => {
    expect(operationIdFor('GET', '/api/v1/plant/:id/power/day')).toBe('getPlantByIdPowerDay');
    expect(operationIdFor('post', '/api/v1/firmware/battery/{id}')).toBe('postFirmwareBatteryById');
    expect(operationIdFor('POST', '/oauth/token')).toBe('postOauthToken');
    expect(operationIdFor('GET', '/api/v1/battery/batchUpgrade/check')).toBe('getBatteryBatchUpgradeCheck');
    expect(operationIdFor('GET', '/api/mqtt-auth/:token/acl')).toBe('getApiMqttAuthByTokenAcl');
  });
});

describe('access in the document', () => {
  it('says who may call, marks public routes, and lists the codes of the route’s kind plus its own', () => {
    expect(accessSentence('public')).toBe('Public, no session needed.');
    expect(accessSentence({ kind: 'manage', key: 'meter.edit' })).toContain('`meter.edit`');
    expect(isPublic({ kind: 'public-write', reason: 'sign-in' })).toBe(true);
    expect(isPublic('signed-in')).toBe(false);
    expect(operationCodes('public', false)).toEqual([0, 429, 500]);
    expect(operationCodes('station.view', true, [700])).toEqual([0, 2, 4, 401, 429, 500, 700]);
    expect(operationCodes('signed-in', false)).toEqual([0, 401, 429, 500]);
  });
});

describe('components', () => {
  it('lists every contracts module that exports a schema (add a new one to CONTRACT_MODULES in components.ts)', () => {
    const withSchemas = readdirSync(CONTRACTS)
      .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
      .filter((name) => /^export const \w+Schema\b/m.test(readFileSync(new URL(name, CONTRACTS), 'utf8')))
      .map((name) => name.slice(0, -'.ts'.length));
    expect(Object.keys(CONTRACT_MODULES).sort()).toEqual(withSchemas.sort());
  });

  it('names a shape after its export, with the module in front when two modules export the name', () => {
    const a = z.object({ x: z.number() });
    const b = z.object({ y: z.string() });
    const c = z.string();
    const names = componentNames({ 'plant-energy': { DayQuerySchema: a, OtherSchema: c }, devices: { DayQuerySchema: b } });
    expect([...names.values()].sort()).toEqual(['DevicesDayQuery', 'Other', 'PlantEnergyDayQuery']);
    expect(componentNames({ reports: { ReportConfigInputSchema: a } }).get(a)).toBe('ReportConfigInputData');
  });
});

describe('parameters and examples', () => {
  it('describes a path parameter by what it identifies, and a query parameter by name with its constraints', () => {
    expect(describePathParameter('id', '/api/v1/plant/{id}/power/day')).toBe('Id of the plant');
    expect(describePathParameter('sn', '/api/v1/inverter/:sn')).toBe('Serial number of the inverter');
    expect(describeQueryParameter('batteryTypeId')).toBe('Id of a battery type');
    expect(describeQueryParameter('gridDateFrom')).toContain('YYYY-MM-DD');
    expect(describeQueryParameter('flowPlantId')).toBe('Flow plant id');
    expect(constraints({ type: 'integer', minimum: 1, maximum: 100, default: 20 })).toBe(' (integer, 1–100, default 20)');
  });

  it('makes examples that satisfy the schema: enums, ranges, patterns, tuples, references', () => {
    const components = { Point: { type: 'array', prefixItems: [{ type: 'number' }, { type: 'integer', minimum: 5 }] } };
    expect(exampleOf({ type: 'string', enum: ['asc', 'desc'] }, components)).toBe('asc');
    expect(exampleOf({ type: 'integer', minimum: -9007199254740991, maximum: 9007199254740991 }, components)).toBe(1);
    expect(exampleOf({ type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' }, components, 'from')).toBe('2026-06-01');
    expect(exampleOf({ type: 'string' }, components, 'timezone')).toBe('Europe/Berlin');
    expect(exampleOf({ type: 'array', items: { $ref: '#/components/schemas/Point' } }, components)).toEqual([[1, 5]]);
    expect(exampleOf({ type: 'string', pattern: '^Z{40}$' }, components)).toBeUndefined();
  });
});
