import { Code } from '@sunward/contracts/codes';
import { type InvitationMessageData, InvitationMessageDataSchema } from '@sunward/contracts/invitations';
import {
  AlarmDataSchema,
  type MessageListQuery,
  type MessagePage,
  type MessageRow,
  type MessageStatesResult,
  type MessageStateValue,
  MessageType,
  messageBoundInstant,
} from '@sunward/contracts/notifications';
import type { LiveHub } from '../../ingest/live-hub.js';
import { ApiError } from '../../lib/envelope.js';
import type { MessagesRepository } from './messages.repository.js';

type Stored = Awaited<ReturnType<MessagesRepository['page']>>['rows'][number];

/** A stored message as the console reads it: receive time in ISO, the alarm's subject when it is one. */
export function presentMessage(row: Stored): MessageRow {
  const alarm = AlarmDataSchema.safeParse(row.data);
  const invitation = InvitationMessageDataSchema.safeParse(row.data);
  return {
    id: row.id,
    type: row.type,
    title: row.title,
    content: row.content,
    state: row.state,
    createdAt: row.createdAt.toISOString(),
    alarm: alarm.success ? alarm.data : null,
    invitation: invitation.success ? invitation.data : null,
  };
}

/** The notification centre: a user's own messages only; every change pushes the new unread count to their tabs. */
export function createMessagesService(deps: { repository: MessagesRepository; live: LiveHub }) {
  const { repository, live } = deps;

  async function pushCount(userId: number): Promise<number> {
    const unread = await repository.unreadCount(userId);
    live.publish({ type: 'message', userId, plantId: null, unread });
    return unread;
  }

  return {
    unreadCount: (userId: number) => repository.unreadCount(userId),

    async page(userId: number, query: MessageListQuery): Promise<MessagePage> {
      const filter = {
        type: query.type,
        state: query.state,
        from: query.from ? messageBoundInstant(query.from, 'from') : undefined,
        to: query.to ? messageBoundInstant(query.to, 'to') : undefined,
      };
      const [{ rows, total }, unread] = await Promise.all([
        repository.page(userId, filter, query.page, query.size),
        repository.unreadCount(userId),
      ]);
      return { infos: rows.map(presentMessage), total, unread };
    },

    /** 404 when the caller has no message with that id (another user's id changes nothing). */
    async setState(userId: number, id: number, state: MessageStateValue): Promise<MessageStatesResult> {
      if (!(await repository.setState(userId, id, state))) throw new ApiError(Code.NOT_FOUND);
      return { updated: 1, unread: await pushCount(userId) };
    },

    /**
     * A system announcement to every active user (a maintenance notice when it is published): the text in
     * the user's language as `render` gives it, and each badge pushed at once.
     */
    async announce(render: (language: string) => { title: string; content: string }): Promise<number> {
      const recipients = await repository.activeUsers();
      const texts = new Map<string, { title: string; content: string }>();
      const rows = recipients.map((r) => {
        const text = texts.get(r.language) ?? render(r.language);
        texts.set(r.language, text);
        return { userId: r.userId, type: MessageType.SYSTEM, title: text.title, content: text.content, data: null };
      });
      await repository.insertMany(rows);
      const counts = await repository.unreadCounts(rows.map((r) => r.userId));
      for (const [userId, unread] of counts) live.publish({ type: 'message', userId, plantId: null, unread });
      return rows.length;
    },

    /** One system message to one user (an invitation to answer, a file ready), and their badge pushed at once. */
    async send(message: { userId: number; title: string; content: string; data: InvitationMessageData | null }): Promise<void> {
      await repository.insertMany([{ ...message, type: MessageType.SYSTEM }]);
      await pushCount(message.userId);
    },

    async setStates(userId: number, ids: readonly number[] | undefined, state: MessageStateValue): Promise<MessageStatesResult> {
      const updated = await repository.setStates(userId, ids, state);
      return { updated, unread: await pushCount(userId) };
    },
  };
}

export type MessagesService = ReturnType<typeof createMessagesService>;
