import { z } from 'zod';
import { ProtocolFileSchema } from './protocols.js';

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
  /** AC switches: its residual-current protection is broken (does not trip), so its self-check fails. */
  rcdBroken: z.boolean().optional(),
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
  /**
   * Protocols made in the console, as its export writes them (issue 19): a device names one by its
   * identifier in `protocolId`, and the simulator encodes its registers and answers writes with it.
   */
  protocols: z.array(ProtocolFileSchema).optional(),
});

export type SimulatedFleet = z.infer<typeof SimulatedFleetSchema>;
export type SimulatedGateway = z.infer<typeof SimulatedGatewaySchema>;
export type SimulatedPlant = z.infer<typeof SimulatedPlantSchema>;

/**
 * The demo's simulated GB28181 cameras (issue 23), the file `simulator --cameras FILE` reads: the platform's SIP
 * server as a camera is told it, and each camera's SIP ID, password and channels (as added in the console).
 */
export const SimulatedCamerasSchema = z.object({
  sip: z.object({ host: z.string(), port: z.number().int().min(1).max(65535), serverId: z.string(), domain: z.string() }),
  keepaliveSeconds: z.number().int().min(1).max(3600).optional(),
  cameras: z.array(
    z.object({
      sipId: z.string(),
      password: z.string(),
      channels: z.array(z.object({ gbId: z.string(), name: z.string() })).min(1),
    }),
  ),
});
export type SimulatedCameras = z.infer<typeof SimulatedCamerasSchema>;
