import { LANGUAGE_TAGS, type Language } from '@sunward/contracts/languages';
import type { Locale } from 'antd/es/locale';
import { datePattern } from './format';

// antd's own texts (pagination, date pickers, empty states) follow the console language; each
// locale is its own chunk, loaded with the language. dayjs and its locale load with the first page that can show
// dates (every page but sign-in, which so carries neither: issue 18).
const loaders: Record<Language, () => Promise<{ antd: Locale; dayjs: string }>> = {
  en: async () => ({ antd: (await import('antd/es/locale/en_GB')).default, dayjs: 'en-gb' }),
  cn: async () => ({ antd: (await import('antd/es/locale/zh_CN')).default, dayjs: 'zh-cn' }),
  vi: async () => ({ antd: (await import('antd/es/locale/vi_VN')).default, dayjs: 'vi' }),
  es: async () => ({ antd: (await import('antd/es/locale/es_ES')).default, dayjs: 'es' }),
  de: async () => ({ antd: (await import('antd/es/locale/de_DE')).default, dayjs: 'de' }),
  cz: async () => ({ antd: (await import('antd/es/locale/cs_CZ')).default, dayjs: 'cs' }),
  po: async () => ({ antd: (await import('antd/es/locale/pl_PL')).default, dayjs: 'pl' }),
  tr: async () => ({ antd: (await import('antd/es/locale/tr_TR')).default, dayjs: 'tr' }),
  el: async () => ({ antd: (await import('antd/es/locale/el_GR')).default, dayjs: 'el' }),
  pt: async () => ({ antd: (await import('antd/es/locale/pt_PT')).default, dayjs: 'pt' }),
};

const dayjsLocales: Record<string, () => Promise<unknown>> = {
  'en-gb': () => import('dayjs/locale/en-gb'),
  'zh-cn': () => import('dayjs/locale/zh-cn'),
  vi: () => import('dayjs/locale/vi'),
  es: () => import('dayjs/locale/es'),
  de: () => import('dayjs/locale/de'),
  cs: () => import('dayjs/locale/cs'),
  pl: () => import('dayjs/locale/pl'),
  tr: () => import('dayjs/locale/tr'),
  el: () => import('dayjs/locale/el'),
  pt: () => import('dayjs/locale/pt'),
};

export async function loadAntdLocale(language: Language): Promise<Locale> {
  return withLocaleDates((await loaders[language]()).antd, LANGUAGE_TAGS[language]);
}

let dayjsReady: Promise<void> | undefined;

/** dayjs in the console language: awaited by every page loader except the sign-in page's (app/AppRouter.tsx). */
export function loadDayjsLocale(language: Language): Promise<void> {
  dayjsReady ??= (async () => {
    const [{ default: dayjs }, { dayjs: dayjsLocale }] = await Promise.all([import('dayjs'), loaders[language]()]);
    await dayjsLocales[dayjsLocale]?.();
    dayjs.locale(dayjsLocale);
  })();
  return dayjsReady;
}

/**
 * Date pickers show and read dates as the locale writes them (de "26.11.2026", en-GB "26/11/2026"),
 * like every other date on the page: antd's locales mostly default to YYYY-MM-DD (spec: one format a page).
 */
function withLocaleDates(antd: Locale, tag: string): Locale {
  if (!antd.DatePicker) return antd;
  const date = datePattern(tag);
  const lang = {
    ...antd.DatePicker.lang,
    fieldDateFormat: date,
    fieldDateTimeFormat: `${date} HH:mm:ss`,
    fieldMonthFormat: datePattern(tag, 'month'),
  };
  return { ...antd, DatePicker: { ...antd.DatePicker, lang } };
}
