import { describe, expect, it } from 'vitest';
import { challenge, createNonces, digestResponse, NONCE_TTL_MS, parseAuthorization, verifyDigest } from './digest.js';
import { catalogQuery, decodeManscdp, parseManscdp } from './manscdp.js';
import { inviteSdp, parseSdpAnswer } from './sdp.js';
import { header, parseNameAddr, parseSip, parseVia, responseTo, serializeSip } from './sip-message.js';

const REGISTER = [
  'REGISTER sip:3402000000 SIP/2.0',
  'Via: SIP/2.0/UDP 192.168.1.64:5060;rport;branch=z9hG4bK1',
  'v: SIP/2.0/UDP 10.0.0.1:5060;branch=z9hG4bK0',
  'From: <sip:34020000001320000001@3402000000>;tag=abc',
  'To: <sip:34020000001320000001@3402000000>',
  'Call-ID: 1@192.168.1.64',
  'CSeq: 1 REGISTER',
  'Contact: <sip:34020000001320000001@192.168.1.64:5060>',
  'Max-Forwards: 70',
  'Expires: 3600',
  'l: 0',
  '',
  '',
].join('\r\n');

describe('SIP messages', () => {
  it('parses a request: compact headers, several Via values in order, the body by Content-Length', () => {
    const message = parseSip(Buffer.from(REGISTER));
    expect(message?.kind).toBe('request');
    if (message?.kind !== 'request') return;
    expect(message.method).toBe('REGISTER');
    expect(message.headers.get('via')).toHaveLength(2);
    expect(parseVia(header(message.headers, 'via'))).toMatchObject({ host: '192.168.1.64', port: 5060 });
    expect(parseVia(header(message.headers, 'via'))?.params.get('branch')).toBe('z9hG4bK1');
    expect(parseNameAddr(header(message.headers, 'from'))).toMatchObject({ user: '34020000001320000001', host: '3402000000' });
    expect(parseNameAddr(header(message.headers, 'from'))?.params.get('tag')).toBe('abc');
  });

  it('answers with Via received/rport filled in, a To tag, and its own Content-Length', () => {
    const request = parseSip(Buffer.from(REGISTER));
    if (request?.kind !== 'request') throw new Error('not a request');
    const response = responseTo(request, 200, 'OK', { source: { address: '203.0.113.5', port: 40000 }, toTag: 't1' });
    const text = serializeSip(response).toString('latin1');
    expect(text).toMatch(/^SIP\/2\.0 200 OK\r\n/);
    expect(text).toContain('Via: SIP/2.0/UDP 192.168.1.64:5060;rport=40000;branch=z9hG4bK1;received=203.0.113.5\r\n');
    expect(text).toContain('To: <sip:34020000001320000001@3402000000>;tag=t1\r\n');
    expect(text).toContain('Content-Length: 0\r\n\r\n');
    const again = parseSip(serializeSip(response));
    expect(again).toMatchObject({ kind: 'response', status: 200, reason: 'OK' });
  });

  it('reads nothing from broken input instead of throwing', () => {
    for (const bad of [
      '',
      'hello',
      'REGISTER sip:x SIP/2.0\r\n\r\n',
      `${REGISTER.replace('l: 0', 'l: 99')}`,
      'SIP/2.0 99 Weird\r\n\r\n',
      'INVITE  SIP/2.0\r\nVia x\r\n\r\n',
    ])
      expect(parseSip(Buffer.from(bad))).toBeUndefined();
  });
});

describe('digest authentication', () => {
  it('verifies the RFC 2617 response with and without qop, refuses a wrong password and another algorithm', () => {
    const base = { username: '34020000001320000001', realm: '3402000000', nonce: 'abc', uri: 'sip:3402000000' };
    const response = digestResponse(base, 'REGISTER', 'Camera-Pass1');
    expect(verifyDigest({ ...base, response }, 'REGISTER', 'Camera-Pass1')).toBe(true);
    expect(verifyDigest({ ...base, response }, 'REGISTER', 'Camera-Pass2')).toBe(false);
    expect(verifyDigest({ ...base, response, algorithm: 'SHA-256' }, 'REGISTER', 'Camera-Pass1')).toBe(false);
    const withQop = { ...base, qop: 'auth', nc: '00000001', cnonce: 'xyz' };
    expect(verifyDigest({ ...withQop, response: digestResponse(withQop, 'REGISTER', 'Camera-Pass1') }, 'REGISTER', 'Camera-Pass1')).toBe(
      true,
    );
  });

  it('matches the known answer of RFC 2069 (digest without qop)', () => {
    const known = digestResponse(
      { username: 'Mufasa', realm: 'testrealm@host.com', nonce: 'dcd98b7102dd2f0e8b11d0f600bfb0c093', uri: '/dir/index.html' },
      'GET',
      'Circle Of Life',
    );
    expect(known).toBe('670fd8c2df070c60b045671b8b24ff02');
  });

  it('parses the Authorization header, quoted and bare values', () => {
    const parsed = parseAuthorization(
      'Digest username="34020000001320000001", realm="3402000000", nonce="n1", uri="sip:3402000000", response="abcdef", algorithm=MD5',
    );
    expect(parsed).toMatchObject({ username: '34020000001320000001', realm: '3402000000', nonce: 'n1', algorithm: 'MD5' });
    expect(parseAuthorization('Basic Zm9vOmJhcg==')).toBeUndefined();
    expect(parseAuthorization('Digest username="x"')).toBeUndefined();
  });

  it('issues nonces that are ours and expire (stale), and refuses forged ones', () => {
    let now = 1_700_000_000_000;
    const nonces = createNonces(undefined, () => now);
    const nonce = nonces.issue();
    expect(nonces.check(nonce)).toBe('valid');
    expect(nonces.check(`${nonce.slice(0, -1)}${nonce.endsWith('A') ? 'B' : 'A'}`)).toBe('invalid');
    expect(createNonces(undefined, () => now).check(nonce)).toBe('invalid');
    now += NONCE_TTL_MS + 1;
    expect(nonces.check(nonce)).toBe('stale');
    expect(challenge('3402000000', nonce, true)).toBe(`Digest realm="3402000000", nonce="${nonce}", algorithm=MD5, stale=true`);
  });
});

