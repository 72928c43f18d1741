import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decodeBlocks,
  decodeBlocksIndexed,
  decodeEvents,
  decodeEventsIndexed,
  encodeValues,
  mapPoints,
  numericPointIds,
  numericPointIndexes,
  registersForType,
  registersFromHex,
  registersToHex,
} from './codec.js';
import { BUILT_IN_PROTOCOLS } from './maps/index.js';
import { sampleValues } from './sample-values.js';
import type { DataType, DecodedValue, ProtocolDefinition, RegisterBlock, RegisterPoint } from './types.js';

type PointInput = Partial<RegisterPoint> & Pick<RegisterPoint, 'type'>;

function point(input: PointInput): RegisterPoint {
  return {
    id: 'X',
    label: { en: 'X', zh: '某值' },
    functionCode: 3,
    address: 100,
    count: input.type === 'string' ? 4 : registersForType(input.type),
    operation: 'r',
    ...input,
  };
}

function mapOf(...points: RegisterPoint[]): ProtocolDefinition {
  return {
    id: 'test',
    version: '1',
    name: { en: 'Test', zh: '测试' },
    family: 'inverter',
    manufacturer: 'Test',
    source: 'test',
    points,
    events: [],
  };
}

function block(address: number, registers: readonly number[], functionCode = 3): RegisterBlock {
  return { functionCode, address, registers };
}

/** Encodes one value and decodes it again with the same map. */
function roundTrip(map: ProtocolDefinition, values: Record<string, DecodedValue>) {
  return decodeBlocks(map, encodeValues(map, values));
}

const SWAPS = [
  { byteSwap: false, wordSwap: false },
  { byteSwap: false, wordSwap: true },
  { byteSwap: true, wordSwap: false },
  { byteSwap: true, wordSwap: true },
] as const;

/** Every value a type can carry, except its "not implemented" sentinel. */
const INTEGER_RANGES: Record<Exclude<DataType, 'f32' | 'string'>, fc.Arbitrary<number>> = {
  u16: fc.integer({ min: 0, max: 0xfffe }),
  s16: fc.integer({ min: -0x7fff, max: 0x7fff }),
  u32: fc.integer({ min: 0, max: 0xfffffffe }),
  s32: fc.integer({ min: -0x7fffffff, max: 0x7fffffff }),
  u64: fc.maxSafeNat(),
  bits16: fc.integer({ min: 0, max: 0xfffe }),
  bits32: fc.integer({ min: 0, max: 0xfffffffe }),
};

describe('hex', () => {
  it('round-trips any register list', () => {
    fc.assert(
      fc.property(fc.array(fc.nat({ max: 0xffff }), { maxLength: 200 }), (registers) => {
        expect(registersFromHex(registersToHex(registers))).toEqual(registers);
      }),
    );
  });

  it('reads 4 hex digits per register, big-endian, in either case', () => {
    expect(registersFromHex('00FFabCD1234')).toEqual([0x00ff, 0xabcd, 0x1234]);
    expect(registersFromHex('')).toEqual([]);
    expect(registersToHex([0x1234, 0xff, 0])).toBe('123400ff0000');
  });

  it('refuses what is not whole registers of hex', () => {
    for (const bad of ['abc', '00ff0', '0g00', '00 ff', '0x00ff', '12345', '-001']) expect(registersFromHex(bad)).toBeNull();
    expect(registersFromHex(42 as unknown as string)).toBeNull();
  });

  it('never throws on any string', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const registers = registersFromHex(text);
        if (registers !== null) expect(registersToHex(registers)).toBe(text.toLowerCase());
      }),
    );
  });

  it('cuts values outside 16 bits as the wire would', () => {
    expect(registersToHex([0x12345, -1, Number.NaN, 1.7])).toBe('2345ffff00000001');
  });
});

