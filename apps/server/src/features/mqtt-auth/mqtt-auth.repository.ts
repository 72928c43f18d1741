import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { gateways } from '../../db/schema.js';

/** The registry lookup an external broker's gateway login needs: the gateway's key hash by SN. */
export function createMqttAuthRepository(db: Database) {
  return {
    async keyHashOf(sn: string): Promise<string | undefined> {
      const [row] = await db.select({ keyHash: gateways.keyHash }).from(gateways).where(eq(gateways.sn, sn));
      return row?.keyHash;
    },
  };
}

export type MqttAuthRepository = ReturnType<typeof createMqttAuthRepository>;
