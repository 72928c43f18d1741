import { sql } from 'drizzle-orm';
import { type Database, queryRows } from '../db/client.js';

/** The SQL of the ingest pipeline's device registry: discovery, deleted devices, which devices still exist. */
export function createDeviceRegistryRepository(db: Database) {
  return {
    /**
     * Registers a device a gateway reported for the first time, under the gateway's plant, unless the
     * serial number is taken, the gateway already has `maxPerGateway` devices, or a user deleted the
     * device from this gateway (deleted_devices). True when added.
     */
    async registerDiscoveredDevice(device: {
      sn: string;
      gatewayId: number;
      protocolId: string;
      family: string;
      maxPerGateway: number;
      parentSn?: string | undefined;
    }): Promise<boolean> {
      const { sn, gatewayId, protocolId, family, maxPerGateway, parentSn } = device;
      // A slave pack's master must be a device of the same gateway, else the link is ignored.
      const parent = parentSn ? sql`(select p.id from devices p where p.sn = ${parentSn} and p.gateway_id = ${gatewayId})` : sql`null::int`;
      const rows = await queryRows<{ id: number }>(
        db,
        sql`insert into devices (sn, gateway_id, plant_id, family, protocol_id, model, parent_id, protocol_version)
            select ${sn}, g.id, g.plant_id, ${family}, ${protocolId}, ${protocolId}, ${parent},
                   (select p.current_version from protocols p where p.identifier = ${protocolId}) from gateways g
            where g.id = ${gatewayId} and (select count(*) from devices d where d.gateway_id = g.id) < ${maxPerGateway}
              and not exists (select 1 from deleted_devices x where x.gateway_id = g.id and x.sn = ${sn})
            on conflict do nothing returning id`,
      );
      return rows.length > 0;
    },

    /** Serial numbers users deleted, by the gateway that reported them. */
    async deletedDevices(): Promise<{ gatewayId: number; sn: string }[]> {
      const rows = await queryRows<{ gateway_id: number; sn: string }>(db, sql`select gateway_id, sn from deleted_devices`);
      return rows.map((r) => ({ gatewayId: Number(r.gateway_id), sn: r.sn }));
    },

    /** Which of these device ids still exist (a delete may have committed since their reports were decoded). */
    async existingDeviceIds(ids: readonly number[]): Promise<Set<number>> {
      if (ids.length === 0) return new Set();
      const rows = await queryRows<{ id: number }>(db, sql`select id from devices where id = any(${sql.param([...ids])}::int[])`);
      return new Set(rows.map((r) => Number(r.id)));
    },
  };
}

export type DeviceRegistryRepository = ReturnType<typeof createDeviceRegistryRepository>;