describe('round-trips of every data type and swap combination', () => {
  for (const swap of SWAPS) {
    const name = `byteSwap=${swap.byteSwap} wordSwap=${swap.wordSwap}`;

    for (const [type, values] of Object.entries(INTEGER_RANGES) as [keyof typeof INTEGER_RANGES, fc.Arbitrary<number>][]) {
      it(`${type} exactly (${name})`, () => {
        const map = mapOf(point({ type, ...swap }));
        fc.assert(
          fc.property(values, (value) => {
            const result = roundTrip(map, { X: value });
            expect(result.problems).toEqual([]);
            expect(result.values.X).toBe(value);
          }),
        );
      });
    }

    it(`f32 within float precision (${name})`, () => {
      const map = mapOf(point({ type: 'f32', ...swap }));
      fc.assert(
        fc.property(fc.float({ noNaN: true, noDefaultInfinity: true }), (value) => {
          const result = roundTrip(map, { X: value });
          expect(result.problems).toEqual([]);
          const decoded = result.values.X;
          expect(typeof decoded).toBe('number');
          // Same float32 bits (=== so that 0 and -0 count as one value).
          expect(Math.fround(decoded as number) === Math.fround(value)).toBe(true);
        }),
      );
    });

    it(`strings (${name})`, () => {
      const printable = fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code));
      fc.assert(
        fc.property(fc.nat(3), fc.string({ unit: printable, minLength: 1, maxLength: 16 }), (skipBytes, text) => {
          const map = mapOf(point({ type: 'string', count: 8, skipBytes, ...swap }));
          const expected = text.slice(0, 16 - skipBytes).replace(/ +$/, '');
          const result = roundTrip(map, { X: text });
          expect(result.problems).toEqual([]);
          expect(result.values.X).toBe(expected === '' ? undefined : expected);
        }),
      );
    });
  }

  it('puts words and bytes in the order the flags say', () => {
    const registersOf = (input: PointInput, value: number) => encodeValues(mapOf(point(input)), { X: value })[0]?.registers;
    expect(registersOf({ type: 'u32' }, 0x12345678)).toEqual([0x1234, 0x5678]);
    expect(registersOf({ type: 'u32', wordSwap: true }, 0x12345678)).toEqual([0x5678, 0x1234]);
    expect(registersOf({ type: 'u32', byteSwap: true }, 0x12345678)).toEqual([0x3412, 0x7856]);
    expect(registersOf({ type: 'u32', byteSwap: true, wordSwap: true }, 0x12345678)).toEqual([0x7856, 0x3412]);
    expect(registersOf({ type: 'u64', wordSwap: true }, 0x0001_0002_0003_0004)).toEqual([4, 3, 2, 1]);
    expect(registersOf({ type: 's16' }, -2)).toEqual([0xfffe]);
    expect(registersOf({ type: 's32' }, -2)).toEqual([0xffff, 0xfffe]);
    expect(registersOf({ type: 'f32' }, 1)).toEqual([0x3f80, 0]);
  });

  it('decodes known frames', () => {
    const decode = (input: PointInput, registers: number[]) => decodeBlocks(mapOf(point(input)), [block(100, registers)]).values.X;
    expect(decode({ type: 's16' }, [0xff38])).toBe(-200);
    expect(decode({ type: 's32', wordSwap: true }, [0xfffe, 0xffff])).toBe(-2);
    expect(decode({ type: 'u64' }, [0x001f, 0xffff, 0xffff, 0xffff])).toBe(Number.MAX_SAFE_INTEGER);
    expect(decode({ type: 'f32' }, [0x4366, 0x199a])).toBe(230.1); // 230.1f, shown as written
    expect(decode({ type: 'bits32' }, [0x8000, 0x0001])).toBe(0x80000001);
    expect(decode({ type: 'string', count: 4 }, [0x5375, 0x6e53, 0x2020, 0])).toBe('SunS');
    expect(decode({ type: 'string', count: 4, skipBytes: 2 }, [0, 0x4142, 0x4300, 0x4445])).toBe('ABC');
    expect(decode({ type: 'string', count: 2 }, [0x41ff, 0x4200])).toBe('A\uFFFDB');
  });
});

