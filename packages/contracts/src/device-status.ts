/** Spec 01 §4 device and plant statuses, with the numbers stored and sent. */
export const DeviceStatus = { NORMAL: 1, OFFLINE: 2, WARNING: 3, FAULT: 4, UPGRADING: 5, PROTECT: 6 } as const;
export type DeviceStatusValue = (typeof DeviceStatus)[keyof typeof DeviceStatus];

/** Plant type of spec 02 §3. */
export const PlantType = { GRID: 1, AC_COUPLED_STORAGE: 2, DC_COUPLED_STORAGE: 3 } as const;
export type PlantTypeValue = (typeof PlantType)[keyof typeof PlantType];

/** How bad a status is, for aggregating devices into a plant: the worst wins, offline below faults. */
const SEVERITY: Record<DeviceStatusValue, number> = { 1: 0, 5: 1, 2: 2, 3: 3, 6: 4, 4: 5 };

export function worstStatus(statuses: readonly DeviceStatusValue[]): DeviceStatusValue {
  if (statuses.length === 0) return DeviceStatus.OFFLINE;
  return statuses.reduce((worst, s) => (SEVERITY[s] > SEVERITY[worst] ? s : worst));
}
