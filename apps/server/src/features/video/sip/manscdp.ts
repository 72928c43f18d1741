/**
 * MANSCDP (GB28181's XML in MESSAGE bodies): the few commands the platform reads (Keepalive, Catalog responses,
 * DeviceInfo) and the Catalog query it sends. Cameras write GB2312 (often declared, sometimes not, sometimes
 * declared UTF-8 and sent as GBK): bodies are decoded leniently (UTF-8 when valid, else GB18030, a superset of
 * GB2312 and GBK) and read with a small tolerant scanner, never a validating parser; nothing here throws.
 */
export const MANSCDP_CONTENT_TYPE = 'Application/MANSCDP+xml';

const utf8 = new TextDecoder('utf-8', { fatal: true });
const gb = new TextDecoder('gb18030');

export function decodeManscdp(body: Buffer): string {
  const prolog = body.subarray(0, 100).toString('latin1');
  const declared = /encoding\s*=\s*["']?([A-Za-z0-9_-]+)/i.exec(prolog)?.[1]?.toLowerCase();
  const gbDeclared = declared !== undefined && /^(gb2312|gbk|gb18030|x-gbk|cp936)$/.test(declared);
  if (!gbDeclared) {
    try {
      return utf8.decode(body);
    } catch {
      // Not UTF-8 whatever it says: GBK is what such cameras actually send.
    }
  }
  return gb.decode(body);
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function unescapeXml(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|amp|lt|gt|quot|apos);/gi, (whole, entity: string) => {
    const lower = entity.toLowerCase();
    if (lower.startsWith('#')) {
      const code = lower.startsWith('#x') ? Number.parseInt(lower.slice(2), 16) : Number.parseInt(lower.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[lower] ?? whole;
  });
}

/** The text of the first `<name>…</name>` inside `xml` (case-insensitive names), trimmed and unescaped. */
function text(xml: string, name: string): string | undefined {
  const m = new RegExp(`<${name}(?:\\s[^>]*)?>([\\s\\S]*?)</${name}\\s*>`, 'i').exec(xml);
  return m?.[1] === undefined ? undefined : unescapeXml(m[1].replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, '$1')).trim();
}

function blocks(xml: string, name: string, max: number): string[] {
  const out: string[] = [];
  const re = new RegExp(`<${name}(?:\\s[^>]*)?>([\\s\\S]*?)</${name}\\s*>`, 'gi');
  for (let m = re.exec(xml); m && out.length < max; m = re.exec(xml)) out.push(m[1] ?? '');
  return out;
}

export interface CatalogItem {
  gbId: string;
  name: string;
  status: 'online' | 'offline';
  manufacturer: string | null;
  model: string | null;
}

export type ManscdpMessage =
  | { root: 'Notify'; cmdType: 'Keepalive'; sn: string; deviceId: string; ok: boolean }
  | { root: 'Response'; cmdType: 'Catalog'; sn: string; deviceId: string; sumNum: number; items: CatalogItem[] }
  | { root: 'Response'; cmdType: 'DeviceInfo'; sn: string; deviceId: string; manufacturer: string | null; model: string | null }
  | { root: string; cmdType: string; sn: string; deviceId: string; other: true };

/** A catalog answer names at most this many channels per message (the rest are ignored). */
const ITEMS_MAX = 256;
const clip = (value: string | undefined, max: number) => (value ? value.slice(0, max) : undefined);

export function parseManscdp(body: Buffer): ManscdpMessage | undefined {
  if (body.length === 0) return undefined;
  const xml = decodeManscdp(body);
  const root = /<(Notify|Response|Query|Control)[\s>]/i.exec(xml)?.[1];
  const cmdType = text(xml, 'CmdType');
  const deviceId = text(xml, 'DeviceID');
  if (!root || !cmdType || !deviceId) return undefined;
  const sn = clip(text(xml, 'SN'), 20) ?? '';
  const rootName = root[0]?.toUpperCase() + root.slice(1).toLowerCase();
  const cmd = cmdType.toLowerCase();
  if (rootName === 'Notify' && cmd === 'keepalive')
    return { root: 'Notify', cmdType: 'Keepalive', sn, deviceId, ok: (text(xml, 'Status') ?? 'OK').toUpperCase() === 'OK' };
  if (rootName === 'Response' && cmd === 'catalog') {
    const sumNum = Number(text(xml, 'SumNum'));
    const items: CatalogItem[] = [];
    for (const item of blocks(xml, 'Item', ITEMS_MAX)) {
      const gbId = text(item, 'DeviceID');
      if (!gbId || !/^\d{20}$/.test(gbId)) continue;
      const status = (text(item, 'Status') ?? 'ON').toUpperCase();
      items.push({
        gbId,
        name: clip(text(item, 'Name'), 100) || gbId,
        status: status === 'ON' || status === 'OK' || status === 'ONLINE' ? 'online' : 'offline',
        manufacturer: clip(text(item, 'Manufacturer'), 100) ?? null,
        model: clip(text(item, 'Model'), 100) ?? null,
      });
    }
    return {
      root: 'Response',
      cmdType: 'Catalog',
      sn,
      deviceId,
      sumNum: Number.isInteger(sumNum) && sumNum >= 0 && sumNum <= 10_000 ? sumNum : items.length,
      items,
    };
  }
  if (rootName === 'Response' && cmd === 'deviceinfo')
    return {
      root: 'Response',
      cmdType: 'DeviceInfo',
      sn,
      deviceId,
      manufacturer: clip(text(xml, 'Manufacturer'), 100) ?? null,
      model: clip(text(xml, 'Model'), 100) ?? null,
    };
  return { root: rootName, cmdType, sn, deviceId, other: true };
}

/** The Catalog query (ASCII only, so the declared GB2312 is also true). */
export function catalogQuery(deviceId: string, sn: number): string {
  return `<?xml version="1.0" encoding="GB2312"?>\r\n<Query>\r\n<CmdType>Catalog</CmdType>\r\n<SN>${sn}</SN>\r\n<DeviceID>${deviceId}</DeviceID>\r\n</Query>\r\n`;
}