describe('scale factors, scale and base', () => {
  const scaled = mapOf(
    point({ id: 'V', type: 'u16', address: 100, scaleFactorPoint: 'V_SF' }),
    point({ id: 'V_SF', type: 's16', address: 101 }),
    point({ id: 'W', type: 's16', address: 102, scaleFactorPoint: 'W_SF' }),
    point({ id: 'W_SF', type: 's16', address: 103 }),
  );

  it('applies value × 10^sf and rounds to the decimals the factor gives', () => {
    const result = decodeBlocks(scaled, [block(100, [2301, 0xffff, 123, 2])]);
    expect(result).toEqual({ values: { V: 230.1, V_SF: -1, W: 12300, W_SF: 2 }, problems: [] });
    expect(decodeBlocks(scaled, [block(100, [2301, 0xfffd, 1, 0])]).values.V).toBe(2.301);
  });

  it('round-trips any raw value with any scale factor', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xfffe }), fc.integer({ min: -6, max: 6 }), (raw, exponent) => {
        const registers = [raw, exponent & 0xffff];
        const decoded = decodeBlocks(scaled, [block(100, registers)]);
        expect(decoded.problems).toEqual([]);
        const value = decoded.values.V as number;
        expect(value).toBe(Number.parseFloat((raw * 10 ** exponent).toFixed(Math.max(0, -exponent))));
        expect(encodeValues(scaled, decoded.values)[0]?.registers.slice(0, 2)).toEqual(registers);
      }),
    );
  });

  it('applies scale before base and avoids binary noise', () => {
    const map = mapOf(point({ type: 'u16', scale: 0.1, base: -40 }));
    expect(decodeBlocks(map, [block(100, [2301])]).values.X).toBe(190.1);
    const fine = mapOf(point({ type: 'u16', scale: 0.001 }));
    expect(decodeBlocks(fine, [block(100, [3312])]).values.X).toBe(3.312);
    expect(roundTrip(fine, { X: 3.312 }).values.X).toBe(3.312);
    const coarse = mapOf(point({ type: 'u32', wordSwap: true, scale: 100 }));
    expect(roundTrip(coarse, { X: 1234500 }).values.X).toBe(1234500);
  });

  it('treats an unimplemented scale factor (0x8000) as making its points absent, without a problem', () => {
    expect(decodeBlocks(scaled, [block(100, [2301, 0x8000, 5, 0])])).toEqual({ values: { W: 5, W_SF: 0 }, problems: [] });
  });

  it('reports a scale factor that is missing or not a sane exponent', () => {
    const missing = decodeBlocks(scaled, [block(100, [2301])]);
    expect(missing.values).toEqual({});
    expect(missing.problems).toEqual([expect.stringContaining('V_SF')]);
    const absurd = decodeBlocks(scaled, [block(100, [2301, 50, 1, 0])]);
    expect(absurd.values).toEqual({ V_SF: 50, W: 1, W_SF: 0 });
    expect(absurd.problems).toEqual([expect.stringMatching(/"V".*V_SF.*50/)]);
  });

  it('encodes with the scale factors given, or 0 when absent', () => {
    expect(encodeValues(scaled, { V: 230.1, V_SF: -1, W: 5000, W_SF: 1 })[0]?.registers).toEqual([2301, 0xffff, 500, 1]);
    expect(encodeValues(scaled, { V: 230.1, W: 5000 })[0]?.registers).toEqual([230, 0, 5000, 0]);
  });
});

describe('not implemented sentinels', () => {
  const cases: [PointInput, number[]][] = [
    [{ type: 'u16' }, [0xffff]],
    [{ type: 's16' }, [0x8000]],
    [{ type: 'u32' }, [0xffff, 0xffff]],
    [{ type: 's32' }, [0x8000, 0]],
    [{ type: 's32', wordSwap: true }, [0, 0x8000]],
    [{ type: 'u32', accumulator: true }, [0, 0]],
    [{ type: 'u16', accumulator: true }, [0]],
    [{ type: 'u64' }, [0xffff, 0xffff, 0xffff, 0xffff]],
    [{ type: 'u64', accumulator: true }, [0, 0, 0, 0]],
    [{ type: 'f32' }, [0x7fc0, 0]],
    [{ type: 'f32' }, [0xffc0, 0x0001]],
    [{ type: 'f32', byteSwap: true }, [0xc07f, 0]],
    [{ type: 'bits16' }, [0xffff]],
    [{ type: 'bits32' }, [0xffff, 0xffff]],
    [{ type: 'string', count: 2 }, [0, 0]],
  ];
  for (const [input, registers] of cases) {
    it(`${JSON.stringify(input)} ${registersToHex(registers)} decodes as absent without a problem`, () => {
      expect(decodeBlocks(mapOf(point(input)), [block(100, registers)])).toEqual({ values: {}, problems: [] });
    });
  }

  it('keeps 0 of a plain counter, which is not an accumulator', () => {
    expect(decodeBlocks(mapOf(point({ type: 'u32' })), [block(100, [0, 0])]).values).toEqual({ X: 0 });
  });

  it('writes sentinels for points without a value, and 0 for scale factors', () => {
    for (const protocol of BUILT_IN_PROTOCOLS) {
      const result = roundTrip(protocol, {});
      expect(result.problems).toEqual([]);
      const factors = new Set(protocol.points.flatMap((p) => (p.scaleFactorPoint ? [p.scaleFactorPoint] : [])));
      expect(Object.keys(result.values).sort()).toEqual([...factors].sort());
      for (const id of factors) expect(result.values[id]).toBe(0);
    }
  });
});

