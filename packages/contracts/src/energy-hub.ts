import { z } from 'zod';
import type { PermissionKey } from './permissions.js';
import { PLANT_ACCESS_LEVELS } from './plants.js';

/**
 * The energy hub (issue 23 part 4, spec 02 "Energy hub"): a plant enrolled in a utility's demand-response
 * programme, the programme's events, the batteries that answer them and what they delivered. OpenADR 2.0b
 * (part 5) feeds the same events from a utility's VTN.
 */
export const ENERGY_HUB_LIMITS = {
  programIdMax: 64,
  /** Spec 02: the utility account number is lowercase letters, digits, underscore or dash, at most 20. */
  utilityAccountMax: 20,
  /** Spec 02: the source account number is digits only. */
  sourceAccountMax: 32,
  nameMax: 50,
  emailMax: 100,
  addressFieldMax: 100,
  devicesMax: 20,
  snMax: 64,
  eventIdMax: 64,
  durationMinutesMax: 24 * 60,
  powerWMax: 10_000_000,
} as const;

export const UTILITY_ACCOUNT_PATTERN = /^[a-z0-9_-]{1,20}$/;
export const SOURCE_ACCOUNT_PATTERN = /^\d{1,32}$/;

export const EnergyHubAddressSchema = z.object({
  country: z.string().trim().min(1).max(ENERGY_HUB_LIMITS.addressFieldMax),
  region: z.string().trim().min(1).max(ENERGY_HUB_LIMITS.addressFieldMax),
  locality: z.string().trim().min(1).max(ENERGY_HUB_LIMITS.addressFieldMax),
  street: z.string().trim().min(1).max(ENERGY_HUB_LIMITS.addressFieldMax),
  postalCode: z.string().trim().min(1).max(20),
});
export type EnergyHubAddress = z.infer<typeof EnergyHubAddressSchema>;

/** One battery of the plant, by SN, as the programme wants it described. */
export const EnrollmentDeviceSchema = z.object({
  sn: z.string().trim().min(1).max(ENERGY_HUB_LIMITS.snMax),
  manufacturer: z.string().trim().min(1).max(ENERGY_HUB_LIMITS.nameMax),
  model: z.string().trim().min(1).max(ENERGY_HUB_LIMITS.nameMax),
  installDate: z.iso.date(),
  /** Usable storage capacity, kWh. */
  storageCapacityKwh: z.number().positive().max(100_000),
  /** Rated charge (and discharge) power, kW. */
  chargeCapacityKw: z.number().positive().max(100_000),
});
export type EnrollmentDevice = z.infer<typeof EnrollmentDeviceSchema>;

/**
 * The enrollment form. The account numbers' rules are checked by the service too (codes 4636, 4637), so the
 * form shows the spec's message beside the field rather than a generic validation error.
 */
export const EnrollmentBodySchema = z.object({
  plantId: z.number().int().positive(),
  programId: z.string().trim().min(1).max(ENERGY_HUB_LIMITS.programIdMax),
  sourceAccountNumber: z.string().trim().min(1).max(64),
  utilityAccountNumber: z.string().trim().min(1).max(64),
  firstName: z.string().trim().min(1).max(ENERGY_HUB_LIMITS.nameMax),
  lastName: z.string().trim().min(1).max(ENERGY_HUB_LIMITS.nameMax),
  email: z.email().max(ENERGY_HUB_LIMITS.emailMax),
  serviceAddress: EnergyHubAddressSchema,
  mailingAddress: EnergyHubAddressSchema,
  devices: z.array(EnrollmentDeviceSchema).min(1).max(ENERGY_HUB_LIMITS.devicesMax),
});
export type EnrollmentBody = z.infer<typeof EnrollmentBodySchema>;

export const ENROLLMENT_STATES = ['pending', 'accepted', 'rejected', 'unenrolled'] as const;
export const EnrollmentStateSchema = z.enum(ENROLLMENT_STATES);
export type EnrollmentState = z.infer<typeof EnrollmentStateSchema>;

/** Response settings: the SOC every battery keeps, which batteries answer events, the most they discharge. */
export const ResponseSettingsSchema = z.object({
  minSocPct: z.number().int().min(0).max(100),
  /** Per battery, W; null: the event's share, up to the battery's charge capacity. */
  maxDischargeW: z.number().int().positive().max(ENERGY_HUB_LIMITS.powerWMax).nullable(),
  /** SNs of the enrolled batteries that take part. */
  devices: z.array(z.string().min(1).max(ENERGY_HUB_LIMITS.snMax)).max(ENERGY_HUB_LIMITS.devicesMax),
});
export type ResponseSettings = z.infer<typeof ResponseSettingsSchema>;

/** OpenADR 2.0b settings of an enrollment's programme (the energy hub as a VEN). */
export const OpenAdrSettingsSchema = z.object({
  /** The VTN's base address, e.g. https://vtn.example.com/OpenADR2/Simple/2.0b; null: no VTN (events from the console). */
  vtnUrl: z
    .url({ protocol: /^https?$/ })
    .max(500)
    .nullable(),
  venName: z.string().trim().min(1).max(100),
  /** Given by the VTN at registration; null until registered. */
  venId: z.string().max(100).nullable(),
});
export type OpenAdrSettings = z.infer<typeof OpenAdrSettingsSchema>;
export const OpenAdrSettingsBodySchema = OpenAdrSettingsSchema.pick({ vtnUrl: true, venName: true });
export type OpenAdrSettingsBody = z.infer<typeof OpenAdrSettingsBodySchema>;

