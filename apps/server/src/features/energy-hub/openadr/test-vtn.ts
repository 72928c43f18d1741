import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { list, oadrPayload, readPayload, text } from './oadr-xml.js';

/** An event the test VTN distributes. */
export interface VtnEvent {
  eventId: string;
  modificationNumber: number;
  status: 'far' | 'near' | 'active' | 'completed' | 'cancelled';
  start: string;
  /** ISO 8601, e.g. PT30M. */
  duration: string;
  level: number;
  powerW: number;
}

/**
 * A minimal OpenADR 2.0b VTN for the tests only (never in a product path): registers VENs, answers oadrPoll with an
 * oadrDistributeEvent of its events, records oadrCreatedEvent answers and the reports it is sent.
 */
export async function startTestVtn(): Promise<{
  url: string;
  events: VtnEvent[];
  registered: { venName: string; venId: string }[];
  optTypes: Map<string, string>;
  reports: { type: string; values: { eventId: string; rid: string; value: number }[] }[];
  close(): Promise<void>;
}> {
  const events: VtnEvent[] = [];
  const registered: { venName: string; venId: string }[] = [];
  const optTypes = new Map<string, string>();
  const reports: { type: string; values: { eventId: string; rid: string; value: number }[] }[] = [];
  const ok = { 'ei:eiResponse': { 'ei:responseCode': 200, 'ei:responseDescription': 'OK', 'pyld:requestID': '' } };

  const answer = (path: string, xml: string): string => {
    const message = readPayload(xml);
    if (!message) return oadrPayload('oadrResponse', { 'ei:eiResponse': { 'ei:responseCode': 452, 'pyld:requestID': '' } });
    if (path.endsWith('/EiRegisterParty') && message.type === 'oadrCreatePartyRegistration') {
      const venId = `ven-${registered.length + 1}`;
      registered.push({ venName: text(message.body, 'oadrVenName') ?? '', venId });
      return oadrPayload('oadrCreatedPartyRegistration', {
        ...ok,
        'ei:registrationID': `reg-${venId}`,
        'ei:venID': venId,
        'ei:vtnID': 'test-vtn',
      });
    }
    if (path.endsWith('/OadrPoll') && message.type === 'oadrPoll') {
      if (events.length === 0) return oadrPayload('oadrResponse', ok);
      return oadrPayload('oadrDistributeEvent', {
        ...ok,
        'pyld:requestID': `req-${Date.now()}`,
        'ei:vtnID': 'test-vtn',
        'oadr:oadrEvent': events.map((e) => ({
          'ei:eiEvent': {
            'ei:eventDescriptor': {
              'ei:eventID': e.eventId,
              'ei:modificationNumber': e.modificationNumber,
              'ei:eventStatus': e.status,
              'ei:createdDateTime': new Date().toISOString(),
            },
            'ei:eiActivePeriod': {
              'xcal:properties': { 'xcal:dtstart': { 'xcal:date-time': e.start }, 'xcal:duration': { 'xcal:duration': e.duration } },
            },
            'ei:eiEventSignals': {
              'ei:eiEventSignal': [
                { 'ei:signalName': 'SIMPLE', 'ei:signalType': 'level', 'ei:currentValue': { 'ei:payloadFloat': { 'ei:value': e.level } } },
                {
                  'ei:signalName': 'LOAD_DISPATCH',
                  'ei:signalType': 'setpoint',
                  'ei:currentValue': { 'ei:payloadFloat': { 'ei:value': e.powerW } },
                },
              ],
            },
          },
          'oadr:oadrResponseRequired': 'always',
        })),
      });
    }
    if (path.endsWith('/EiEvent') && message.type === 'oadrCreatedEvent') {
      for (const response of list(message.body, 'eiCreatedEvent', 'eventResponses', 'eventResponse'))
        optTypes.set(text(response, 'qualifiedEventID', 'eventID') ?? '', text(response, 'optType') ?? '');
      return oadrPayload('oadrResponse', ok);
    }
    if (path.endsWith('/EiReport') && (message.type === 'oadrRegisterReport' || message.type === 'oadrUpdateReport')) {
      reports.push({
        type: message.type,
        values: list(message.body, 'oadrReport').flatMap((report) =>
          list(report, 'intervals', 'interval').map((interval) => ({
            eventId: text(report, 'reportRequestID') ?? '',
            rid: text(interval, 'oadrReportPayload', 'rID') ?? '',
            value: Number(text(interval, 'oadrReportPayload', 'payloadFloat', 'value') ?? 0),
          })),
        ),
      });
      return oadrPayload(message.type === 'oadrRegisterReport' ? 'oadrRegisteredReport' : 'oadrUpdatedReport', ok);
    }
    return oadrPayload('oadrResponse', { 'ei:eiResponse': { 'ei:responseCode': 459, 'pyld:requestID': '' } });
  };

  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = answer(request.url ?? '', Buffer.concat(chunks).toString('utf8'));
      response.writeHead(200, { 'content-type': 'application/xml' }).end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/OpenADR2/Simple/2.0b`,
    events,
    registered,
    optTypes,
    reports,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
