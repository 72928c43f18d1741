import { Code, type ResponseCode } from '@sunward/contracts/codes';
import {
  ENERGY_HUB_WRITE_KEY,
  ENROLLMENT_STATES,
  type EnergyEvent,
  type EnergyEventAction,
  type EnergyEventResponse,
  type EnergyEventState,
  type Enrollment,
  type EnrollmentBody,
  type EnrollmentState,
  EVENT_RESPONSES,
  EVENT_RESULT_OUTCOMES,
  EVENT_STATES,
  type EventCreate,
  type OpenAdrSettingsBody,
  type ResponseSettings,
} from '@sunward/contracts/energy-hub';
import type { Language } from '@sunward/contracts/languages';
import { isMessageKey, translate } from '@sunward/contracts/messages';
import type { PlantAccessLevel } from '@sunward/contracts/plants';
import { isUniqueViolation } from '../../db/errors.js';
import { ApiError } from '../../lib/envelope.js';
import type { AuthContext } from '../../plugins/auth.js';
import type { OperationLog } from '../audit/operation-log.js';
import { addressOf, type EnergyHubRepository, type EnrollmentFull, type EventRecord } from './energy-hub.repository.js';
import type { EnergyHubDispatch } from './energy-hub-dispatch.js';
import { canMoveEnrollment, formRefusal, isLive, responseOf, responseRefusal } from './energy-hub-rules.js';

/** What the energy hub needs of the plants (plants/plant-access.ts). */
export interface HubPlantAccess {
  require(auth: AuthContext, plantId: number, needed: PlantAccessLevel): Promise<PlantAccessLevel>;
  levels(auth: AuthContext, plantIds: readonly number[]): Promise<Map<number, PlantAccessLevel>>;
  visiblePlantIds(auth: AuthContext): Promise<Set<number> | undefined>;
}

const oneOf = <T extends string>(values: readonly T[], value: string, fallback: T): T => values.find((v) => v === value) ?? fallback;

const messageOf = (language: Language, code: number | null): string | null => {
  if (code === null) return null;
  const key = `code.${code}`;
  return isMessageKey(key) ? translate(language, key) : translate(language, 'code.500');
};

/** A refusal of the form, with the field it is about (the console shows the message beside it). */
function fieldRefusal(code: ResponseCode, field: string, language: Language): ApiError {
  return new ApiError(code, {}, { errors: [{ field, message: translate(language, `code.${code}` as 'code.4630') }] });
}

export function presentEnrollment(e: EnrollmentFull, access: PlantAccessLevel): Enrollment {
  return {
    id: e.id,
    plantId: e.plantId,
    plantName: e.plantName,
    access,
    programId: e.programId,
    sourceAccountNumber: e.sourceAccount,
    utilityAccountNumber: e.utilityAccount,
    firstName: e.firstName,
    lastName: e.lastName,
    email: e.email,
    serviceAddress: addressOf(e.serviceAddress),
    mailingAddress: addressOf(e.mailingAddress),
    devices: e.devices.map((d) => ({
      sn: d.sn,
      manufacturer: d.manufacturer,
      model: d.model,
      installDate: d.installDate,
      storageCapacityKwh: d.storageKwh,
      chargeCapacityKw: d.chargeKw,
    })),
    state: oneOf(ENROLLMENT_STATES, e.state, 'pending'),
    settings: {
      minSocPct: e.minSocPct,
      maxDischargeW: e.maxDischargeW,
      devices: e.devices.filter((d) => d.participates).map((d) => d.sn),
    },
    openadr: {
      vtnUrl: e.vtnUrl,
      venName: e.venName ?? `sunward-${e.id}`,
      venId: e.venId,
      registrationId: e.registrationId,
      lastPollAt: e.lastPollAt?.toISOString() ?? null,
    },
    createdAt: e.createdAt.toISOString(),
    updatedAt: e.updatedAt.toISOString(),
  };
}

/**
 * The energy hub (issue 23 part 4): enrollment of a plant's batteries in a demand-response programme, the
 * programme's answer, the events and the site's answers, response settings. Every call is behind the company's
 * energy hub app (routes) and the caller's level on the plant: view to read, operate to enrol and answer, manage
 * for the programme's side in the console (accept or reject, publish an event) when no VTN does it.
 */
