import { Code } from '@sunward/contracts/codes';
import type { Language } from '@sunward/contracts/languages';
import { translate } from '@sunward/contracts/messages';
import {
  compareVersions,
  highestVersion,
  type VersionFields,
  type VersionNotes,
  type VersionPage,
  type VersionRow,
} from '@sunward/contracts/versions';
import { ApiError } from '../../lib/envelope.js';
import type { AuthContext } from '../../plugins/auth.js';
import { hasVisibleContent, sanitizeRichText } from './rich-text.js';
import type { VersionsRepository } from './versions.repository.js';

const validation = (field: string, message: string) => new ApiError(Code.VALIDATION, {}, { errors: [{ field, message }] });

/** Newest first by number (not by release time: a number is what users compare). */
const byNumberDesc = (a: { version: string }, b: { version: string }) => compareVersions(b.version, a.version);

/** Chinese notes for the Chinese console, English for the other nine languages (issue 8). */
const notesLanguage = (language: Language): 'zh' | 'en' => (language === 'cn' ? 'zh' : 'en');

function notes(row: VersionRow, language: Language): VersionNotes {
  const lan = notesLanguage(language);
  return {
    id: row.id,
    version: row.version,
    content: lan === 'zh' ? row.zhContent : row.enContent,
    releaseTime: row.releaseTime,
    publisher: row.publisher,
    lan,
  };
}

/**
 * 4100 when a number is taken (1.2 and 1.2.0 are the same version), 4101 when it is not above the
 * newest one.
 */
function admitNumber(version: string, existing: readonly string[]): void {
  if (existing.some((v) => compareVersions(v, version) === 0)) throw new ApiError(Code.SYSTEM_VERSION_EXISTS);
  const latest = highestVersion(existing);
  if (latest !== undefined && compareVersions(version, latest) <= 0) throw new ApiError(Code.SYSTEM_VERSION_NOT_HIGHER, { latest });
}

/**
 * System versions (issue 8): the release notes platform administrators publish, the newest number that
 * drives the console's update dialog, the timeline of /logging and one version's notes for /systemupdate.
 * Rich text is sanitised here on every save; the console sanitises again before it shows it.
 */
export function createVersionsService(deps: { repository: VersionsRepository }) {
  const { repository } = deps;

  function cleanContent(language: Language, fields: VersionFields): { zhContent: string; enContent: string } {
    const zhContent = sanitizeRichText(fields.zhContent);
    const enContent = sanitizeRichText(fields.enContent);
    if (!hasVisibleContent(zhContent)) throw validation('zhContent', translate(language, 'validation.richTextEmpty'));
    if (!hasVisibleContent(enContent)) throw validation('enContent', translate(language, 'validation.richTextEmpty'));
    return { zhContent, enContent };
  }

  async function requireVersion(id: number): Promise<VersionRow> {
    const row = await repository.byId(id);
    if (!row) throw new ApiError(Code.NOT_FOUND);
    return row;
  }

  return {
    async page(query: { page: number; size: number }): Promise<VersionPage> {
      const rows = (await repository.all()).sort(byNumberDesc);
      return { infos: rows.slice((query.page - 1) * query.size, query.page * query.size), total: rows.length };
    },

    byId: requireVersion,

    async check(version: string): Promise<void> {
      admitNumber(
        version,
        (await repository.numbers()).map((r) => r.version),
      );
    },

    /** Creates a version (no id) or replaces one's notes (id; the number stays as published). */
    async save(auth: AuthContext, language: Language, fields: VersionFields): Promise<VersionRow> {
      const content = cleanContent(language, fields);
      if (fields.id !== undefined) {
        const before = await requireVersion(fields.id);
        if (before.version !== fields.version) throw validation('version', translate(language, 'validation.versionNumberFixed'));
        await repository.updateContent(before.id, content);
        return requireVersion(before.id);
      }
      const id = await repository.insertChecked({ version: fields.version, ...content, publisherId: auth.userId }, (existing) =>
        admitNumber(fields.version, existing),
      );
      return requireVersion(id);
    },

    async remove(id: number): Promise<void> {
      await requireVersion(id);
      await repository.remove(id);
    },

    async latest(): Promise<string | null> {
      return highestVersion((await repository.numbers()).map((r) => r.version)) ?? null;
    },

    /** One version's notes (the newest when no number is given); 404 when there is none. */
    async history(language: Language, version: string | undefined): Promise<VersionNotes> {
      const rows = await repository.all();
      const row = version === undefined ? rows.sort(byNumberDesc)[0] : rows.find((r) => compareVersions(r.version, version) === 0);
      if (!row) throw new ApiError(Code.NOT_FOUND);
      return notes(row, language);
    },

    async timeline(language: Language): Promise<VersionNotes[]> {
      return (await repository.all()).sort(byNumberDesc).map((row) => notes(row, language));
    },
  };
}

export type VersionsService = ReturnType<typeof createVersionsService>;
