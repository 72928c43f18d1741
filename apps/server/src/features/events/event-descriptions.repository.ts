import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { eventDescriptions } from '../../db/schema.js';

export type EventDescriptionRecord = typeof eventDescriptions.$inferSelect;

/** SQL of the imported event descriptions (platform texts per protocol, code and language). */
export function createEventDescriptionsRepository(db: Database) {
  return {
    all: (): Promise<EventDescriptionRecord[]> => db.select().from(eventDescriptions),

    /** Adds or replaces every row in one transaction: all of the file or nothing. */
    async upsert(
      rows: readonly { protocolId: string; code: number; language: string; description: string; solution: string }[],
      userId: number,
    ): Promise<void> {
      await db.transaction(async (tx) => {
        for (let i = 0; i < rows.length; i += 500)
          await tx
            .insert(eventDescriptions)
            .values(rows.slice(i, i + 500).map((r) => ({ ...r, updatedBy: userId })))
            .onConflictDoUpdate({
              target: [eventDescriptions.protocolId, eventDescriptions.code, eventDescriptions.language],
              set: {
                description: sql`excluded.description`,
                solution: sql`excluded.solution`,
                updatedAt: sql`now()`,
                updatedBy: sql`excluded.updated_by`,
              },
            });
      });
    },
  };
}

export type EventDescriptionsRepository = ReturnType<typeof createEventDescriptionsRepository>;
