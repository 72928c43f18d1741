/**
 * Descriptions of the API's parameters (issue 25): the common names once here, any other name said in words
 * from its own spelling, with its constraints (type, range, values) appended. A route can still describe a
 * field itself (zod `.meta({ description })`), which wins.
 */

type JsonSchema = Record<string, unknown>;

const QUERY: Readonly<Record<string, string>> = {
  page: 'Page number, from 1',
  size: 'Rows per page',
  keyword: 'Text searched for (part of a name, SN or account; case-insensitive)',
  date: 'Day (YYYY-MM-DD), month (YYYY-MM) or year (YYYY) asked for, in the plant’s time zone',
  status: 'Status filter',
  plantId: 'Id of a plant the caller may see',
  plantIds: 'Ids of plants the caller may see',
  plantName: 'Part of a plant name',
  plantType: 'Plant type (dictionary code)',
  type: 'Kind filter',
  brand: 'Device brand',
  model: 'Device model',
  sort: 'Column sorted by',
  order: 'Sort order: ascending or descending',
  sn: 'Serial number of a device or gateway',
  deviceSn: 'Serial number of a device',
  deviceId: 'Id of a device',
  from: 'Start of the range (inclusive)',
  to: 'End of the range',
  points: 'Names of the measured points asked for',
  days: 'Number of days looked back',
  lan: 'Language of the texts answered (one of the ten catalogue languages)',
  language: 'Language of the texts answered (one of the ten catalogue languages)',
  account: 'Account (e-mail address or phone number)',
  id: 'Id of the record',
  ids: 'Ids of the records',
  period: 'Period: day, month, year or total',
  format: 'File format answered',
  family: 'Device family (inverter, meter, battery …)',
  name: 'Name filter',
  capacityMin: 'Smallest installed capacity (kWp)',
  capacityMax: 'Largest installed capacity (kWp)',
  region: 'Region filter',
  gridDateFrom: 'Grid connection date from (YYYY-MM-DD)',
  gridDateTo: 'Grid connection date to (YYYY-MM-DD)',
  source: 'Origin filter',
  month: 'Month (YYYY-MM)',
  year: 'Year (YYYY)',
  scope: 'Which records: the caller’s own or all visible ones',
  level: 'Severity level',
  enabled: 'Only enabled (true) or disabled (false) entries',
  version: 'Version',
  code: 'Code',
  commandId: 'Id of a command',
  firmId: 'Id of a firmware image',
  customerId: 'Id of a customer',
  configId: 'Id of a configuration',
  protocol: 'Protocol identifier',
  locked: 'Only locked (true) or unlocked (false) entries',
  batteryTypeId: 'Id of a battery type',
  product: 'Battery product',
  email: 'E-mail address',
  phone: 'Phone number',
  tz: 'IANA time zone',
  start: 'Start',
  'idempotency-key': 'A key the caller makes up per intended change; a repeat with the same key is answered, not applied again',
  'x-confirm-password': 'The caller’s password, confirming a sensitive command',
  'x-display-token': 'Token of a display link',
};

/** A path parameter: what it identifies, from the path word before it (`/plant/:id` → the plant's id). */
export function describePathParameter(name: string, url: string): string {
  const words = url.split('/').filter((word) => word !== '');
  const index = words.findIndex((word) => word === `:${name}` || word === `{${name}}`);
  const owner = words
    .slice(0, Math.max(index, 0))
    .reverse()
    .find((word) => !word.startsWith(':') && !word.startsWith('{') && word !== 'v1' && word !== 'api');
  const thing = name === 'sn' ? 'Serial number' : name === 'id' ? 'Id' : spoken(name, true);
  return owner ? `${thing} of the ${spoken(owner, false)}` : thing;
}

/** A query or header parameter: the common description, else the name in words. */
export function describeQueryParameter(name: string): string {
  return QUERY[name] ?? spoken(name, true);
}

/** The constraints of a parameter's schema in words: ` (integer, 1–100)`, ` (one of: a, b)`. */
export function constraints(schema: JsonSchema | undefined): string {
  if (!schema) return '';
  const parts: string[] = [];
  const type = Array.isArray(schema.type) ? schema.type.filter((t) => t !== 'null').join(' or ') : schema.type;
  if (Array.isArray(schema.enum)) parts.push(`one of: ${schema.enum.filter((v) => v !== null).join(', ')}`);
  else if (typeof type === 'string') parts.push(type);
  const min = schema.minimum ?? schema.exclusiveMinimum;
  const max = schema.maximum ?? schema.exclusiveMaximum;
  if (typeof min === 'number' && typeof max === 'number') parts.push(`${min}–${max}`);
  else if (typeof min === 'number') parts.push(`from ${min}`);
  else if (typeof max === 'number') parts.push(`up to ${max}`);
  if (typeof schema.maxLength === 'number') parts.push(`at most ${schema.maxLength} characters`);
  if (typeof schema.format === 'string') parts.push(schema.format);
  if (schema.default !== undefined) parts.push(`default ${JSON.stringify(schema.default)}`);
  return parts.length === 0 ? '' : ` (${parts.join(', ')})`;
}

/** `batteryTypeId` → `battery type id`; capitalised for a sentence's start. */
function spoken(name: string, capital: boolean): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[-_]+/g, ' ')
    .toLowerCase()
    .replace(/\bsn\b/g, 'SN')
    .replace(/\bid\b/g, 'id');
  return capital ? words.charAt(0).toUpperCase() + words.slice(1) : words;
}