describe('problems instead of exceptions', () => {
  it('reports required points missing from the report and skips optional ones silently', () => {
    const map = mapOf(point({ id: 'W', type: 's16', address: 10, required: true }), point({ id: 'VA', type: 's16', address: 11 }));
    expect(decodeBlocks(map, [])).toEqual({
      values: {},
      problems: ['required point "W" (function 3, register 10) is missing from the report'],
    });
    expect(decodeBlocks(map, [block(10, [7])])).toEqual({ values: { W: 7 }, problems: [] });
  });

  it('matches points only with blocks of their function code', () => {
    const map = mapOf(point({ type: 'u16', functionCode: 4 }));
    expect(decodeBlocks(map, [block(100, [7], 3)]).values).toEqual({});
    expect(decodeBlocks(map, [block(100, [7], 4)]).values).toEqual({ X: 7 });
  });

  it('decodes a point that straddles two reads, and reports one only partly read', () => {
    const map = mapOf(point({ type: 'u32' }));
    expect(decodeBlocks(map, [block(99, [0, 1]), block(101, [2])]).values).toEqual({ X: 0x10002 });
    const partial = decodeBlocks(map, [block(99, [0, 1])]);
    expect(partial.values).toEqual({});
    expect(partial.problems).toEqual([expect.stringContaining('only partly')]);
  });

  it('keeps the first of overlapping blocks', () => {
    const map = mapOf(point({ type: 'u16' }));
    expect(decodeBlocks(map, [block(100, [1]), block(100, [2])]).values).toEqual({ X: 1 });
  });

  it('reports u64 values beyond 2^53 and infinite floats', () => {
    const big = decodeBlocks(mapOf(point({ type: 'u64' })), [block(100, [0x0020, 0, 0, 0])]);
    expect(big.values).toEqual({});
    expect(big.problems).toEqual([expect.stringContaining('2^53')]);
    const infinite = decodeBlocks(mapOf(point({ type: 'f32' })), [block(100, [0x7f80, 0])]);
    expect(infinite.values).toEqual({});
    expect(infinite.problems).toEqual([expect.stringContaining('infinite')]);
  });

  it('rejects blocks with bad registers, addresses, function codes or lengths', () => {
    const map = mapOf(point({ type: 'u16', address: 0 }));
    const bad: unknown[] = [
      block(0, [-1]),
      block(0, [70000]),
      block(0, [1.5]),
      block(0, [Number.NaN]),
      block(-1, [1, 2]),
      block(0.5, [1]),
      block(0, new Array<number>(2001).fill(1)),
      block(65535, [1, 2]),
      block(0, [1], 16),
      { functionCode: 3, address: 0, registers: 'ffff' },
      { functionCode: 3, address: 0 },
      null,
      'frame',
    ];
    const result = decodeBlocks(map, bad as RegisterBlock[]);
    expect(result.values).toEqual({});
    expect(result.problems).toHaveLength(bad.length);
    expect(result.problems[0]).toBe('block 0 (function 3, address 0): register 0 is -1, not an integer 0..65535; block ignored');
    expect(decodeBlocks(map, 'nonsense' as unknown as RegisterBlock[]).problems).toEqual(['blocks are not a list']);
  });

  it('reports map errors instead of failing on them', () => {
    const map = mapOf(point({ type: 'u32', count: 1 }), point({ id: 'Y', type: 'u16', scaleFactorPoint: 'nowhere' }));
    const result = decodeBlocks(map, [block(100, [1, 2])]);
    expect(result.values).toEqual({});
    expect(result.problems).toEqual([expect.stringContaining('needs 2 registers'), expect.stringContaining('"nowhere" is not in the map')]);
  });
});