export function createEnergyHubService(deps: {
  repository: EnergyHubRepository;
  plants: HubPlantAccess;
  dispatch: EnergyHubDispatch;
  log: OperationLog;
}) {
  const { repository, plants, dispatch, log } = deps;

  /** The enrollment at the caller's level on its plant; another company's is 4630, as a missing one. */
  async function reach(auth: AuthContext, id: number, needed: PlantAccessLevel): Promise<EnrollmentFull> {
    const found = await repository.find(id);
    if (!found) throw new ApiError(Code.ENERGY_HUB_ENROLLMENT_NOT_FOUND);
    try {
      await plants.require(auth, found.plantId, needed);
    } catch (error) {
      if (error instanceof ApiError && error.responseCode === Code.PLANT_NOT_FOUND)
        throw new ApiError(Code.ENERGY_HUB_ENROLLMENT_NOT_FOUND);
      throw error;
    }
    return found;
  }

  async function reachEvent(auth: AuthContext, id: number, needed: PlantAccessLevel) {
    const event = await repository.event(id);
    if (!event) throw new ApiError(Code.ENERGY_HUB_EVENT_NOT_FOUND);
    try {
      return { event, enrollment: await reach(auth, event.enrollmentId, needed) };
    } catch (error) {
      if (error instanceof ApiError && error.responseCode === Code.ENERGY_HUB_ENROLLMENT_NOT_FOUND)
        throw new ApiError(Code.ENERGY_HUB_EVENT_NOT_FOUND);
      throw error;
    }
  }

  /**
   * What the caller may do with each enrollment's plant here, as the server checks it: their level on the plant,
   * but only view without the write routes' key (station.edit) or on a read-only account (the console hides or
   * disables what the server would refuse).
   */
  async function levelsOf(auth: AuthContext, enrollments: Iterable<EnrollmentFull>): Promise<Map<number, PlantAccessLevel>> {
    const levels = await plants.levels(auth, [...new Set([...enrollments].map((e) => e.plantId))]);
    if (auth.readOnly || !auth.permissions.has(ENERGY_HUB_WRITE_KEY)) for (const id of levels.keys()) levels.set(id, 'view');
    return levels;
  }

  /** An enrollment as the caller sees it, with their level on its plant. */
  async function present(auth: AuthContext, e: EnrollmentFull): Promise<Enrollment> {
    return presentEnrollment(e, (await levelsOf(auth, [e])).get(e.plantId) ?? 'view');
  }

  async function presentEvents(
    events: EventRecord[],
    enrollments: Map<number, EnrollmentFull>,
    language: Language,
    levels: Map<number, PlantAccessLevel>,
  ): Promise<EnergyEvent[]> {
    const results = await repository.results(events.map((e) => e.id));
    return events.map((e) => {
      const enrollment = enrollments.get(e.enrollmentId);
      const state = oneOf(EVENT_STATES, e.state, 'pending');
      return {
        id: e.id,
        enrollmentId: e.enrollmentId,
        plantId: enrollment?.plantId ?? 0,
        plantName: enrollment?.plantName ?? '',
        eventId: e.eventId,
        participationLevel: e.participationLevel,
        start: e.startAt.toISOString(),
        durationMinutes: e.durationMinutes,
        end: e.endAt.toISOString(),
        powerDischargeW: e.powerW,
        state,
        response: oneOf(EVENT_RESPONSES, e.response, 'none'),
        source: e.source === 'openadr' ? 'openadr' : 'console',
        access: levels.get(enrollment?.plantId ?? 0) ?? 'view',
        results: results
          .filter((r) => r.eventId === e.id)
          .map((r) => ({
            sn: r.sn,
            outcome: oneOf(EVENT_RESULT_OUTCOMES, r.outcome, 'failed'),
            code: r.code,
            message: messageOf(language, r.code),
            askedW: r.askedW,
            askedKwh: Math.round(r.askedWh) / 1000,
            deliveredKwh: Math.round(r.deliveredWh) / 1000,
            startSocPct: r.startSocPct,
            socPct: r.socPct,
            startedAt: r.startedAt?.toISOString() ?? null,
            endedAt: r.endedAt?.toISOString() ?? null,
          })),
      };
    });
  }

  /** Which rule an enrollment breaks against the live ones (checked before the insert and again after a refused one). */
  async function conflict(body: EnrollmentBody, deviceIds: Map<number, number>, language: Language): Promise<ApiError | null> {
    if (await repository.livePlant(body.plantId)) return new ApiError(Code.ENERGY_HUB_CUSTOMER_BOUND);
    if (await repository.liveAccount(body.programId, body.utilityAccountNumber))
      return fieldRefusal(Code.ENERGY_HUB_ACCOUNT_BOUND, 'utilityAccountNumber', language);
    const used = new Set(await repository.liveDevices([...deviceIds.keys()]));
    for (const [deviceId, index] of deviceIds)
      if (used.has(deviceId)) return fieldRefusal(Code.ENERGY_HUB_DEVICE_USED, `devices.${index}.sn`, language);
    return null;
  }

  async function record(auth: AuthContext, e: { id: number; plantId: number }, action: string, request: unknown, target?: string) {
    await log.record(auth, {
      action: `energyHub.${action}`,
      targetType: 'plant',
      target: target ?? String(e.plantId),
      plantId: e.plantId,
      result: 'ok',
      request: { enrollmentId: e.id, ...(request && typeof request === 'object' ? request : {}) },
    });
  }

  async function move(_auth: AuthContext, found: EnrollmentFull, to: EnrollmentState): Promise<void> {
    const from = oneOf(ENROLLMENT_STATES, found.state, 'pending');
    if (!canMoveEnrollment(from, to) || !(await repository.move(found.id, from, to, isLive(to))))
      throw new ApiError(Code.ENERGY_HUB_ENROLLMENT_STATE);
    if (isLive(to)) return;
    // Leaving the programme ends its events: pending ones are cancelled, running ones stopped.
    for (const event of await repository.events([found.id])) {
      if (event.state === 'pending') await repository.claim(event.id, 'pending', 'cancelled');
      if (event.state === 'active' && (await repository.claim(event.id, 'active', 'cancelled'))) await dispatch.stopEvent(event);
    }
  }

  /** Enrollments the caller sees (the event list's scope). */
  async function visible(auth: AuthContext): Promise<EnrollmentFull[]> {
    const visible = await plants.visiblePlantIds(auth);
    return repository.list(visible ? [...visible] : undefined);
  }

  /** An event for an enrollment, from the console or the VTN; refused unless the enrollment is accepted. */
  async function receiveEvent(
    enrollment: EnrollmentFull,
    body: EventCreate,
    origin: { source: 'console' | 'openadr'; requestId: string | null; modificationNumber: number },
  ): Promise<number> {
    if (enrollment.state !== 'accepted') throw new ApiError(Code.ENERGY_HUB_ENROLLMENT_STATE);
    const startAt = new Date(body.start);
    const id = await repository.addEvent({
      enrollmentId: enrollment.id,
      eventId: body.eventId,
      participationLevel: body.participationLevel,
      startAt,
      endAt: new Date(startAt.getTime() + body.durationMinutes * 60_000),
      durationMinutes: body.durationMinutes,
      powerW: body.powerDischargeW,
      state: 'pending',
      response: 'none',
      source: origin.source,
      requestId: origin.requestId,
      modificationNumber: origin.modificationNumber,
      responsePending: false,
    });
    if (id === undefined) throw new ApiError(Code.ENERGY_HUB_EVENT_EXISTS);
    return id;
  }

  async function cancelReceived(event: EventRecord): Promise<void> {
    const state = oneOf(EVENT_STATES, event.state, 'pending');
    if (state === 'completed' || state === 'cancelled') throw new ApiError(Code.ENERGY_HUB_EVENT_STATE);
    if (!(await repository.claim(event.id, state, 'cancelled'))) throw new ApiError(Code.ENERGY_HUB_EVENT_STATE);
    if (state === 'active') await dispatch.stopEvent(event);
  }

  async function eventOf(auth: AuthContext, id: number, language: Language): Promise<EnergyEvent> {
    const { event, enrollment } = await reachEvent(auth, id, 'view');
    const [presented] = await presentEvents([event], new Map([[enrollment.id, enrollment]]), language, await levelsOf(auth, [enrollment]));
    if (!presented) throw new ApiError(Code.ENERGY_HUB_EVENT_NOT_FOUND);
    return presented;
  }

  return {
    receiveEvent,
    cancelReceived,
    event: eventOf,

    /** The plant's batteries, for the enrollment form. */
    async batteries(auth: AuthContext, plantId: number) {
      await plants.require(auth, plantId, 'view');
      return (await repository.plantBatteries(plantId)).map((b) => ({ sn: b.sn, model: b.model, manufacturer: b.brand }));
    },

    async list(auth: AuthContext): Promise<Enrollment[]> {
      const visible = await plants.visiblePlantIds(auth);
      const list = await repository.list(visible ? [...visible] : undefined);
      const levels = await levelsOf(auth, list);
      return list.map((e) => presentEnrollment(e, levels.get(e.plantId) ?? 'view'));
    },

    async get(auth: AuthContext, id: number): Promise<Enrollment> {
      return present(auth, await reach(auth, id, 'view'));
    },

    /**
     * enrollPlant: checks the form (account rules, repeated SN), that every SN is a battery of the plant, and
     * that neither the plant, the utility account in the programme nor a battery is in another live enrollment;
     * then the enrollment and its batteries in one transaction, pending the programme's answer.
     */
    async enroll(auth: AuthContext, body: EnrollmentBody, language: Language): Promise<Enrollment> {
      await plants.require(auth, body.plantId, 'operate');
      const refused = formRefusal(body);
      if (refused) throw fieldRefusal(refused.code, refused.field, language);
      const found = await repository.plantDevices(
        body.plantId,
        body.devices.map((d) => d.sn),
      );
      const bySn = new Map(found.map((d) => [d.sn.toLowerCase(), d]));
      const deviceIds = new Map<number, number>();
      for (const [index, device] of body.devices.entries()) {
        const match = bySn.get(device.sn.toLowerCase());
        if (!match) throw fieldRefusal(Code.ENERGY_HUB_DEVICE_NOT_FOUND, `devices.${index}.sn`, language);
        if (match.family !== 'battery') throw fieldRefusal(Code.ENERGY_HUB_NOT_BATTERY, `devices.${index}.sn`, language);
        deviceIds.set(match.id, index);
      }
      const before = await conflict(body, deviceIds, language);
      if (before) throw before;
      let id: number;
      try {
        id = await repository.enrollPlant(
          {
            plantId: body.plantId,
            userId: auth.userId,
            programId: body.programId,
            sourceAccount: body.sourceAccountNumber,
            utilityAccount: body.utilityAccountNumber,
            firstName: body.firstName,
            lastName: body.lastName,
            email: body.email,
            serviceAddress: body.serviceAddress,
            mailingAddress: body.mailingAddress,
            state: 'pending',
            active: true,
            venName: null,
          },
          body.devices.map((d) => {
            const match = bySn.get(d.sn.toLowerCase());
            return {
              deviceId: match?.id ?? 0,
              sn: match?.sn ?? d.sn,
              manufacturer: d.manufacturer,
              model: d.model,
              installDate: d.installDate,
              storageKwh: d.storageCapacityKwh,
              chargeKw: d.chargeCapacityKw,
              participates: true,
              active: true,
            };
          }),
        );
      } catch (error) {
        // A concurrent enrollment took the plant, the account or a battery between the checks and the insert.
        if (!isUniqueViolation(error)) throw error;
        throw (await conflict(body, deviceIds, language)) ?? new ApiError(Code.ENERGY_HUB_CUSTOMER_BOUND);
      }
      const made = await repository.find(id);
      if (!made) throw new ApiError(Code.ENERGY_HUB_ENROLLMENT_NOT_FOUND);
      await record(auth, made, 'enroll', { programId: body.programId, devices: body.devices.map((d) => d.sn) });
      return present(auth, made);
    },

    /** The programme's answer in the console (manage on the plant): pending → accepted or rejected, once. */
    async review(auth: AuthContext, id: number, accept: boolean): Promise<Enrollment> {
      const found = await reach(auth, id, 'manage');
      await move(auth, found, accept ? 'accepted' : 'rejected');
      await record(auth, found, accept ? 'accept' : 'reject', {});
      return present(auth, (await repository.find(id)) ?? found);
    },

    /** The programme's answer from its VTN (OpenADR registration). */
    async reviewFromVtn(id: number, accept: boolean): Promise<void> {
      await repository.move(id, 'pending', accept ? 'accepted' : 'rejected', accept);
    },

    async unenroll(auth: AuthContext, id: number): Promise<Enrollment> {
      const found = await reach(auth, id, 'operate');
      await move(auth, found, 'unenrolled');
      await record(auth, found, 'unenroll', {});
      return present(auth, (await repository.find(id)) ?? found);
    },

    async saveSettings(auth: AuthContext, id: number, body: ResponseSettings, language: Language): Promise<Enrollment> {
      const found = await reach(auth, id, 'operate');
      const bySn = new Map(found.devices.map((d) => [d.sn.toLowerCase(), d.id]));
      const participating: number[] = [];
      for (const [index, sn] of body.devices.entries()) {
        const rowId = bySn.get(sn.toLowerCase());
        if (rowId === undefined) throw fieldRefusal(Code.ENERGY_HUB_SETTINGS_DEVICE, `devices.${index}`, language);
        participating.push(rowId);
      }
      await repository.saveSettings(id, { minSocPct: body.minSocPct, maxDischargeW: body.maxDischargeW, participating });
      await record(auth, found, 'settings', body);
      return present(auth, (await repository.find(id)) ?? found);
    },

    async saveOpenAdr(auth: AuthContext, id: number, body: OpenAdrSettingsBody): Promise<Enrollment> {
      const found = await reach(auth, id, 'operate');
      const changed = found.vtnUrl !== body.vtnUrl;
      await repository.saveOpenAdr(id, {
        vtnUrl: body.vtnUrl,
        venName: body.venName,
        // Another VTN: registration starts again.
        ...(changed ? { venId: null, registrationId: null } : {}),
      });
      await record(auth, found, 'openadr', body);
      return present(auth, (await repository.find(id)) ?? found);
    },

    async events(auth: AuthContext, language: Language, enrollmentId?: number): Promise<EnergyEvent[]> {
      const enrollments = enrollmentId === undefined ? await visible(auth) : [await reach(auth, enrollmentId, 'view')];
      const byId = new Map(enrollments.map((e) => [e.id, e]));
      return presentEvents(await repository.events([...byId.keys()]), byId, language, await levelsOf(auth, enrollments));
    },

    /**
     * An event from the programme (its operator in the console): only for an accepted enrollment (4638: an event
     * for a site not enrolled), once per event id (4643).
     */
    async addEvent(auth: AuthContext, enrollmentId: number, body: EventCreate, language: Language): Promise<EnergyEvent> {
      const found = await reach(auth, enrollmentId, 'manage');
      const id = await receiveEvent(found, body, { source: 'console', requestId: null, modificationNumber: 0 });
      await record(auth, found, 'event.add', body);
      return eventOf(auth, id, language);
    },

    /** The programme cancels an event: a pending one is cancelled, a running one stopped and cancelled. */
    async cancelEvent(auth: AuthContext, id: number, language: Language): Promise<EnergyEvent> {
      const { event, enrollment } = await reachEvent(auth, id, 'manage');
      await cancelReceived(event);
      await record(auth, enrollment, 'event.cancel', { eventId: event.eventId });
      return eventOf(auth, id, language);
    },

    /**
     * The site's answer (operate on the plant): join or reject a pending event, opt in or out until it ends. Opting
     * in to a running event starts its batteries now; opting out stops them. A VTN's event is answered to the VTN
     * at the next poll (oadrCreatedEvent).
     */
    async respond(auth: AuthContext, id: number, action: EnergyEventAction, language: Language): Promise<EnergyEvent> {
      const { event, enrollment } = await reachEvent(auth, id, 'operate');
      if (enrollment.state !== 'accepted') throw new ApiError(Code.ENERGY_HUB_ENROLLMENT_STATE);
      const state: EnergyEventState = oneOf(EVENT_STATES, event.state, 'pending');
      const refusal = responseRefusal(state, oneOf(EVENT_RESPONSES, event.response, 'none'), action);
      if (refusal !== null) throw new ApiError(refusal);
      const response: EnergyEventResponse = responseOf(action);
      await repository.updateEvent(id, { response, responsePending: event.source === 'openadr' });
      const updated = { ...event, response };
      if (state === 'active') {
        if (response === 'optIn') await dispatch.startEvent(updated);
        else await dispatch.stopEvent(updated);
      }
      await record(auth, enrollment, `event.${action}`, { eventId: event.eventId });
      return eventOf(auth, id, language);
    },
  };
}

export type EnergyHubService = ReturnType<typeof createEnergyHubService>;