describe('SDP', () => {
  const receiver = { streamId: 's', ip: '10.1.2.3', port: 30000, ssrc: '0100000001' };

  it('offers a live stream: s=Play, t=0 0, recvonly, PS and H.264, the SSRC in y=', () => {
    const sdp = inviteSdp({ serverId: '34020000002000000001', channelId: '34020000001310000001', receiver, kind: 'live' });
    expect(sdp.split('\r\n')).toEqual([
      'v=0',
      'o=34020000002000000001 0 0 IN IP4 10.1.2.3',
      's=Play',
      'c=IN IP4 10.1.2.3',
      't=0 0',
      'm=video 30000 RTP/AVP 96 98 97',
      'a=recvonly',
      'a=rtpmap:96 PS/90000',
      'a=rtpmap:98 H264/90000',
      'a=rtpmap:97 MPEG4/90000',
      'y=0100000001',
      '',
    ]);
  });

  it('offers a playback: s=Playback, u= the channel, t= the range in Unix seconds', () => {
    const sdp = inviteSdp({
      serverId: '34020000002000000001',
      channelId: '34020000001310000001',
      receiver: { ...receiver, ssrc: '1100000001' },
      kind: 'playback',
      start: new Date('2026-11-27T10:00:00Z'),
      end: new Date('2026-11-27T10:30:00Z'),
    });
    expect(sdp).toContain('s=Playback\r\nu=34020000001310000001:0\r\n');
    expect(sdp).toContain(`t=${Date.parse('2026-11-27T10:00:00Z') / 1000} ${Date.parse('2026-11-27T10:30:00Z') / 1000}\r\n`);
  });

  it('reads a camera answer leniently', () => {
    expect(parseSdpAnswer('v=0\r\nc=IN IP4 192.168.1.64\r\nm=video 15060 RTP/AVP 96\r\ny=0100000001\r\n')).toEqual({
      ip: '192.168.1.64',
      port: 15060,
      ssrc: '0100000001',
      session: undefined,
    });
    expect(parseSdpAnswer('garbage')).toEqual({ ip: undefined, port: undefined, ssrc: undefined, session: undefined });
  });
});

describe('MANSCDP bodies', () => {
  const gbk = (text: string) => {
    // GB2312 bytes of 大门 (gate) and 院子 (yard), written out: Node has no GBK encoder.
    return Buffer.concat(
      text
        .split(/(大门|院子)/)
        .map((part) =>
          part === '大门'
            ? Buffer.from([0xb4, 0xf3, 0xc3, 0xc5])
            : part === '院子'
              ? Buffer.from([0xd4, 0xba, 0xd7, 0xd3])
              : Buffer.from(part, 'latin1'),
        ),
    );
  };

  it('reads a Catalog response sent in GB2312, declared or not', () => {
    const xml = `<?xml version="1.0" encoding="GB2312"?><Response><CmdType>Catalog</CmdType><SN>7</SN><DeviceID>34020000001320000001</DeviceID><SumNum>2</SumNum><DeviceList Num="2"><Item><DeviceID>34020000001310000001</DeviceID><Name>大门</Name><Manufacturer>Hik</Manufacturer><Status>ON</Status></Item><Item><DeviceID>34020000001310000002</DeviceID><Name>院子</Name><Status>OFF</Status></Item><Item><DeviceID>bad</DeviceID></Item></DeviceList></Response>`;
    for (const body of [gbk(xml), gbk(xml.replace('encoding="GB2312"', 'encoding="UTF-8"')), gbk(xml.replace(/<\?xml[^>]*>/, ''))]) {
      const parsed = parseManscdp(body);
      expect(parsed).toMatchObject({ root: 'Response', cmdType: 'Catalog', sn: '7', sumNum: 2 });
      if (parsed && 'items' in parsed)
        expect(parsed.items).toEqual([
          { gbId: '34020000001310000001', name: '大门', status: 'online', manufacturer: 'Hik', model: null },
          { gbId: '34020000001310000002', name: '院子', status: 'offline', manufacturer: null, model: null },
        ]);
    }
  });

  it('reads a keepalive, UTF-8 text as UTF-8, entities, and refuses what is not MANSCDP', () => {
    expect(
      parseManscdp(
        Buffer.from('<Notify><CmdType>Keepalive</CmdType><SN>1</SN><DeviceID>34020000001320000001</DeviceID><Status>OK</Status></Notify>'),
      ),
    ).toMatchObject({
      cmdType: 'Keepalive',
      ok: true,
    });
    expect(decodeManscdp(Buffer.from('<Name>Tür &amp; Tor</Name>'))).toBe('<Name>Tür &amp; Tor</Name>');
    expect(parseManscdp(Buffer.from('not xml'))).toBeUndefined();
    expect(parseManscdp(Buffer.alloc(0))).toBeUndefined();
  });

  it('writes a Catalog query', () => {
    expect(catalogQuery('34020000001320000001', 5)).toContain(
      '<CmdType>Catalog</CmdType>\r\n<SN>5</SN>\r\n<DeviceID>34020000001320000001</DeviceID>',
    );
  });
});