describe('encoding', () => {
  it('clamps values to the range of the type, short of the sentinel', () => {
    const encoded = (input: PointInput, value: DecodedValue) => roundTrip(mapOf(point(input)), { X: value }).values.X;
    expect(encoded({ type: 's16' }, 100000)).toBe(32767);
    expect(encoded({ type: 's16' }, -100000)).toBe(-32767);
    expect(encoded({ type: 'u16' }, -5)).toBe(0);
    expect(encoded({ type: 'u16' }, 1e9)).toBe(0xfffe);
    expect(encoded({ type: 'u32' }, Number.POSITIVE_INFINITY)).toBe(0xfffffffe);
    expect(encoded({ type: 'u64' }, 2 ** 60)).toBe(Number.MAX_SAFE_INTEGER);
    expect(encoded({ type: 'f32' }, 1e40)).toBe(3.4028235e38);
    expect(encoded({ type: 'u16', scale: 0.1 }, 7000)).toBe(6553.4);
    expect(encoded({ type: 'u16' }, '42')).toBe(42);
    expect(encoded({ type: 'u16' }, 'forty')).toBeUndefined();
  });

  it('pads strings with NULs, cuts them to the field and writes only ASCII', () => {
    const map = mapOf(point({ type: 'string', count: 3 }));
    expect(encodeValues(map, { X: 'AB' })[0]?.registers).toEqual([0x4142, 0, 0]);
    expect(roundTrip(map, { X: 'ABCDEFGH' }).values.X).toBe('ABCDEF');
    expect(roundTrip(map, { X: 'Zé' }).values.X).toBe('Z?');
  });

  it('merges neighbouring points into blocks of at most 125 registers, per function code', () => {
    const map = mapOf(
      point({ id: 'a', type: 'u16', address: 10 }),
      point({ id: 'b', type: 'u32', address: 11 }),
      point({ id: 'c', type: 'u16', address: 20 }),
      point({ id: 'd', type: 'u16', address: 100 }),
      point({ id: 'e', type: 'u16', address: 224 }),
      point({ id: 'f', type: 'u16', address: 10, functionCode: 4 }),
    );
    const blocks = encodeValues(map, { a: 1, b: 2, c: 3, d: 4, e: 5, f: 6 });
    expect(blocks).toEqual(
      [
        { functionCode: 3, address: 10, registers: [1, 0, 2, 0, 0, 0, 0, 0, 0, 0, 3] },
        { functionCode: 3, address: 100, registers: [4] },
        { functionCode: 4, address: 10, registers: [6] },
        { functionCode: 3, address: 224, registers: [5] },
      ].sort((x, y) => x.functionCode - y.functionCode || x.address - y.address),
    );
    expect(encodeValues(map, { f: 6 }, { functionCode: 4 })).toEqual([{ functionCode: 4, address: 10, registers: [6] }]);
    const chain = mapOf(...Array.from({ length: 200 }, (_, i) => point({ id: `p${i}`, type: 'u16', address: i })));
    expect(encodeValues(chain, {}).map((b) => [b.address, b.registers.length])).toEqual([
      [0, 125],
      [125, 75],
    ]);
    for (const protocol of BUILT_IN_PROTOCOLS) {
      for (const b of encodeValues(protocol, sampleValues(protocol))) expect(b.registers.length).toBeLessThanOrEqual(125);
    }
  });
});

