import { UploadOutlined } from '@ant-design/icons';
import type { EventDescriptionRow } from '@sunward/contracts/event-descriptions';
import { LANGUAGES, type Language } from '@sunward/contracts/languages';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Empty, Input, Select, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PageProps } from '../../../app/page-props';
import { useSession } from '../../../app/session';
import { ImportDialog } from '../../../components/ImportDialog';
import { PageTitle } from '../../../components/PageTitle';
import { registerTexts } from '../../../lib/feature-texts';
import { currentLanguage } from '../../../lib/i18n';
import { usePageSize } from '../../../lib/personalized';
import { useUrlList } from '../../../lib/use-url-list';
import { eventDescriptionTexts } from '../texts/event-descriptions';
import { eventTexts } from '../texts/events';
import { eventDescriptionKeys, fetchEventDescriptions, importEventDescriptions } from './api';

registerTexts(eventTexts);
registerTexts(eventDescriptionTexts);

const LEVEL_COLOR: Record<string, string> = { fault: 'error', warning: 'warning', protect: 'processing' };
const LEVEL_TEXT: Record<string, string> = {
  fault: 'eventList.levelFault',
  warning: 'eventList.levelWarning',
  protect: 'eventList.levelProtect',
};

/** Each language by its own name (as the language pickers show them). */
const languageName = (language: Language, locale: string) =>
  new Intl.DisplayNames([locale], { type: 'language' }).of(
    { cn: 'zh', cz: 'cs', po: 'pl', el: 'el', en: 'en', es: 'es', de: 'de', tr: 'tr', pt: 'pt', vi: 'vi' }[language],
  ) ?? language;

/**
 * Event descriptions (issue 21): one protocol's event codes with description and solution in a chosen language;
 * platform administrators import texts from .xlsx (event.description.import).
 */
export function EventDescriptionsPage({ route }: PageProps) {
  const { t } = useTranslation();
  const { has } = useSession();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const pageSize = usePageSize();
  const { search, update, page } = useUrlList([], '');
  const language = (LANGUAGES as readonly string[]).includes(search.get('language') ?? '')
    ? (search.get('language') as Language)
    : currentLanguage();
  const protocol = search.get('protocol') ?? undefined;
  const keyword = search.get('keyword') ?? undefined;
  const query = { protocol, language, keyword, page, size: pageSize };
  const list = useQuery({
    queryKey: eventDescriptionKeys.page(query),
    queryFn: () => fetchEventDescriptions(query),
    placeholderData: keepPreviousData,
  });
  const [importing, setImporting] = useState(false);
  const locale = currentLanguage() === 'cn' ? 'zh' : currentLanguage();

  return (
    <Card
      title={<PageTitle route={route} />}
      data-testid="event-descriptions"
      extra={
        has('event.description.import') && (
          <Button icon={<UploadOutlined />} onClick={() => setImporting(true)} data-testid="event-descriptions-import">
            {t('eventDesc.import')}
          </Button>
        )
      }
    >
      <Typography.Paragraph type="secondary">{t('eventDesc.intro')}</Typography.Paragraph>
      <Space wrap style={{ marginBottom: 12 }}>
        <Select
          aria-label={t('eventDesc.protocol')}
          style={{ width: 280 }}
          value={list.data?.protocol ?? protocol}
          onChange={(value: string) => update({ protocol: value })}
          options={(list.data?.protocols ?? []).map((p) => ({ value: p.id, label: `${p.name} (${p.events})` }))}
          data-testid="event-descriptions-protocol"
        />
        <Select
          aria-label={t('eventDesc.language')}
          style={{ width: 180 }}
          value={language}
          onChange={(value: Language) => update({ language: value })}
          options={LANGUAGES.map((l) => ({ value: l, label: languageName(l, locale) }))}
          data-testid="event-descriptions-language"
        />
        <Input.Search
          allowClear
          placeholder={t('eventDesc.search')}
          aria-label={t('eventDesc.search')}
          defaultValue={keyword}
          onSearch={(value) => update({ keyword: value.trim() || undefined })}
          style={{ width: 240 }}
        />
      </Space>
      <Table<EventDescriptionRow>
        rowKey="code"
        size="middle"
        loading={list.isLoading}
        dataSource={list.data?.infos ?? []}
        scroll={{ x: 900 }}
        pagination={{
          current: page,
          pageSize,
          total: list.data?.total ?? 0,
          showSizeChanger: false,
          onChange: (p) => update({ page: String(p) }),
        }}
        locale={{ emptyText: <Empty description={t('eventDesc.empty')} image={Empty.PRESENTED_IMAGE_SIMPLE} /> }}
        columns={[
          { title: t('eventDesc.colCode'), dataIndex: 'code', width: 90 },
          {
            title: t('eventDesc.colLevel'),
            dataIndex: 'level',
            width: 120,
            render: (level: string) => <Tag color={LEVEL_COLOR[level]}>{LEVEL_TEXT[level] ? t(LEVEL_TEXT[level]) : level}</Tag>,
          },
          { title: t('eventDesc.colDescription'), dataIndex: 'description', width: 260 },
          { title: t('eventDesc.colSolution'), dataIndex: 'solution' },
          {
            title: t('eventDesc.colSource'),
            dataIndex: 'source',
            width: 120,
            render: (source: string) =>
              source === 'imported' ? <Tag color="success">{t('eventDesc.sourceImported')}</Tag> : t('eventDesc.sourceMap'),
          },
        ]}
      />
      {importing && (
        <ImportDialog<object, { imported: number }>
          title={t('eventDesc.importTitle')}
          hint={t('eventDesc.importHint')}
          okText={t('eventDesc.import')}
          upload={(file) => importEventDescriptions(file)}
          onImported={(result) => {
            void message.success(t('eventDesc.imported', { count: result.imported }));
            void queryClient.invalidateQueries({ queryKey: eventDescriptionKeys.all });
          }}
          onClose={() => setImporting(false)}
          testIds={{
            modal: 'event-descriptions-import-dialog',
            refusal: 'event-descriptions-import-refusal',
            submitId: 'event-descriptions-import-submit',
          }}
        />
      )}
    </Card>
  );
}
