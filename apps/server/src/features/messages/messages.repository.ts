import { and, count, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { messages } from '../../db/schema.js';

export const MessageState = { UNREAD: 0, READ: 1 } as const;

export function createMessagesRepository(db: Database) {
  return {
    async unreadCount(userId: number): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(messages)
        .where(and(eq(messages.userId, userId), eq(messages.state, MessageState.UNREAD)));
      return Number(row?.n ?? 0);
    },
  };
}

export type MessagesRepository = ReturnType<typeof createMessagesRepository>;
