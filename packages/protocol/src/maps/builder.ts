/**
 * Helpers for writing maps the way data sheets are written: a point at an offset within a SunSpec model
 * (offsets as in sunspec/models), or at an absolute address for vendor maps. Addresses are computed, so
 * a model's position in the register space is stated once.
 */
import { registersForType } from '../codec.js';
import type { EventDefinition, EventLevel, LocalisedText, RegisterPoint } from '../types.js';

export function t(en: string, zh: string): LocalisedText {
  return { en, zh };
}

/** A point as written in a map file: function code and address come from where it is placed. */
export type PointSpec = Omit<RegisterPoint, 'functionCode' | 'address' | 'count' | 'operation'> & {
  /** Registers; only needed for strings (fixed-width types know their width). */
  count?: number;
  operation?: 'r' | 'rw';
};

/** Places points at an offset within a model body (SunSpec offsets, 0 = first register after ID and L). */
export type Placer = (offset: number, spec: PointSpec) => void;

/** SunSpec devices start at 40000 with "SunS"; the first model (common, model 1) follows at 40002. */
export const SUNSPEC_BASE_ADDRESS = 40000;

export class RegisterMapBuilder {
  readonly points: RegisterPoint[] = [];
  private cursor: number;

  constructor(
    private readonly functionCode: 3 | 4,
    start: number,
  ) {
    this.cursor = start;
  }

  /** A SunSpec register map: "SunS" at 40000..40001, then models one after another. */
  static sunspec(): RegisterMapBuilder {
    return new RegisterMapBuilder(3, SUNSPEC_BASE_ADDRESS + 2);
  }

  /**
   * Reserves a SunSpec model at the cursor: the ID and L registers, then `length` registers (L) of body.
   * The next model starts right after, as SunSpec clients walk the chain by L.
   */
  model(length: number): Placer {
    const body = this.cursor + 2;
    this.cursor = body + length;
    return (offset, spec) => this.place(body + offset, spec);
  }

  /** Places a point at an absolute address (vendor maps). */
  place(address: number, spec: PointSpec): void {
    const { count, operation, ...rest } = spec;
    const width = count ?? (spec.type === 'string' ? 1 : registersForType(spec.type));
    this.points.push({ ...rest, functionCode: this.functionCode, address, count: width, operation: operation ?? 'r' });
  }
}

/** A SunSpec scale factor (sunssf): the power of ten applied to the points that name it. */
export function sf(id: string, label: LocalisedText): PointSpec {
  return { id, label, type: 's16' };
}

export interface EventText {
  bit: number;
  level: EventLevel;
  description: LocalisedText;
  solution: LocalisedText;
}

/** Events of one bit field; codes are `firstCode + bit`, so a code names its bit at a glance. */
export function eventsOf(point: string, firstCode: number, texts: readonly EventText[]): EventDefinition[] {
  return texts.map((text) => ({
    point,
    bit: text.bit,
    code: firstCode + text.bit,
    level: text.level,
    description: text.description,
    solution: text.solution,
  }));
}

export function ev(bit: number, level: EventLevel, description: LocalisedText, solution: LocalisedText): EventText {
  return { bit, level, description, solution };
}
