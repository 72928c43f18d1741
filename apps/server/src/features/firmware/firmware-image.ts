/**
 * What a firmware file really is, from its bytes and not from the name a client claims: a .hex must
 * be Intel HEX text with valid record checksums; a .bin must be a binary image, not an empty file,
 * not text, and not plainly another format (picture, archive, document, executable).
 */

export type ImageProblem = { kind: 'empty' } | { kind: 'hex'; line: number } | { kind: 'binText' } | { kind: 'binFormat'; format: string };

/** Magic numbers of formats a firmware image is not. */
const FOREIGN_FORMATS: readonly { format: string; magic: readonly number[] }[] = [
  { format: 'PNG', magic: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { format: 'JPEG', magic: [0xff, 0xd8, 0xff] },
  { format: 'GIF', magic: [0x47, 0x49, 0x46, 0x38] },
  { format: 'PDF', magic: [0x25, 0x50, 0x44, 0x46, 0x2d] },
  { format: 'ZIP', magic: [0x50, 0x4b, 0x03, 0x04] },
  { format: 'ZIP', magic: [0x50, 0x4b, 0x05, 0x06] },
  { format: 'GZIP', magic: [0x1f, 0x8b] },
  { format: 'RAR', magic: [0x52, 0x61, 0x72, 0x21, 0x1a, 0x07] },
  { format: '7Z', magic: [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c] },
  { format: 'ELF', magic: [0x7f, 0x45, 0x4c, 0x46] },
  { format: 'OLE (Office)', magic: [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1] },
];

function startsWith(bytes: Uint8Array, magic: readonly number[]): boolean {
  return bytes.length >= magic.length && magic.every((b, i) => bytes[i] === b);
}

/** Printable ASCII plus tab, CR and LF: a file made only of these is text, whatever its name. */
function isText(bytes: Uint8Array): boolean {
  for (const b of bytes) if (!(b === 0x09 || b === 0x0a || b === 0x0d || (b >= 0x20 && b < 0x7f))) return false;
  return true;
}

const HEX_LINE = /^:((?:[0-9A-Fa-f]{2})+)$/;

/**
 * Intel HEX: every non-blank line `:` + hex pairs, byte count matching the length, record type 00–05,
 * the checksum making the record's bytes sum to 0 mod 256, at least one data record, and the end-of-file
 * record last. Answers the 1-based line of the first problem, or undefined when the text is valid.
 */
export function intelHexProblemLine(textBytes: Uint8Array): number | undefined {
  if (!isText(textBytes)) return 1;
  const lines = Buffer.from(textBytes).toString('ascii').split(/\r?\n/);
  let data = 0;
  let ended = false;
  let last = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] ?? '').trim();
    if (line === '') continue;
    last = i + 1;
    if (ended) return i + 1;
    const m = HEX_LINE.exec(line);
    if (!m?.[1]) return i + 1;
    const record = Buffer.from(m[1], 'hex');
    const count = record[0] ?? 0;
    const type = record[3] ?? 0xff;
    if (record.length !== count + 5 || type > 5) return i + 1;
    let sum = 0;
    for (const b of record) sum = (sum + b) & 0xff;
    if (sum !== 0) return i + 1;
    if (type === 0 && count > 0) data++;
    if (type === 1) ended = true;
  }
  if (last === 0) return 1;
  if (!ended || data === 0) return last;
  return undefined;
}

/** Checks the bytes against the type the name gives; undefined when they are a plausible image of it. */
export function imageProblem(bytes: Uint8Array, extension: 'bin' | 'hex'): ImageProblem | undefined {
  if (bytes.length === 0) return { kind: 'empty' };
  if (extension === 'hex') {
    const line = intelHexProblemLine(bytes);
    return line === undefined ? undefined : { kind: 'hex', line };
  }
  const foreign = FOREIGN_FORMATS.find((f) => startsWith(bytes, f.magic));
  if (foreign) return { kind: 'binFormat', format: foreign.format };
  if (isText(bytes)) return intelHexProblemLine(bytes) === undefined ? { kind: 'binFormat', format: 'Intel HEX' } : { kind: 'binText' };
  return undefined;
}
