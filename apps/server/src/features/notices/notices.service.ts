import { Code } from '@sunward/contracts/codes';
import type { Language } from '@sunward/contracts/languages';
import { translate } from '@sunward/contracts/messages';
import {
  fillNoticeDescription,
  formatNoticeTime,
  NOTICE_PLACEHOLDERS,
  type NoticeFields,
  type NoticeListQuery,
  type NoticePage,
  type NoticeRow,
  NoticeStatus,
  type NoticeStatusValue,
  type NoticeSuggest,
  type NoticeTemplate,
  type NoticeView,
  noticeStatusChangeAllowed,
  noticeTypeWord,
  parseViewDate,
  scopesSeenBy,
} from '@sunward/contracts/notices';
import { ApiError } from '../../lib/envelope.js';
import type { AuthContext } from '../../plugins/auth.js';
import type { NoticesRepository } from './notices.repository.js';

/** The description the form starts from: every placeholder once, in both notice languages. */
const TEMPLATE: NoticeTemplate = {
  zhDesc:
    '尊敬的用户：为了给您提供更好的服务，平台将于{time}进行系统{type}，预计持续{duration}。期间建议：{suggest}。给您带来的不便，敬请谅解。',
  enDesc:
    'Dear user, to serve you better the platform will undergo a system {type} at {time}, expected to last {duration}. We suggest: {suggest}. We apologise for any inconvenience.',
  zhDuration: '2小时',
  enDuration: '2 hours',
  placeholders: [...NOTICE_PLACEHOLDERS],
};

/** Suggestions offered before any notice has its own. */
const DEFAULT_SUGGESTS: readonly NoticeSuggest[] = [
  { zhSuggest: '请提前保存正在编辑的数据', enSuggest: 'save any data you are editing beforehand' },
  { zhSuggest: '维护期间请勿发起远程升级或参数设置', enSuggest: 'do not start remote upgrades or parameter changes during this time' },
  {
    zhSuggest: '设备数据将在结束后自动补传，无需重新配置',
    enSuggest: 'device data is uploaded automatically afterwards, nothing needs reconfiguring',
  },
  { zhSuggest: '如有疑问请联系安装商或客服', enSuggest: 'contact your installer or our support if you have questions' },
];
const SUGGEST_MAX = 20;

/** Chinese texts for the Chinese console; the other nine languages read the English ones (issue 8). */
const noticeLanguage = (language: Language): 'zh' | 'en' => (language === 'cn' ? 'zh' : 'en');

/**
 * Maintenance notices (issue 8): platform administrators write, publish and invalidate them; every
 * signed-in user reads the one in force (view), in Chinese or English with the placeholders filled.
 */
export function createNoticesService(deps: {
  repository: NoticesRepository;
  now?: () => number;
  /** Posts a system announcement to every user (the notification centre lists published notices too). */
  announce?: (render: (language: string) => { title: string; content: string }) => Promise<unknown>;
}) {
  const { repository } = deps;
  const now = deps.now ?? Date.now;

  /** A published notice as a message: Chinese for the Chinese console, English for the other nine languages. */
  function announcement(row: NoticeRow, language: string): { title: string; content: string } {
    const lan = language === 'cn' ? 'zh' : 'en';
    const suggests = row.suggests.map((s) => (lan === 'zh' ? s.zhSuggest : s.enSuggest));
    const duration = lan === 'zh' ? row.zhDuration : row.enDuration;
    const type = noticeTypeWord(row.type, lan);
    return {
      title: lan === 'zh' ? `系统${type}公告` : `System ${type} notice`,
      content: fillNoticeDescription(
        lan === 'zh' ? row.zhDesc : row.enDesc,
        { time: formatNoticeTime(row.effectiveTime, undefined), type, duration, suggests },
        lan,
      ),
    };
  }

  async function requireNotice(id: number): Promise<NoticeRow> {
    const row = await repository.byId(id);
    if (!row) throw new ApiError(Code.NOT_FOUND);
    return row;
  }

  return {
    page: (query: NoticeListQuery): Promise<NoticePage> => repository.page(query),

    byId: requireNotice,

    async create(auth: AuthContext, fields: NoticeFields): Promise<NoticeRow> {
      return requireNotice(await repository.insert(fields, auth.userId));
    },

    /** Unpublished and published notices can be corrected; an invalid one is final (4102). */
    async update(id: number, fields: NoticeFields): Promise<NoticeRow> {
      const before = await requireNotice(id);
      if (before.status === NoticeStatus.INVALID || !(await repository.update(id, fields))) throw new ApiError(Code.NOTICE_INVALIDATED);
      return requireNotice(id);
    },

    /** Publish (0), withdraw (1) or invalidate (2, one-way: 4102 afterwards); the same status again is 207. */
    async setStatus(id: number, to: NoticeStatusValue): Promise<NoticeRow> {
      const before = await requireNotice(id);
      const from = before.status as NoticeStatusValue;
      if (from === NoticeStatus.INVALID) throw new ApiError(Code.NOTICE_INVALIDATED);
      if (!noticeStatusChangeAllowed(from, to)) throw new ApiError(Code.ALREADY);
      if (!(await repository.changeStatus(id, from, to))) {
        // Changed meanwhile by someone else: answer as if this request had come second.
        const current = await requireNotice(id);
        throw new ApiError(current.status === NoticeStatus.INVALID ? Code.NOTICE_INVALIDATED : Code.ALREADY);
      }
      const after = await requireNotice(id);
      if (to === NoticeStatus.PUBLISHING && deps.announce) await deps.announce((language) => announcement(after, language));
      return after;
    },

    /** The notice in force at `date` (UTC; now when absent) for the asking client, or null. */
    async view(language: Language, query: { date?: string; scope: string; tz?: string }): Promise<NoticeView | null> {
      const at = query.date === undefined ? now() : parseViewDate(query.date);
      if (at === undefined)
        throw new ApiError(Code.VALIDATION, {}, { errors: [{ field: 'date', message: translate(language, 'validation.invalidFormat') }] });
      const row = await repository.inForce(new Date(at), scopesSeenBy(query.scope));
      if (!row) return null;
      const lan = noticeLanguage(language);
      const suggests = row.suggests.map((s) => (lan === 'zh' ? s.zhSuggest : s.enSuggest));
      const duration = lan === 'zh' ? row.zhDuration : row.enDuration;
      const content = fillNoticeDescription(
        lan === 'zh' ? row.zhDesc : row.enDesc,
        { time: formatNoticeTime(row.effectiveTime, query.tz), type: noticeTypeWord(row.type, lan), duration, suggests },
        lan,
      );
      return {
        id: row.id,
        type: row.type,
        status: row.status,
        scope: row.scope,
        impact: row.impact,
        startTime: row.startTime,
        endTime: row.endTime,
        effectiveTime: row.effectiveTime,
        content,
        duration,
        suggests,
        lan,
      };
    },

    template: (): NoticeTemplate => TEMPLATE,

    /** Suggestions used lately, then the defaults, each pair once. */
    async suggest(): Promise<NoticeSuggest[]> {
      const seen = new Set<string>();
      const out: NoticeSuggest[] = [];
      for (const s of [...(await repository.recentSuggests(SUGGEST_MAX)), ...DEFAULT_SUGGESTS]) {
        const key = `${s.zhSuggest}\u0000${s.enSuggest}`;
        if (seen.has(key)) continue;
        seen.add(key);
        out.push(s);
        if (out.length === SUGGEST_MAX) break;
      }
      return out;
    },
  };
}

export type NoticesService = ReturnType<typeof createNoticesService>;
