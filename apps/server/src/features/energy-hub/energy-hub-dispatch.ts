import { Code } from '@sunward/contracts/codes';
import { isLanguage, type Language } from '@sunward/contracts/languages';
import { translate } from '@sunward/contracts/messages';
import { roleIndex } from '@sunward/protocol/positions';
import { ApiError } from '../../lib/envelope.js';
import type { AuthContext } from '../../plugins/auth.js';
import type { BatteryReading, EnergyHubRepository, EnrollmentOwner, EventRecord, ResultRecord } from './energy-hub.repository.js';
import { askedOf, atFloor } from './energy-hub-rules.js';

/** The existing command path to devices (commands.service dischargeBattery). */
export interface DischargeCommands {
  dischargeBattery(auth: AuthContext, language: Language, sn: string, watts: number): Promise<{ commandId: number }>;
}

/** A battery's lifetime discharged energy in a reading (Wh), from the point with that role in its map. */
export function dischargedWh(reading: BatteryReading | undefined): number | null {
  if (!reading) return null;
  const index = roleIndex(reading.protocolId, 'energy_discharge_total');
  const value = index === undefined ? undefined : reading.values[index - 1];
  return value === undefined || !Number.isFinite(value) ? null : value;
}

/** The enrollment's owner as the commands see them now (their level on the plant is checked at each command). */
const runner = (owner: EnrollmentOwner, eventId: number): AuthContext => ({
  userId: owner.userId,
  sessionId: `energy-hub-event-${eventId}`,
  account: owner.account,
  roleId: 0,
  roleKey: owner.roleKey ?? '',
  companyId: owner.companyId,
  readOnly: false,
  permissions: new Set(),
  ip: '',
});

const codeOf = (error: unknown): number => (error instanceof ApiError ? error.responseCode : Code.SERVER_ERROR);

/**
 * Dispatch of demand-response events (issue 23 part 4): at an opted-in event's start each taking-part battery of an
 * accepted enrollment is told to discharge through the command path, and told to stop at the event's end, at its
 * SOC floor or on an opt-out. Starts and stops are claimed with conditional updates (the event's state, each
 * battery's result row), so several server processes never send one twice. Delivered energy is the rise of each
 * battery's reported discharged-energy counter while it discharged.
 */
