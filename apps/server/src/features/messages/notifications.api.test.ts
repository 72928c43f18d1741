import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { Code } from '@sunward/contracts/codes';
import type {
  MessagePage,
  MessageStatesResult,
  NotifyCodeResult,
  NotifySettings,
  SmsPage,
  SmsSendResult,
} from '@sunward/contracts/notifications';
import type { PlantCreate } from '@sunward/contracts/plants';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { alarmEmailItems, devices, emailDeliveries, messages, notifySettings, plantShares, users } from '../../db/schema.js';
import type { LiveEvent } from '../../ingest/live-hub.js';
import { call, signIn } from '../../test/client.js';
import { ADMIN, startTestServer, type TestServer } from '../../test/harness.js';
import { connectTestGateway, type TestGateway } from '../../test/test-gateway.js';

/** A real SMTP server: what it received, per recipient, and addresses it refuses (always, or once). */
interface Mail {
  to: string[];
  subject: string;
  body: string;
}
const received: Mail[] = [];
const refuseAlways = new Set(['dead@example.com']);
const refuseOnce = new Set(['flaky@example.com']);

/** Subject (unfolded, encoded words decoded) and quoted-printable body of a raw message. */
function parseMail(raw: string, to: string[]): Mail {
  const [head = '', ...rest] = raw.split(/\r?\n\r?\n/);
  const unfolded = head.replace(/\r?\n[ \t]+/g, ' ');
  const subjectLine = /^Subject: (.*)$/im.exec(unfolded)?.[1] ?? '';
  const subject = subjectLine.replace(/=\?utf-8\?([QB])\?(.*?)\?=\s*/gi, (_, enc: string, text: string) =>
    enc.toUpperCase() === 'B'
      ? Buffer.from(text, 'base64').toString('utf8')
      : Buffer.from(
          text.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_h, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
          'latin1',
        ).toString('utf8'),
  );
  const body = Buffer.from(
    rest
      .join('\n\n')
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_h, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
    'latin1',
  ).toString('utf8');
  return { to, subject, body };
}

const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS', 'AUTH'],
  logger: false,
  onRcptTo(address, _session, callback) {
    if (refuseAlways.has(address.address)) return callback(new Error('mailbox unavailable'));
    if (refuseOnce.delete(address.address)) return callback(new Error('try again later'));
    callback();
  },
  onData(stream, session, callback) {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => {
      received.push(
        parseMail(
          Buffer.concat(chunks).toString('latin1'),
          session.envelope.rcptTo.map((r) => r.address),
        ),
      );
      callback();
    });
  },
});

let server: TestServer;
let gateway: TestGateway;
let plantId: number;
let otherPlantId: number;
const tokens: Record<string, string> = {};
const userIds: Record<string, number> = {};
const deviceIds: Record<string, number> = {};
let reportTs = Date.now() - 3_600_000;
const pushed: LiveEvent[] = [];

const get = async <T>(path: string, who: string, query?: Record<string, string>) =>
  (await call<T>(server.app, 'GET', path, { token: tokens[who], query })).body;
const post = async <T>(path: string, who: string, json?: unknown) =>
  (await call<T>(server.app, 'POST', path, { token: tokens[who], json })).body;

/** One report of the plant's inverters with these Evt1 bits (absent: none), a second after the previous one. */
async function report(bits: Record<string, number>) {
  reportTs += 1000;
  await gateway.report(
    reportTs,
    ['NTIN000001', 'NTIN000002', 'NTIN000003'].map((sn) => ({
      sn,
      proto: 'sunspec-inverter-1p',
      values: { W: 1000, St: 4, Evt1: bits[sn] ?? 0 },
    })),
  );
  await server.telemetry.pipeline.drain();
}

async function alarmsOf(who: string, code?: number) {
  const page = await get<MessagePage>('/api/v1/messages', who, { type: '2', size: '100' });
  return page.data.infos.filter((m) => code === undefined || m.alarm?.code === code);
}

async function makeUser(name: string, role: Parameters<TestServer['createUser']>[0], language: string, companyId?: number) {
  const user = await server.createUser(role, `${name}@test.local`, { companyId });
  await server.database.db.update(users).set({ language }).where(eq(users.id, user.id));
  userIds[name] = user.id;
  tokens[name] = (await signIn(server.app, user.account, user.password)).access_token;
}