/**
 * The caller's level on the enrollment's plant (plants/plant-access.ts): view reads, operate enrols, answers events
 * and changes settings, manage is the programme's side (accept or reject, publish or cancel an event). The server
 * checks it with the route's permission key on every call; the console only hides or disables buttons by it.
 */
/** The permission key every energy hub write asks for (with the level on the plant); the console hides by it too. */
export const ENERGY_HUB_WRITE_KEY = 'station.edit' satisfies PermissionKey;

export const HubAccessSchema = z.enum(PLANT_ACCESS_LEVELS);

export const EnrollmentSchema = EnrollmentBodySchema.extend({
  id: z.number().int(),
  plantName: z.string(),
  access: HubAccessSchema,
  state: EnrollmentStateSchema,
  settings: ResponseSettingsSchema,
  openadr: OpenAdrSettingsSchema.extend({ registrationId: z.string().nullable(), lastPollAt: z.string().nullable() }),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Enrollment = z.infer<typeof EnrollmentSchema>;

export const EnrollmentListSchema = z.object({ infos: z.array(EnrollmentSchema) });
export type EnrollmentList = z.infer<typeof EnrollmentListSchema>;

/** The programme's answer to an enrollment (its operator in the console, or the VTN's registration). */
export const EnrollmentReviewSchema = z.object({ accept: z.boolean() });
export type EnrollmentReview = z.infer<typeof EnrollmentReviewSchema>;

export const EVENT_STATES = ['pending', 'active', 'completed', 'cancelled'] as const;
export const EventStateSchema = z.enum(EVENT_STATES);
export type EnergyEventState = z.infer<typeof EventStateSchema>;

/** The site's answer: none yet, in (join, opt in), out (reject, opt out). */
export const EVENT_RESPONSES = ['none', 'optIn', 'optOut'] as const;
export const EventResponseSchema = z.enum(EVENT_RESPONSES);
export type EnergyEventResponse = z.infer<typeof EventResponseSchema>;

export const EVENT_ACTIONS = ['join', 'reject', 'optIn', 'optOut'] as const;
export const EventActionSchema = z.enum(EVENT_ACTIONS);
export type EnergyEventAction = z.infer<typeof EventActionSchema>;
export const EventRespondSchema = z.object({ action: EventActionSchema });
export type EventRespond = z.infer<typeof EventRespondSchema>;

/** A device's part in an event: waiting, discharging, done (end, floor or opt-out), skipped (with why), failed. */
export const EVENT_RESULT_OUTCOMES = ['discharging', 'done', 'skipped', 'failed'] as const;
export const EventResultOutcomeSchema = z.enum(EVENT_RESULT_OUTCOMES);
export type EventResultOutcome = z.infer<typeof EventResultOutcomeSchema>;

export const EventDeviceResultSchema = z.object({
  sn: z.string(),
  outcome: EventResultOutcomeSchema,
  code: z.number().int().nullable(),
  message: z.string().nullable(),
  askedW: z.number(),
  askedKwh: z.number(),
  deliveredKwh: z.number(),
  startSocPct: z.number().nullable(),
  socPct: z.number().nullable(),
  startedAt: z.string().nullable(),
  endedAt: z.string().nullable(),
});
export type EventDeviceResult = z.infer<typeof EventDeviceResultSchema>;

export const EVENT_SOURCES = ['console', 'openadr'] as const;

export const EnergyEventSchema = z.object({
  id: z.number().int(),
  enrollmentId: z.number().int(),
  plantId: z.number().int(),
  plantName: z.string(),
  /** The programme's event id. */
  eventId: z.string(),
  /** 0 normal … 3 special (OpenADR SIMPLE signal levels). */
  participationLevel: z.number().int().min(0).max(3),
  start: z.string(),
  durationMinutes: z.number().int(),
  end: z.string(),
  /** Power asked of the site, W. */
  powerDischargeW: z.number().int(),
  state: EventStateSchema,
  response: EventResponseSchema,
  source: z.enum(EVENT_SOURCES),
  /** The caller's level on the event's plant (HubAccessSchema). */
  access: HubAccessSchema,
  results: z.array(EventDeviceResultSchema),
});
export type EnergyEvent = z.infer<typeof EnergyEventSchema>;

export const EventListSchema = z.object({ infos: z.array(EnergyEventSchema) });
export type EventList = z.infer<typeof EventListSchema>;

/** An event as the programme sends it (its operator in the console; OpenADR events arrive over the VEN). */
export const EventCreateSchema = z.object({
  eventId: z.string().trim().min(1).max(ENERGY_HUB_LIMITS.eventIdMax),
  participationLevel: z.number().int().min(0).max(3),
  start: z.iso.datetime({ offset: true }),
  durationMinutes: z.number().int().min(1).max(ENERGY_HUB_LIMITS.durationMinutesMax),
  powerDischargeW: z.number().int().positive().max(ENERGY_HUB_LIMITS.powerWMax),
});
export type EventCreate = z.infer<typeof EventCreateSchema>;

/** The writable battery point the dispatch sets (W, 0 = back to the battery's own mode). */
export const DISCHARGE_POINT = 'DrDisW';

/** A plant's batteries the enrollment form offers (the SN, and what the device reports of its make). */
export const PlantBatteriesSchema = z.object({
  infos: z.array(z.object({ sn: z.string(), model: z.string().nullable(), manufacturer: z.string().nullable() })),
});
export type PlantBatteries = z.infer<typeof PlantBatteriesSchema>;

export const EventListQuerySchema = z.object({ enrollmentId: z.coerce.number().int().positive().optional() });
export type EventListQuery = z.infer<typeof EventListQuerySchema>;