export function createEnergyHubDispatch(deps: {
  repository: EnergyHubRepository;
  commands: DischargeCommands;
  notify(message: { userId: number; title: string; content: string; data: null }): Promise<void>;
  now?: () => number;
}) {
  const { repository, commands } = deps;
  const now = deps.now ?? Date.now;
  let ticking = false;

  async function refresh(result: ResultRecord, reading: BatteryReading | undefined): Promise<void> {
    const counter = dischargedWh(reading);
    const delivered =
      counter !== null && result.startCounterWh !== null ? Math.max(0, counter - result.startCounterWh) : result.deliveredWh;
    await repository.updateResult(result.id, { deliveredWh: delivered, socPct: reading?.soc ?? result.socPct });
  }

  /** Ends one battery's discharge once; the command back to 0 is sent by whoever ended it. */
  async function stopDevice(event: EventRecord, result: ResultRecord, owner: EnrollmentOwner | undefined): Promise<void> {
    const [reading] = await repository.readings([result.deviceId]);
    await refresh(result, reading);
    if (!(await repository.finishDischarge(result.id, 'done', null))) return;
    if (!owner) return;
    try {
      await commands.dischargeBattery(runner(owner, event.id), 'en', result.sn, 0);
    } catch (error) {
      // The stop was not confirmed: the result says so; the battery's own floor still holds.
      await repository.updateResult(result.id, { outcome: 'failed', code: codeOf(error) });
    }
  }

  /** Tells every taking-part battery of an opted-in, active event to discharge (each one once). */
  async function startEvent(event: EventRecord): Promise<void> {
    const enrollment = await repository.find(event.enrollmentId);
    if (enrollment?.state !== 'accepted' || event.response !== 'optIn') return;
    const owner = await repository.owner(enrollment.id);
    const batteries = enrollment.devices.filter((d) => d.participates);
    const readings = new Map((await repository.readings(batteries.map((b) => b.deviceId))).map((r) => [r.deviceId, r]));
    const from = Math.max(now(), event.startAt.getTime());
    for (const battery of batteries) {
      const reading = readings.get(battery.deviceId);
      const asked = askedOf({
        eventPowerW: event.powerW,
        batteries: batteries.length,
        maxDischargeW: enrollment.maxDischargeW,
        chargeKw: battery.chargeKw,
        fromMs: from,
        endMs: event.endAt.getTime(),
      });
      const soc = reading?.soc ?? null;
      const refusal =
        !owner || owner.disabled
          ? owner
            ? Code.ACCOUNT_DISABLED
            : Code.NO_PERMISSION
          : soc === null
            ? Code.ENERGY_HUB_NO_READING
            : atFloor(soc, enrollment.minSocPct)
              ? Code.ENERGY_HUB_BELOW_SOC_FLOOR
              : null;
      const resultId = await repository.claimDevice({
        eventId: event.id,
        deviceId: battery.deviceId,
        sn: battery.sn,
        outcome: refusal === null ? 'discharging' : 'skipped',
        code: refusal,
        askedW: refusal === null ? asked.watts : 0,
        askedWh: refusal === null ? asked.wattHours : 0,
        // A SunSpec accumulator that has not counted yet reads as absent: a battery that reports has discharged 0 Wh.
        startCounterWh: dischargedWh(reading) ?? (reading ? 0 : null),
        startSocPct: soc,
        socPct: soc,
        startedAt: new Date(now()),
        endedAt: refusal === null ? null : new Date(now()),
      });
      if (resultId === undefined || refusal !== null || !owner) continue;
      try {
        const sent = await commands.dischargeBattery(runner(owner, event.id), 'en', battery.sn, asked.watts);
        await repository.updateResult(resultId, { commandId: sent.commandId });
      } catch (error) {
        await repository.finishDischarge(resultId, 'failed', codeOf(error));
      }
    }
  }

  /** Stops every battery still discharging in the event (its end, an opt-out, an unenrollment). */
  async function stopEvent(event: EventRecord): Promise<void> {
    const owner = await repository.owner(event.enrollmentId);
    const running = (await repository.results([event.id])).filter((r) => r.outcome === 'discharging');
    for (const result of running) await stopDevice(event, result, owner);
  }

  /** The owner's message in the notification centre: delivered against asked, in their language. */
  async function notifyResult(event: EventRecord): Promise<void> {
    const enrollment = await repository.find(event.enrollmentId);
    const owner = await repository.owner(event.enrollmentId);
    if (!enrollment || !owner) return;
    const results = await repository.results([event.id]);
    if (results.length === 0) return;
    const kwh = (wh: number) => (Math.round(wh / 10) / 100).toString();
    const language: Language = isLanguage(owner.language) ? owner.language : 'en';
    const params = {
      eventId: event.eventId,
      plant: enrollment.plantName,
      delivered: kwh(results.reduce((s, r) => s + r.deliveredWh, 0)),
      asked: kwh(results.reduce((s, r) => s + r.askedWh, 0)),
    };
    await deps.notify({
      userId: owner.userId,
      title: translate(language, 'energyHub.notify.title', params),
      content: translate(language, 'energyHub.notify.content', params),
      data: null,
    });
    await repository.updateEvent(event.id, { notifiedAt: new Date(now()) });
  }

  /** One pass over an active event: ends it at its end, else follows each discharging battery to its floor. */
  async function follow(event: EventRecord): Promise<void> {
    if (now() >= event.endAt.getTime()) {
      if (!(await repository.claim(event.id, 'active', 'completed'))) return;
      await stopEvent(event);
      await notifyResult(event);
      return;
    }
    const enrollment = await repository.find(event.enrollmentId);
    if (!enrollment) return;
    if (enrollment.state !== 'accepted' || event.response !== 'optIn') {
      await stopEvent(event);
      return;
    }
    // Batteries opted in since the start (or whose start a previous pass did not finish) start now.
    await startEvent(event);
    const running = (await repository.results([event.id])).filter((r) => r.outcome === 'discharging');
    const readings = new Map((await repository.readings(running.map((r) => r.deviceId))).map((r) => [r.deviceId, r]));
    const owner = running.length > 0 ? await repository.owner(event.enrollmentId) : undefined;
    for (const result of running) {
      const reading = readings.get(result.deviceId);
      if (atFloor(reading?.soc ?? null, enrollment.minSocPct)) await stopDevice(event, result, owner);
      else await refresh(result, reading);
    }
  }

  return {
    startEvent,
    stopEvent,

    /**
     * The scheduler's pass: pending events whose start came become active (claimed once) and start their batteries;
     * active events are followed, and ended (claimed once) at their end with the owner notified. A pass still
     * running when the next starts is not doubled.
     */
    async tick(): Promise<number> {
      if (ticking) return 0;
      ticking = true;
      let moved = 0;
      try {
        const at = new Date(now());
        for (const event of await repository.dueStarts(at, 50)) {
          if (!(await repository.claim(event.id, 'pending', 'active'))) continue;
          moved++;
          await startEvent(event);
        }
        for (const event of await repository.activeEvents()) await follow(event);
        return moved;
      } finally {
        ticking = false;
      }
    },
  };
}

export type EnergyHubDispatch = ReturnType<typeof createEnergyHubDispatch>;
