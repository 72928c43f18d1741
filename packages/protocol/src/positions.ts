import { numericPointIds } from './codec.js';
import { protocolById } from './maps/index.js';
import { registryGeneration } from './registry.js';
import type { PointRole } from './types.js';

/*
 * Where each figure lives in a device's stored values. The server stores a reading as one array in
 * numericPointIds order; these turn a point id or role into its 1-based position (SQL arrays are 1-based).
 */

const positions = new Map<string, Map<string, number>>();
let positionsOf = registryGeneration();

/** 1-based position of a point in a device's stored values (numericPointIds order), if the map has it. */
export function pointIndex(protocolId: string, pointId: string): number | undefined {
  // A protocol edited in the console installs new maps: positions are worked out again.
  if (positionsOf !== registryGeneration()) {
    positions.clear();
    positionsOf = registryGeneration();
  }
  let map = positions.get(protocolId);
  if (!map) {
    const protocol = protocolById(protocolId);
    map = new Map((protocol ? numericPointIds(protocol) : []).map((id, i) => [id, i + 1]));
    positions.set(protocolId, map);
  }
  return map.get(pointId);
}

/** 1-based position of the point playing a role (power, soc, energy_export_total, ...). */
export function roleIndex(protocolId: string, role: PointRole): number | undefined {
  const point = protocolById(protocolId)?.points.find((p) => p.role === role);
  return point ? pointIndex(protocolId, point.id) : undefined;
}

/** A point's value in a stored values array, null when absent or not a number. */
export function pointValue(protocolId: string, values: readonly number[], pointId: string): number | null {
  const index = pointIndex(protocolId, pointId);
  const value = index === undefined ? undefined : values[index - 1];
  return value === undefined || !Number.isFinite(value) ? null : value;
}