describe('events and storage order', () => {
  const map: ProtocolDefinition = {
    ...mapOf(
      point({ id: 'Mn', type: 'string', address: 0 }),
      point({ id: 'W', type: 's16', address: 10, scaleFactorPoint: 'W_SF' }),
      point({ id: 'W_SF', type: 's16', address: 11 }),
      point({ id: 'Evt', type: 'bits32', address: 12, role: 'event_bits' }),
      point({ id: 'St', type: 'u16', address: 14 }),
    ),
    events: [
      { point: 'Evt', bit: 0, code: 1001, level: 'fault', description: { en: 'a', zh: '甲' }, solution: { en: 'a', zh: '甲' } },
      { point: 'Evt', bit: 4, code: 1005, level: 'protect', description: { en: 'b', zh: '乙' }, solution: { en: 'b', zh: '乙' } },
      { point: 'Evt', bit: 31, code: 1032, level: 'warning', description: { en: 'c', zh: '丙' }, solution: { en: 'c', zh: '丙' } },
    ],
  };

  it('returns the events whose bits are set, including bit 31', () => {
    expect(decodeEvents(map, { Evt: 0 })).toEqual([]);
    expect(decodeEvents(map, {})).toEqual([]);
    expect(decodeEvents(map, { Evt: 'x' })).toEqual([]);
    expect(decodeEvents(map, { Evt: 0x80000011 })).toEqual([
      { code: 1001, level: 'fault', bit: 0, point: 'Evt' },
      { code: 1005, level: 'protect', bit: 4, point: 'Evt' },
      { code: 1032, level: 'warning', bit: 31, point: 'Evt' },
    ]);
    const decoded = decodeBlocks(map, [block(12, [0x8000, 0x0010])]).values;
    expect(decodeEvents(map, decoded).map((event) => event.code)).toEqual([1005, 1032]);
  });

  it('stores every numeric point except strings and scale factors, in map order', () => {
    expect(numericPointIds(map)).toEqual(['W', 'Evt', 'St']);
    expect(numericPointIndexes(map).map((index) => mapPoints(map)[index]?.id)).toEqual(['W', 'Evt', 'St']);
  });

  it('gives the same values and events by point index as by id', () => {
    const blocks = [block(0, [0x4142, 0x4300, 0, 0]), block(10, [1234, 0xffff, 0x8000, 0x0011, 7])];
    const indexed = decodeBlocksIndexed(map, blocks);
    const byId = decodeBlocks(map, blocks);
    const points = mapPoints(map);
    expect(indexed.texts.get(points.findIndex((p) => p.id === 'Mn'))).toBe('ABC');
    expect(indexed.numbers[points.findIndex((p) => p.id === 'W')]).toBe(123.4);
    expect(byId.values).toEqual({ Mn: 'ABC', W: 123.4, W_SF: -1, Evt: 0x80000011, St: 7 });
    expect(decodeEventsIndexed(map, indexed.numbers)).toEqual(decodeEvents(map, byId.values));
  });
});

describe('point layouts remembered per block signature', () => {
  const map = mapOf(
    point({ id: 'A', type: 'u16', address: 0 }),
    point({ id: 'B', type: 'u32', address: 1 }),
    point({ id: 'C', type: 's16', address: 3 }),
  );

  it('decodes the same registers the same way however the gateway splits its reads', () => {
    const registers = [1, 1, 70000 - 65536, 0xfffe];
    const expected = { A: 1, B: 70000, C: -2 };
    for (let first = 1; first < 4; first++) {
      // The point B straddles the split when first = 2; the layout of each split is kept and reused.
      for (let repeat = 0; repeat < 2; repeat++) {
        const decoded = decodeBlocks(map, [block(0, registers.slice(0, first)), block(first, registers.slice(first))]);
        expect(decoded).toEqual({ values: expected, problems: [] });
      }
    }
    expect(decodeBlocks(map, [block(0, registers.slice(0, 2))])).toEqual({
      values: { A: 1 },
      problems: ['point "B" (function 3, registers 1..2) is only partly in the report'],
    });
    expect(decodeBlocks(map, [block(1, registers.slice(1))])).toEqual({ values: { B: 70000, C: -2 }, problems: [] });
  });

  it('stays correct for any split and order of the blocks', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 0xfffe }), { minLength: 4, maxLength: 4 }),
        fc.integer({ min: 1, max: 3 }),
        fc.boolean(),
        (registers, split, reversed) => {
          const whole = decodeBlocks(map, [block(0, registers)]);
          const parts = [block(0, registers.slice(0, split)), block(split, registers.slice(split))];
          expect(decodeBlocks(map, reversed ? parts.reverse() : parts)).toEqual(whole);
        },
      ),
    );
  });
});