const mailsTo = (address: string) => received.filter((m) => m.to.includes(address));

/**
 * One company plant with three inverters reporting over MQTT. Who sees it: the company's administrator
 * (German) and staff (Chinese), a guest it is shared with (Spanish) and the platform administrator
 * (English); an outsider of another company (with a plant of their own) does not.
 */
beforeAll(async () => {
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const smtpPort = (smtp.server.address() as AddressInfo).port;
  server = await startTestServer({
    SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
    // A 12-second window: the flapping changes of a test fall in one, the held ones come out soon after.
    ALARM_THROTTLE_MINUTES: '0.2',
    ALARM_EMAIL_BATCH_SECONDS: '0.3',
    ALARM_EMAIL_MAX_PER_HOUR: '2',
    EMAIL_RETRY_BASE_SECONDS: '0.2',
    EMAIL_MAX_ATTEMPTS: '3',
    SMS_MAX_PER_PHONE_PER_HOUR: '2',
    SMS_MAX_PER_SENDER_PER_HOUR: '6',
  });
  tokens.admin = (await signIn(server.app, ADMIN.account, ADMIN.password)).access_token;
  const [admin] = await server.database.db.select({ id: users.id }).from(users).where(eq(users.account, ADMIN.account));
  userIds.admin = admin?.id ?? 0;
  const company = await server.createCompany('Notify Company');
  const otherCompany = await server.createCompany('Other Company');
  await makeUser('boss', 'company_admin', 'de', company);
  await makeUser('staff', 'company_staff', 'cn', company);
  await makeUser('guest', 'guest', 'es');
  await makeUser('outsider', 'company_admin', 'en', otherCompany);
  await makeUser('mailer', 'company_staff', 'en', company);
  await makeUser('flaky', 'company_staff', 'en', company);
  await makeUser('dead', 'company_staff', 'en', company);

  const key = 'notifykey01';
  const gatewayId = await server.registerGateway('GWNT000001', key, company);
  const plant = (name: string, gateways: PlantCreate['gateways']): PlantCreate => ({
    name,
    capacityKwp: 10,
    plantType: 1,
    latitude: 48.1,
    longitude: 11.6,
    timezone: 'Europe/Berlin',
    meteringTopology: 'net',
    gateways,
    tariff: { currency: 'EUR', pricingMethod: 'constant', price: 0.2 },
  });
  const created = await call<{ id: number }>(server.app, 'POST', '/api/v1/plant', {
    token: tokens.boss,
    json: plant('Notify Plant', [{ sn: 'GWNT000001', key }]),
  });
  if (created.body.code !== 0) throw new Error(`plant not created: ${JSON.stringify(created.body)}`);
  plantId = created.body.data.id;
  await server.registerGateway('GWNT000002', 'notifykey02', otherCompany);
  const other = await call<{ id: number }>(server.app, 'POST', '/api/v1/plant', {
    token: tokens.outsider,
    json: plant('Other Plant', [{ sn: 'GWNT000002', key: 'notifykey02' }]),
  });
  otherPlantId = other.body.data.id;
  await server.database.db.insert(plantShares).values({ plantId, userId: userIds.guest ?? 0, role: 'guest' });
  const rows = await server.database.db
    .insert(devices)
    .values(
      ['NTIN000001', 'NTIN000002', 'NTIN000003'].map((sn, i) => ({
        sn,
        protocolId: 'sunspec-inverter-1p',
        family: 'inverter',
        alias: i === 0 ? 'Roof' : null,
        plantId,
        gatewayId,
      })),
    )
    .returning({ id: devices.id, sn: devices.sn });
  for (const r of rows) deviceIds[r.sn] = r.id;
  await server.telemetry.pipeline.reloadDevices();
  server.telemetry.live.subscribe((event) => {
    if (event.type === 'message') pushed.push(event);
  });
  gateway = await connectTestGateway(server.telemetry.mqttPort, 'GWNT000001', key);
  await report({});
  // Eight accounts (each password hashed and signed in) and two plants: more than the default minute on a busy machine.
}, 180_000);

