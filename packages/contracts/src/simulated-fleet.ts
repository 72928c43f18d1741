import { z } from 'zod';

/**
 * What the simulator needs to play a fleet: each gateway's credentials and its devices with the plant
 * they sit in. Written by the server when it provisions the demo fleet (DATA_DIR/demo-fleet.json);
 * the simulator reads it. The gateways are registered in the server like any real gateway.
 */
export const SimulatedDeviceSchema = z.object({
  sn: z.string(),
  protocolId: z.string(),
  family: z.string(),
  ratedPowerW: z.number().optional(),
  /** Battery capacity for BMS devices. */
  capacityKwh: z.number().optional(),
  /** Battery slave packs: the master pack's SN (the master reports the bank, each slave its own pack). */
  parentSn: z.string().optional(),
  /** Optimizers: the share of light its panel loses (0–1) to shade or soiling, so a layout shows it. */
  shading: z.number().min(0).max(1).optional(),
});

export const SimulatedPlantSchema = z.object({
  name: z.string(),
  latitude: z.number(),
  longitude: z.number(),
  timezone: z.string(),
  capacityKwp: z.number(),
  plantType: z.number().int(),
  load: z.enum(['household', 'commercial']),
});

export const SimulatedGatewaySchema = z.object({
  sn: z.string(),
  key: z.string(),
  intervalSeconds: z.number().int().positive(),
  plant: SimulatedPlantSchema,
  devices: z.array(SimulatedDeviceSchema),
  /** Registered but bound to no plant: a user binds it in the plant wizard; its devices are discovered. */
  spare: z.boolean().optional(),
});

export const SimulatedFleetSchema = z.object({
  seed: z.number().int(),
  mqttUrl: z.string(),
  gateways: z.array(SimulatedGatewaySchema),
});

export type SimulatedFleet = z.infer<typeof SimulatedFleetSchema>;
export type SimulatedGateway = z.infer<typeof SimulatedGatewaySchema>;
export type SimulatedPlant = z.infer<typeof SimulatedPlantSchema>;