describe('decodeBlocks on hostile input', () => {
  const encoded = BUILT_IN_PROTOCOLS.map((protocol) => encodeValues(protocol, sampleValues(protocol)));
  const pointIds = BUILT_IN_PROTOCOLS.map((protocol) => new Set(protocol.points.map((p) => p.id)));
  const INVALID = [-1, 70000, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 65536, -0.5] as const;

  /** A cheap deterministic generator so that long frames cost one fast-check value, not 130. */
  function registersFrom(seed: number, length: number, invalidEvery: number): number[] {
    let state = seed >>> 0 || 1;
    const registers: number[] = [];
    for (let i = 0; i < length; i++) {
      state ^= state << 13;
      state ^= state >>> 17;
      state ^= state << 5;
      state >>>= 0;
      registers.push(invalidEvery > 0 && state % invalidEvery === 0 ? (INVALID[state % INVALID.length] ?? -1) : state & 0xffff);
    }
    return registers;
  }

  const register = fc.oneof({ weight: 12, arbitrary: fc.nat({ max: 0xffff }) }, { weight: 1, arbitrary: fc.constantFrom(...INVALID) });
  const address = fc.oneof(fc.integer({ min: 39990, max: 40400 }), fc.integer({ min: 0, max: 1100 }), fc.integer({ min: -10, max: 70000 }));
  const functionCode = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(3, 4) },
    { weight: 1, arbitrary: fc.integer({ min: -1, max: 130 }) },
  );

  /** A frame is made for the protocol under test: real frames are cut from that protocol's encoding. */
  type Frame = (protocolIndex: number) => unknown;
  const frame: fc.Arbitrary<Frame> = fc.oneof(
    // random short blocks, every register drawn by fast-check
    fc.record({ functionCode, address, registers: fc.array(register, { maxLength: 16 }) }).map((b) => () => b),
    // random long blocks (0..130 registers), some with invalid registers
    fc
      .record({ functionCode, address, seed: fc.integer(), length: fc.nat(130), invalidEvery: fc.constantFrom(0, 0, 7, 97) })
      .map((b) => () => ({ functionCode: b.functionCode, address: b.address, registers: registersFrom(b.seed, b.length, b.invalidEvery) })),
    // truncated, shifted or corrupted real frames of the map (weighted up: they reach the decoding paths)
    {
      weight: 3,
      arbitrary: fc
        .record({
          index: fc.nat(),
          start: fc.nat(130),
          length: fc.nat(130),
          shift: fc.integer({ min: -3, max: 3 }),
          corruptAt: fc.option(fc.nat(), { nil: undefined }),
          corruptWith: register,
        })
        .map((cut) => (protocolIndex: number) => {
          const real = encoded[protocolIndex] ?? [];
          const source = real[cut.index % Math.max(1, real.length)];
          if (source === undefined) return { functionCode: 3, address: 0, registers: [] };
          const registers = source.registers.slice(cut.start, cut.start + cut.length);
          if (cut.corruptAt !== undefined && registers.length > 0) registers[cut.corruptAt % registers.length] = cut.corruptWith;
          return { functionCode: source.functionCode, address: source.address + cut.start + cut.shift, registers };
        }),
    },
    // not blocks at all
    fc
      .constantFrom<unknown>(
        null,
        7,
        'ffff',
        {},
        [],
        { functionCode: 3, address: 40000, registers: 'ffff' },
        { functionCode: 3, registers: [1] },
      )
      .map((junk) => () => junk),
  );

  it('never throws and always returns values and problems (100,000 frames)', { timeout: 120_000 }, () => {
    fc.assert(
      fc.property(fc.nat(BUILT_IN_PROTOCOLS.length - 1), fc.array(frame, { maxLength: 5 }), (protocolIndex, frames) => {
        const protocol = BUILT_IN_PROTOCOLS[protocolIndex] as ProtocolDefinition;
        const result = decodeBlocks(protocol, frames.map((make) => make(protocolIndex)) as RegisterBlock[]);
        if (typeof result !== 'object' || result === null || !Array.isArray(result.problems)) return false;
        if (!result.problems.every((problem) => typeof problem === 'string')) return false;
        const ids = pointIds[protocolIndex] as Set<string>;
        return Object.entries(result.values).every(
          ([id, value]) => ids.has(id) && (typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value))),
        );
      }),
      { numRuns: 100_000 },
    );
  });
});
