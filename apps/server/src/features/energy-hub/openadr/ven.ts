import { randomUUID } from 'node:crypto';
import { Code } from '@sunward/contracts/codes';
import { ApiError } from '../../../lib/envelope.js';
import type { EnergyHubRepository, EnrollmentFull, EnrollmentRecord } from '../energy-hub.repository.js';
import type { EnergyHubService } from '../energy-hub.service.js';
import { durationMinutes, list, oadrPayload, readPayload, text, type XmlNode } from './oadr-xml.js';

/**
 * The energy hub as an OpenADR 2.0b VEN (issue 23 part 5), simple HTTP pull model: per accepted-or-pending enrollment
 * with a VTN, register (oadrCreatePartyRegistration; the VTN's answer accepts the enrollment), describe the delivered
 * energy report once (oadrRegisterReport), then at each pass oadrPoll: an oadrDistributeEvent becomes the enrollment's
 * events (new, modified, cancelled), answers given in the console go back as oadrCreatedEvent (optIn/optOut), and
 * each event's delivered energy per battery goes as oadrUpdateReport. docs/openadr.md says how to point it at a VTN.
 */
export function createVen(deps: {
  repository: EnergyHubRepository;
  hub: Pick<EnergyHubService, 'receiveEvent' | 'cancelReceived' | 'reviewFromVtn'>;
  fetch?: typeof fetch;
  timeoutMs?: number;
}) {
  const { repository, hub } = deps;
  const send = deps.fetch ?? fetch;
  const timeoutMs = deps.timeoutMs ?? 10_000;

  async function post(vtnUrl: string, service: string, type: string, body: Record<string, unknown>) {
    let response: Response;
    try {
      response = await send(`${vtnUrl.replace(/\/$/, '')}/${service}`, {
        method: 'POST',
        headers: { 'content-type': 'application/xml' },
        body: oadrPayload(type, body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch {
      throw new ApiError(Code.ENERGY_HUB_VTN_UNREACHABLE);
    }
    const answer = readPayload(await response.text());
    if (!response.ok || !answer) throw new ApiError(Code.ENERGY_HUB_VTN_REFUSED);
    const code = text(answer.body, 'eiResponse', 'responseCode') ?? text(answer.body, 'eiCreatedEvent', 'eiResponse', 'responseCode');
    if (code !== undefined && !code.startsWith('2')) throw new ApiError(Code.ENERGY_HUB_VTN_REFUSED);
    return answer;
  }

  async function register(enrollment: EnrollmentRecord): Promise<string> {
    if (!enrollment.vtnUrl) throw new ApiError(Code.ENERGY_HUB_VTN_NOT_SET);
    const answer = await post(enrollment.vtnUrl, 'EiRegisterParty', 'oadrCreatePartyRegistration', {
      'pyld:requestID': randomUUID(),
      'oadr:oadrProfileName': '2.0b',
      'oadr:oadrTransportName': 'simpleHttp',
      'oadr:oadrReportOnly': false,
      'oadr:oadrXmlSignature': false,
      'oadr:oadrVenName': enrollment.venName ?? `sunward-${enrollment.id}`,
      'oadr:oadrHttpPullModel': true,
    });
    const venId = text(answer.body, 'venID');
    const registrationId = text(answer.body, 'registrationID');
    if (answer.type !== 'oadrCreatedPartyRegistration' || !venId) throw new ApiError(Code.ENERGY_HUB_VTN_REFUSED);
    await repository.saveOpenAdr(enrollment.id, { venId, registrationId: registrationId ?? null });
    // The programme registered the VEN: a pending enrollment is accepted.
    await hub.reviewFromVtn(enrollment.id, true);
    const full = await repository.find(enrollment.id);
    await post(enrollment.vtnUrl, 'EiReport', 'oadrRegisterReport', {
      'pyld:requestID': randomUUID(),
      'oadr:oadrReport': {
        'ei:reportSpecifierID': 'DELIVERED_ENERGY',
        'ei:reportName': 'METADATA_TELEMETRY_USAGE',
        'ei:createdDateTime': new Date().toISOString(),
        'oadr:oadrReportDescription': (full?.devices ?? []).map((d) => ({
          'ei:rID': d.sn,
          'ei:reportType': 'usage',
          'ei:readingType': 'Direct Read',
          'emix:itemBase': { 'power:itemUnits': 'Wh' },
        })),
      },
      'ei:venID': venId,
    });
    return venId;
  }

  /** An oadrEvent as the hub's event: id, modification, status, start, duration, level (SIMPLE), power (LOAD_DISPATCH, W). */
  function eventOf(node: XmlNode) {
    const event = list(node, 'eiEvent')[0];
    const descriptor = list(event, 'eventDescriptor')[0];
    const eventId = text(descriptor, 'eventID');
    const start = text(event, 'eiActivePeriod', 'properties', 'dtstart', 'date-time');
    const minutes = durationMinutes(text(event, 'eiActivePeriod', 'properties', 'duration', 'duration'));
    const signals = list(event, 'eiEventSignals', 'eiEventSignal');
    const value = (name: string) => {
      const signal = signals.find((s) => text(s, 'signalName') === name);
      const found =
        text(signal, 'currentValue', 'payloadFloat', 'value') ??
        text(signal, 'intervals', 'interval', 'signalPayload', 'payloadFloat', 'value');
      return found === undefined ? undefined : Number(found);
    };
    if (!eventId || !start || !minutes || Number.isNaN(Date.parse(start))) return undefined;
    return {
      eventId,
      modificationNumber: Number(text(descriptor, 'modificationNumber') ?? 0),
      status: text(descriptor, 'eventStatus') ?? 'far',
      start: new Date(start).toISOString(),
      durationMinutes: minutes,
      participationLevel: Math.max(0, Math.min(3, Math.round(value('SIMPLE') ?? 1))),
      powerDischargeW: Math.max(1, Math.round(value('LOAD_DISPATCH') ?? 0)),
    };
  }

  async function distribute(enrollment: EnrollmentFull, body: XmlNode, requestId: string | null): Promise<void> {
    for (const node of list(body, 'oadrEvent')) {
      const event = eventOf(node);
      if (!event) continue;
      const known = await repository.eventByExternalId(enrollment.id, event.eventId);
      if (event.status === 'cancelled') {
        if (known && (known.state === 'pending' || known.state === 'active')) await hub.cancelReceived(known);
        continue;
      }
      if (!known) {
        try {
          await hub.receiveEvent(enrollment, event, { source: 'openadr', requestId, modificationNumber: event.modificationNumber });
        } catch (error) {
          // Another process took it first, or the enrollment is not accepted (the VTN is answered optOut below).
          if (!(error instanceof ApiError)) throw error;
        }
        continue;
      }
      if (event.modificationNumber > known.modificationNumber && known.state === 'pending') {
        const startAt = new Date(event.start);
        await repository.updateEvent(known.id, {
          modificationNumber: event.modificationNumber,
          startAt,
          endAt: new Date(startAt.getTime() + event.durationMinutes * 60_000),
          durationMinutes: event.durationMinutes,
          powerW: event.powerDischargeW,
          participationLevel: event.participationLevel,
          requestId,
        });
      }
    }
  }

  /** The site's answers not yet told to the VTN (oadrCreatedEvent), then each event's delivered energy (oadrUpdateReport). */
  async function answer(enrollment: EnrollmentFull, venId: string, vtnUrl: string): Promise<void> {
    const events = (await repository.events([enrollment.id])).filter((e) => e.source === 'openadr');
    const pending = events.filter((e) => e.responsePending);
    if (pending.length > 0) {
      await post(vtnUrl, 'EiEvent', 'oadrCreatedEvent', {
        'ei:eiCreatedEvent': {
          'ei:eiResponse': { 'ei:responseCode': 200, 'ei:responseDescription': 'OK', 'pyld:requestID': '' },
          'ei:eventResponses': {
            'ei:eventResponse': pending.map((e) => ({
              'ei:responseCode': 200,
              'pyld:requestID': e.requestId ?? '',
              'ei:qualifiedEventID': { 'ei:eventID': e.eventId, 'ei:modificationNumber': e.modificationNumber },
              'ei:optType': e.response === 'optIn' ? 'optIn' : 'optOut',
            })),
          },
          'ei:venID': venId,
        },
      });
      for (const e of pending) await repository.updateEvent(e.id, { responsePending: false });
    }
    const results = await repository.results(events.filter((e) => e.state === 'active' || e.state === 'completed').map((e) => e.id));
    if (results.length === 0) return;
    await post(vtnUrl, 'EiReport', 'oadrUpdateReport', {
      'pyld:requestID': randomUUID(),
      'oadr:oadrReport': events
        .filter((e) => results.some((r) => r.eventId === e.id))
        .map((e) => ({
          'ei:eiReportID': `delivered-${e.eventId}`,
          'ei:reportRequestID': e.eventId,
          'ei:reportSpecifierID': 'DELIVERED_ENERGY',
          'ei:reportName': 'TELEMETRY_USAGE',
          'ei:createdDateTime': new Date().toISOString(),
          'strm:intervals': {
            'ei:interval': results
              .filter((r) => r.eventId === e.id)
              .map((r) => ({
                'xcal:dtstart': { 'xcal:date-time': (r.startedAt ?? e.startAt).toISOString() },
                'oadr:oadrReportPayload': { 'ei:rID': r.sn, 'ei:payloadFloat': { 'ei:value': Math.round(r.deliveredWh) } },
              })),
          },
        })),
      'ei:venID': venId,
    });
  }

  /** One exchange with an enrollment's VTN: register when needed, poll, take the events, answer and report. */
  async function pollOnce(enrollmentId: number): Promise<void> {
    const enrollment = await repository.find(enrollmentId);
    if (!enrollment?.vtnUrl || !enrollment.active) return;
    const venId = enrollment.venId ?? (await register(enrollment));
    const current = (await repository.find(enrollmentId)) ?? enrollment;
    const polled = await post(enrollment.vtnUrl, 'OadrPoll', 'oadrPoll', { 'ei:venID': venId });
    if (polled.type === 'oadrDistributeEvent') await distribute(current, polled.body, text(polled.body, 'requestID') ?? null);
    await answer(current, venId, enrollment.vtnUrl);
    await repository.saveOpenAdr(enrollmentId, { lastPollAt: new Date() });
  }

  return {
    pollOnce,
    /** The VEN's pass over every live enrollment with a VTN; one VTN failing does not stop the others. */
    async tick(onError: (error: unknown) => void = () => undefined): Promise<void> {
      for (const enrollment of await repository.withVtn()) await pollOnce(enrollment.id).catch(onError);
    },
  };
}

export type Ven = ReturnType<typeof createVen>;
