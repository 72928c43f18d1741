import { Code } from '@sunward/contracts/codes';
import {
  type EnergyEventAction,
  EnergyEventSchema,
  type EnrollmentBody,
  EnrollmentListSchema,
  EnrollmentSchema,
  type EventCreate,
  EventListSchema,
  type OpenAdrSettingsBody,
  PlantBatteriesSchema,
  type ResponseSettings,
} from '@sunward/contracts/energy-hub';
import { ApiCallError, apiRequest, fieldErrors } from '../../lib/api-client';

/** Refusals the energy hub pages show themselves (beside a field, as a message, or as the app-not-enabled page). */
const HUB_CODES = [
  Code.VALIDATION,
  Code.NO_PERMISSION,
  Code.APP_NOT_ENABLED,
  Code.PLANT_NOT_FOUND,
  Code.ENERGY_HUB_ENROLLMENT_NOT_FOUND,
  Code.ENERGY_HUB_DEVICE_NOT_FOUND,
  Code.ENERGY_HUB_DEVICE_USED,
  Code.ENERGY_HUB_CUSTOMER_BOUND,
  Code.ENERGY_HUB_SN_REPEATED,
  Code.ENERGY_HUB_ACCOUNT_BOUND,
  Code.ENERGY_HUB_UTILITY_ACCOUNT_INVALID,
  Code.ENERGY_HUB_SOURCE_ACCOUNT_INVALID,
  Code.ENERGY_HUB_ENROLLMENT_STATE,
  Code.ENERGY_HUB_EVENT_NOT_FOUND,
  Code.ENERGY_HUB_EVENT_STATE,
  Code.ENERGY_HUB_EVENT_EXISTS,
  Code.ENERGY_HUB_NOT_BATTERY,
  Code.ENERGY_HUB_SETTINGS_DEVICE,
];

/** The page of an app the company has not enabled. */
export const NOT_ENABLED_CODES: readonly number[] = [Code.APP_NOT_ENABLED];

export const hubKeys = {
  all: ['energyHub'] as const,
  enrollments: ['energyHub', 'enrollments'] as const,
  events: ['energyHub', 'events'] as const,
  batteries: (plantId: number) => ['energyHub', 'batteries', plantId] as const,
};

export const fetchEnrollments = () => apiRequest('/api/v1/energyHub/enrollments', { schema: EnrollmentListSchema, tolerate: HUB_CODES });

export const fetchBatteries = (plantId: number) =>
  apiRequest(`/api/v1/energyHub/plant/${plantId}/batteries`, { schema: PlantBatteriesSchema, tolerate: HUB_CODES });

export const enroll = (body: EnrollmentBody) =>
  apiRequest('/api/v1/energyHub/enrollments', { method: 'POST', json: body, schema: EnrollmentSchema, tolerate: HUB_CODES });

export const reviewEnrollment = (id: number, accept: boolean) =>
  apiRequest(`/api/v1/energyHub/enrollments/${id}/review`, {
    method: 'POST',
    json: { accept },
    schema: EnrollmentSchema,
    tolerate: HUB_CODES,
  });

export const unenroll = (id: number) =>
  apiRequest(`/api/v1/energyHub/enrollments/${id}/unenroll`, { method: 'POST', json: {}, schema: EnrollmentSchema, tolerate: HUB_CODES });

export const saveSettings = (id: number, body: ResponseSettings) =>
  apiRequest(`/api/v1/energyHub/enrollments/${id}/settings`, { method: 'POST', json: body, schema: EnrollmentSchema, tolerate: HUB_CODES });

export const saveOpenAdr = (id: number, body: OpenAdrSettingsBody) =>
  apiRequest(`/api/v1/energyHub/enrollments/${id}/openadr`, { method: 'POST', json: body, schema: EnrollmentSchema, tolerate: HUB_CODES });

export const fetchEvents = () => apiRequest('/api/v1/energyHub/events', { schema: EventListSchema, tolerate: HUB_CODES });

/** The programme's event for an accepted enrollment (manage on the plant; a VTN sends them over OpenADR instead). */
export const publishEvent = (enrollmentId: number, body: EventCreate) =>
  apiRequest(`/api/v1/energyHub/enrollments/${enrollmentId}/events`, {
    method: 'POST',
    json: body,
    schema: EnergyEventSchema,
    tolerate: HUB_CODES,
  });

export const respond = (id: number, action: EnergyEventAction) =>
  apiRequest(`/api/v1/energyHub/events/${id}/respond`, {
    method: 'POST',
    json: { action },
    schema: EnergyEventSchema,
    tolerate: HUB_CODES,
  });

/**
 * Field → message of a refusal: code 4's problems, and the energy hub's own refusals that name their field (the
 * account rules, a repeated or unknown SN, a bound account or battery: `{ errors: [{ field, message }] }`).
 */
export function hubFieldErrors(error: unknown): Record<string, string> {
  const own = fieldErrors(error);
  if (Object.keys(own).length > 0 || !(error instanceof ApiCallError)) return own;
  const errors: unknown = (error.data as { errors?: unknown } | null)?.errors;
  if (!Array.isArray(errors)) return {};
  return Object.fromEntries(
    errors
      .filter((e): e is { field: string; message: string } => typeof e?.field === 'string' && typeof e?.message === 'string')
      .map((e) => [e.field, e.message]),
  );
}