afterAll(async () => {
  await gateway?.close();
  await server?.close();
  await new Promise<void>((resolve) => smtp.close(resolve));
});

describe('the call catalogue', () => {
  it('answers every calls.tsv row of the notification centre, the notify settings and msg/send', () => {
    const rows = readFileSync(new URL('../../../../../docs/spec/calls.tsv', import.meta.url), 'utf8')
      .split('\n')
      .map((line) => line.split('\t'))
      .filter(
        ([, path, area]) =>
          (area === 'Notices and messages' && /\/messages?(\/|$)/.test(path ?? '')) ||
          /\/user\/notify/.test(path ?? '') ||
          path === '/api/v1/msg/send',
      );
    expect(rows.map(([method, path]) => `${method} ${path}`).sort()).toEqual([
      'GET /api/v1/message/count',
      'GET /api/v1/messages',
      'GET /api/v1/user/notify/code',
      'GET /api/v1/user/notify/enable',
      'POST /api/v1/message/update/states',
      'POST /api/v1/message/{id}/state',
      'POST /api/v1/msg/send',
      'POST /api/v1/user/notify',
    ]);
    for (const [method, path] of rows)
      expect(server.app.hasRoute({ method: method as 'GET' | 'POST', url: (path ?? '').replace('{id}', ':id') }), `${method} ${path}`).toBe(
        true,
      );
  });
});

describe('equipment alarms to people', () => {
  it('gives everyone who sees the plant a message in their own language when a fault opens, and pushes their new count', async () => {
    await report({ NTIN000001: 0b1 });
    await vi.waitFor(async () => expect(await alarmsOf('boss', 1001)).toHaveLength(1), { timeout: 10_000, interval: 100 });
    const [de] = await alarmsOf('boss', 1001);
    expect(de?.title).toBe('Störung: Erdschluss (Isolationswiderstand zu niedrig) an Roof');
    expect(de?.content).toContain('Notify Plant');
    expect(de?.content).toContain('Empfohlene Maßnahme');
    expect(de?.alarm).toMatchObject({ plantId, deviceSn: 'NTIN000001', code: 1001, level: 'fault', change: 'opened', suppressed: 0 });
    expect((await alarmsOf('staff', 1001))[0]?.title).toBe('故障：Roof 接地故障（绝缘阻抗过低）');
    expect((await alarmsOf('guest', 1001))[0]?.title).toBe('Fallo: Fallo a tierra (resistencia de aislamiento demasiado baja) en Roof');
    expect((await alarmsOf('admin', 1001))[0]?.title).toBe('Fault: Ground fault (insulation resistance too low) on Roof');
    expect(await alarmsOf('outsider')).toHaveLength(0);
    expect((await get<number>('/api/v1/message/count', 'outsider')).data).toBe(0);
    expect(pushed).toContainEqual({ type: 'message', userId: userIds.boss, plantId: null, unread: 1 });
    expect(pushed.some((e) => e.type === 'message' && e.userId === userIds.outsider)).toBe(false);
  });

  it('throttles a flapping device: one message per device and code per window, whatever it does meanwhile', async () => {
    // Opened (above), then cleared, opened and cleared again within the window.
    await report({});
    await report({ NTIN000001: 0b1 });
    await report({});
    // A change of another device afterwards: once its message is there, the flapping ones were handled.
    await report({ NTIN000002: 0b100 });
    await vi.waitFor(async () => expect(await alarmsOf('boss', 1003)).toHaveLength(1), { timeout: 10_000, interval: 100 });
    const flapping = (await alarmsOf('boss', 1001)).filter((m) => m.alarm?.deviceSn === 'NTIN000001');
    expect(flapping).toHaveLength(1);
    const events = await server.database.db.execute(
      sql`select count(*)::int as n from device_events where code = 1001 and device_id = ${deviceIds.NTIN000001}`,
    );
    expect(Number((events as unknown as { rows: { n: number }[] }).rows[0]?.n)).toBe(2);
  });

  it('sends the last held change when the window ends: the clearance, with the changes left out, in each language', async () => {
    await report({});
    // NTIN000002's warning cleared within its window, NTIN000001's fault flapped: both come out when it ends.
    await vi.waitFor(
      async () => {
        expect((await alarmsOf('staff', 1003)).map((m) => m.alarm?.change)).toEqual(['cleared', 'opened']);
        expect((await alarmsOf('boss', 1001)).map((m) => m.alarm?.change)).toEqual(['cleared', 'opened']);
      },
      { timeout: 25_000, interval: 200 },
    );
    const [cleared] = await alarmsOf('staff', 1003);
    expect(cleared?.title).toBe('已恢复：NTIN000002 交流开关断开');
    expect(cleared?.alarm).toMatchObject({ level: 'warning', suppressed: 0 });
    const [flapped] = await alarmsOf('boss', 1001);
    expect(flapped?.title).toBe('Behoben: Erdschluss (Isolationswiderstand zu niedrig) an Roof');
    expect(flapped?.alarm?.suppressed).toBe(2);
    expect(flapped?.content).toContain('2 weitere Male');
  });
});

describe('the notification centre', () => {
  it('lists only the caller’s messages, newest first, with type, state and time filters and paging', async () => {
    await server.database.db.insert(messages).values([
      { userId: userIds.outsider ?? 0, type: 1, title: 'Maintenance tonight', content: 'The platform is down 22:00-23:00.' },
      {
        userId: userIds.outsider ?? 0,
        type: 1,
        title: 'Old news',
        content: 'Read long ago.',
        state: 1,
        createdAt: new Date('2024-01-05T10:00:00Z'),
      },
    ]);
    const all = await get<MessagePage>('/api/v1/messages', 'outsider');
    expect(all.data.infos.map((m) => m.title)).toEqual(['Maintenance tonight', 'Old news']);
    expect(all.data).toMatchObject({ total: 2, unread: 1 });
    expect((await get<MessagePage>('/api/v1/messages', 'outsider', { state: '1' })).data.infos.map((m) => m.title)).toEqual(['Old news']);
    expect((await get<MessagePage>('/api/v1/messages', 'outsider', { type: '2' })).data.total).toBe(0);
    const january = await get<MessagePage>('/api/v1/messages', 'outsider', { from: '2024-01-01', to: '2024-01-31' });
    expect(january.data.infos.map((m) => m.title)).toEqual(['Old news']);
    const second = await get<MessagePage>('/api/v1/messages', 'outsider', { page: '2', size: '1' });
    expect(second.data.infos.map((m) => m.title)).toEqual(['Old news']);
    expect((await get('/api/v1/messages', 'outsider', { type: '7' })).code).toBe(Code.VALIDATION);
    expect((await get('/api/v1/messages', 'outsider', { from: '2024-02-01', to: '2024-01-01' })).code).toBe(Code.VALIDATION);
    expect((await get('/api/v1/messages', 'outsider', { size: '101' })).code).toBe(Code.VALIDATION);
  });

  it('marks one message read and unread again; another user’s message id answers 404 and changes nothing', async () => {
    const [mine] = (await get<MessagePage>('/api/v1/messages', 'outsider', { state: '0' })).data.infos;
    const [theirs] = (await get<MessagePage>('/api/v1/messages', 'boss', { state: '0' })).data.infos;
    if (!mine || !theirs) throw new Error('no unread messages');
    expect((await post<MessageStatesResult>(`/api/v1/message/${mine.id}/state`, 'outsider', { state: 1 })).data).toEqual({
      updated: 1,
      unread: 0,
    });
    expect((await post<MessageStatesResult>(`/api/v1/message/${mine.id}/state`, 'outsider', { state: 0 })).data).toEqual({
      updated: 1,
      unread: 1,
    });
    const before = (await get<number>('/api/v1/message/count', 'boss')).data;
    expect((await post(`/api/v1/message/${theirs.id}/state`, 'outsider', { state: 1 })).code).toBe(Code.NOT_FOUND);
    expect((await post('/api/v1/message/999999/state', 'outsider')).code).toBe(Code.NOT_FOUND);
    expect((await post(`/api/v1/message/${mine.id}/state`, 'outsider', { state: 3 })).code).toBe(Code.VALIDATION);
    expect((await get<number>('/api/v1/message/count', 'boss')).data).toBe(before);
    const [row] = await server.database.db.select({ state: messages.state }).from(messages).where(eq(messages.id, theirs.id));
    expect(row?.state).toBe(0);
  });

  it('reads all of the caller’s messages and nobody else’s; listed ids of others are ignored', async () => {
    const theirs = (await get<MessagePage>('/api/v1/messages', 'boss')).data.infos.map((m) => m.id);
    const bossUnread = (await get<number>('/api/v1/message/count', 'boss')).data;
    expect(bossUnread).toBeGreaterThan(0);
    expect((await post<MessageStatesResult>('/api/v1/message/update/states', 'outsider', { ids: theirs })).data).toEqual({
      updated: 0,
      unread: 1,
    });
    expect((await post<MessageStatesResult>('/api/v1/message/update/states', 'outsider')).data).toEqual({ updated: 1, unread: 0 });
    expect((await get<number>('/api/v1/message/count', 'boss')).data).toBe(bossUnread);
    expect(pushed).toContainEqual({ type: 'message', userId: userIds.outsider, plantId: null, unread: 0 });
    const result = await post<MessageStatesResult>('/api/v1/message/update/states', 'boss', {});
    expect(result.data).toEqual({ updated: bossUnread, unread: 0 });
    expect((await get<number>('/api/v1/message/count', 'boss')).data).toBe(0);
  });

  it('asks for a session on every call', async () => {
    for (const [method, url] of [
      ['GET', '/api/v1/messages'],
      ['GET', '/api/v1/message/count'],
      ['POST', '/api/v1/message/1/state'],
      ['POST', '/api/v1/message/update/states'],
      ['GET', '/api/v1/user/notify/enable'],
    ] as const)
      expect((await call(server.app, method, url)).status).toBe(401);
  });
});

describe('e-mail alarm settings', () => {
  const address = 'ops@example.com';

  it('starts switched off, confirms a new address with the code sent to it, and refuses wrong codes with 5', async () => {
    expect((await get<NotifySettings>('/api/v1/user/notify/enable', 'mailer')).data).toEqual({
      enabled: false,
      email: null,
      levels: ['fault'],
      plants: [],
      maxPerHour: 2,
    });
    // On without an address: refused beside the field.
    const noAddress = await post<{ errors: { field: string }[] }>('/api/v1/user/notify', 'mailer', { enabled: true, levels: ['fault'] });
    expect(noAddress.code).toBe(Code.VALIDATION);
    expect(noAddress.data.errors[0]?.field).toBe('email');

    expect((await get<NotifyCodeResult>('/api/v1/user/notify/code', 'mailer', { email: address })).data).toEqual({
      status: 'sent',
      resendAfter: 60,
    });
    await vi.waitFor(() => expect(mailsTo(address)).toHaveLength(1), { timeout: 10_000, interval: 50 });
    const mail = mailsTo(address)[0];
    expect(mail?.subject).toBe('Your Sunward verification code');
    const code = /\b(\d{6})\b/.exec(mail?.body ?? '')?.[1] ?? '';
    expect(code).toMatch(/^\d{6}$/);
    expect((await get('/api/v1/user/notify/code', 'mailer', { email: address })).code).toBe(Code.RATE_LIMITED);
    const wrong = code === '000000' ? '111111' : '000000';
    expect((await get('/api/v1/user/notify/code', 'mailer', { email: address, code: wrong })).code).toBe(Code.VERIFICATION_CODE_WRONG);
    expect((await get('/api/v1/user/notify/code', 'mailer', { email: 'other@example.com', code })).code).toBe(Code.VERIFICATION_CODE_WRONG);
    expect((await get<NotifyCodeResult>('/api/v1/user/notify/code', 'mailer', { email: address, code })).data.status).toBe('verified');
    expect((await get('/api/v1/user/notify/code', 'mailer', { email: 'not-an-address' })).code).toBe(Code.VALIDATION);

    const body = { enabled: true, email: address, levels: ['fault', 'protect'], plants: [] };
    expect((await post('/api/v1/user/notify', 'mailer', { ...body, code: wrong })).code).toBe(Code.VERIFICATION_CODE_WRONG);
    expect((await get<NotifySettings>('/api/v1/user/notify/enable', 'mailer')).data.enabled).toBe(false);
    // A plant the user does not see: 700, nothing saved.
    expect(
      (await post('/api/v1/user/notify', 'mailer', { ...body, code, plants: [{ plantId: otherPlantId, levels: ['fault'] }] })).code,
    ).toBe(Code.PLANT_NOT_FOUND);
    const saved = await post<NotifySettings>('/api/v1/user/notify', 'mailer', { ...body, code });
    expect(saved.code).toBe(0);
    expect(saved.data).toMatchObject({ enabled: true, email: address, levels: ['fault', 'protect'] });
    // The confirmed address needs no code again.
    expect((await post('/api/v1/user/notify', 'mailer', { ...body, plants: [{ plantId, levels: ['fault', 'protect'] }] })).code).toBe(0);
  });

  it('answers 6 for an expired code', async () => {
    await server.database.db
      .update(notifySettings)
      .set({ codeSentAt: new Date(Date.now() - 120_000) })
      .where(eq(notifySettings.userId, userIds.mailer ?? 0));
    expect((await get('/api/v1/user/notify/code', 'mailer', { email: 'new@example.com' })).code).toBe(0);
    await vi.waitFor(() => expect(mailsTo('new@example.com')).toHaveLength(1), { timeout: 10_000, interval: 50 });
    const code = /\b(\d{6})\b/.exec(mailsTo('new@example.com')[0]?.body ?? '')?.[1] ?? '';
    await server.database.db
      .update(notifySettings)
      .set({ codeExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(notifySettings.userId, userIds.mailer ?? 0));
    expect((await get('/api/v1/user/notify/code', 'mailer', { email: 'new@example.com', code })).code).toBe(Code.VERIFICATION_CODE_EXPIRED);
    expect(
      (await post('/api/v1/user/notify', 'mailer', { enabled: true, email: 'new@example.com', code, levels: ['fault', 'protect'] })).code,
    ).toBe(Code.VERIFICATION_CODE_EXPIRED);
    expect((await get<NotifySettings>('/api/v1/user/notify/enable', 'mailer')).data.email).toBe('ops@example.com');
  });
});

describe('e-mail alarms', () => {
  const address = 'ops@example.com';
  const alarmMails = () => mailsTo(address).filter((m) => !m.subject.includes('verification'));

  it('sends alarms that arrive together as one digest, only of the levels asked for', async () => {
    // Fault and protection (wanted) and a warning (not wanted), all at once.
    await report({ NTIN000003: 0b111 });
    await vi.waitFor(() => expect(alarmMails()).toHaveLength(1), { timeout: 10_000, interval: 50 });
    const [digest] = alarmMails();
    expect(digest?.subject).toBe('2 alarms from your plants');
    expect(digest?.body).toContain('Ground fault (insulation resistance too low)');
    expect(digest?.body).toContain('DC input over-voltage');
    expect(digest?.body).not.toContain('AC switch open');
    expect(digest?.body).toContain('alarm e-mails are turned on');
  });

  it('never sends more than the hourly cap; later alarms wait and go as one digest once a slot is free', async () => {
    // The protection and the warning clear within their window: held, then sent when it ends (only the protection is wanted).
    await report({ NTIN000003: 0b001 });
    await vi.waitFor(() => expect(alarmMails()).toHaveLength(2), { timeout: 25_000, interval: 100 });
    expect(alarmMails()[1]?.subject).toBe('Cleared: DC input over-voltage on NTIN000003');
    await report({ NTIN000003: 0b000 }); // the fault clears (its window is over): past the cap
    const waiting = () =>
      server.database.db
        .select()
        .from(alarmEmailItems)
        .where(and(eq(alarmEmailItems.userId, userIds.mailer ?? 0), isNull(alarmEmailItems.deliveryId)));
    await vi.waitFor(async () => expect(await waiting()).toHaveLength(1), { timeout: 10_000, interval: 50 });
    expect(alarmMails()).toHaveLength(2);
    // An hour later (the earlier e-mails moved back in time), the waiting alarm goes out.
    await server.database.db
      .update(emailDeliveries)
      .set({ createdAt: new Date(Date.now() - 2 * 3_600_000) })
      .where(eq(emailDeliveries.userId, userIds.mailer ?? 0));
    await vi.waitFor(() => expect(alarmMails()).toHaveLength(3), { timeout: 10_000, interval: 50 });
    expect(alarmMails()[2]?.subject).toBe('Cleared: Ground fault (insulation resistance too low) on NTIN000003');
    expect(await waiting()).toHaveLength(0);
  });

  it('retries a refused e-mail with backoff and records each delivery’s state', async () => {
    expect((await get('/api/v1/user/notify/code', 'flaky', { email: 'flaky@example.com' })).code).toBe(0);
    expect((await get('/api/v1/user/notify/code', 'dead', { email: 'dead@example.com' })).code).toBe(0);
    const deliveryOf = async (userId: number | undefined) =>
      (
        await server.database.db
          .select()
          .from(emailDeliveries)
          .where(eq(emailDeliveries.userId, userId ?? 0))
      )[0];
    await vi.waitFor(async () => expect(await deliveryOf(userIds.flaky)).toMatchObject({ status: 'sent', attempts: 2 }), {
      timeout: 10_000,
      interval: 50,
    });
    expect(mailsTo('flaky@example.com')).toHaveLength(1);
    await vi.waitFor(async () => expect(await deliveryOf(userIds.dead)).toMatchObject({ status: 'failed', attempts: 3 }), {
      timeout: 10_000,
      interval: 50,
    });
    expect((await deliveryOf(userIds.dead))?.lastError).toMatch(/mailbox unavailable/);
  });
});

describe('SMS sending and record', () => {
  it('sends through the configured provider (none: recorded in the send log) and lists the record', async () => {
    const sent = await post<SmsSendResult>('/api/v1/msg/send', 'admin', {
      phones: ['+4915112345678', '+8613800000000'],
      content: 'Grid work at 14:00',
    });
    expect(sent.code).toBe(0);
    expect(sent.data.records.map((r) => [r.phone, r.status, r.provider])).toEqual([
      ['+4915112345678', 'logged', 'log'],
      ['+8613800000000', 'logged', 'log'],
    ]);
    const records = await get<SmsPage>('/api/v1/msg/records', 'admin');
    expect(records.data.total).toBe(2);
    expect(records.data.infos[0]).toMatchObject({ content: 'Grid work at 14:00', account: ADMIN.account });
    expect((await get<SmsPage>('/api/v1/msg/records', 'admin', { phone: '4915' })).data.total).toBe(1);
  });

  it('refuses bad input with 4, callers without system.sms with 2, and past the hourly limits with 429, sending nothing', async () => {
    expect((await post('/api/v1/msg/send', 'admin', { phones: ['12ab'], content: 'x' })).code).toBe(Code.VALIDATION);
    expect((await post('/api/v1/msg/send', 'admin', { phones: [], content: 'x' })).code).toBe(Code.VALIDATION);
    expect((await post('/api/v1/msg/send', 'admin', { phones: ['+4915112345678'], content: '' })).code).toBe(Code.VALIDATION);
    expect((await post('/api/v1/msg/send', 'boss', { phones: ['+4915112345678'], content: 'x' })).code).toBe(Code.NO_PERMISSION);
    expect((await get('/api/v1/msg/records', 'boss')).code).toBe(Code.NO_PERMISSION);
    // Per phone: 2 an hour.
    expect((await post('/api/v1/msg/send', 'admin', { phones: ['+4915112345678'], content: 'Second' })).code).toBe(0);
    const refused = await call(server.app, 'POST', '/api/v1/msg/send', {
      token: tokens.admin,
      json: { phones: ['+4915112345678'], content: 'Third' },
    });
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe(Code.RATE_LIMITED);
    // Per sender: 6 an hour; 3 so far, 4 more would pass it.
    expect(
      (await post('/api/v1/msg/send', 'admin', { phones: ['+111111111', '+222222222', '+333333333', '+444444444'], content: 'x' })).code,
    ).toBe(Code.RATE_LIMITED);
    expect((await get<SmsPage>('/api/v1/msg/records', 'admin')).data.total).toBe(3);
  });
});
