import { DownloadOutlined, UploadOutlined } from '@ant-design/icons';
import { EVENT_DESCRIPTION_LIMITS, type EventDescriptionRow } from '@sunward/contracts/event-descriptions';
import { LANGUAGES, type Language } from '@sunward/contracts/languages';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Empty, Form, Input, Select, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PageProps } from '../../../app/page-props';
import { useSession } from '../../../app/session';
import { FormDialog } from '../../../components/FormDialog';
import { ImportDialog } from '../../../components/ImportDialog';
import { ListPage, ListSearch, useListState } from '../../../components/ListPage';
import { PageTitle } from '../../../components/PageTitle';
import { fileNameFromDisposition } from '../../../lib/download';
import { registerTexts } from '../../../lib/feature-texts';
import { currentLanguage } from '../../../lib/i18n';
import { saveBlob } from '../../../lib/save-blob';
import { eventDescriptionTexts } from '../texts/event-descriptions';
import { eventTexts } from '../texts/events';
import {
  editEventDescription,
  eventDescriptionKeys,
  fetchEventDescriptions,
  fetchEventDescriptionTemplate,
  importEventDescriptions,
} from './api';
import { LevelTag } from './level-tag';

registerTexts(eventTexts);
registerTexts(eventDescriptionTexts);

/** Each language by its own name (as the language pickers show them). */
const languageName = (language: Language, locale: string) =>
  new Intl.DisplayNames([locale], { type: 'language' }).of(
    { cn: 'zh', cz: 'cs', po: 'pl', el: 'el', en: 'en', es: 'es', de: 'de', tr: 'tr', pt: 'pt', vi: 'vi' }[language],
  ) ?? language;

/**
 * Event descriptions (issue 21): one protocol's event codes with description and solution in a chosen language;
 * anyone who sees them downloads the template (the codes with their current texts); platform administrators
 * import texts from .xlsx or edit one code's texts here (event.description.import).
 */
export function EventDescriptionsPage({ route }: PageProps) {
  const { t } = useTranslation();
  const { has } = useSession();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const state = useListState();
  const language = LANGUAGES.find((l) => l === state.text('language')) ?? currentLanguage();
  const protocol = state.text('protocol');
  const query = { protocol, language, keyword: state.text('keyword'), page: state.page, size: state.size };
  const list = useQuery({
    queryKey: eventDescriptionKeys.page(query),
    queryFn: () => fetchEventDescriptions(query),
    placeholderData: keepPreviousData,
  });
  const [importing, setImporting] = useState(false);
  const [editing, setEditing] = useState<EventDescriptionRow>();
  const [fetchingTemplate, setFetchingTemplate] = useState(false);
  const locale = currentLanguage() === 'cn' ? 'zh' : currentLanguage();
  const canEdit = has('event.description.import');
  const shownProtocol = list.data?.protocol ?? protocol;

  const downloadTemplate = async () => {
    if (!shownProtocol) return;
    setFetchingTemplate(true);
    try {
      const { blob, disposition } = await fetchEventDescriptionTemplate(shownProtocol, language);
      saveBlob(blob, fileNameFromDisposition(disposition) ?? `event-descriptions-${shownProtocol}-${language}.xlsx`);
    } catch (error) {
      void message.error(error instanceof Error ? error.message : t('shared.requestFailed'));
    } finally {
      setFetchingTemplate(false);
    }
  };

  return (
    <ListPage
      title={<PageTitle route={route} />}
      testId="event-descriptions"
      tools={
        <>
          <Select
            aria-label={t('eventDesc.protocol')}
            style={{ width: 280 }}
            value={list.data?.protocol ?? protocol}
            onChange={(value: string) => state.update({ protocol: value })}
            options={(list.data?.protocols ?? []).map((p) => ({ value: p.id, label: `${p.name} (${p.events})` }))}
            data-testid="event-descriptions-protocol"
          />
          <Select
            aria-label={t('eventDesc.language')}
            style={{ width: 180 }}
            value={language}
            onChange={(value: Language) => state.update({ language: value })}
            options={LANGUAGES.map((l) => ({ value: l, label: languageName(l, locale) }))}
            data-testid="event-descriptions-language"
          />
          <ListSearch list={state} placeholder={t('eventDesc.search')} />
          <Button
            icon={<DownloadOutlined />}
            title={t('eventDesc.templateHint')}
            loading={fetchingTemplate}
            disabled={!shownProtocol}
            onClick={() => void downloadTemplate()}
            data-testid="event-descriptions-template"
          >
            {t('eventDesc.template')}
          </Button>
          {canEdit && (
            <Button icon={<UploadOutlined />} onClick={() => setImporting(true)} data-testid="event-descriptions-import">
              {t('eventDesc.import')}
            </Button>
          )}
        </>
      }
    >
      <Typography.Paragraph type="secondary">{t('eventDesc.intro')}</Typography.Paragraph>
      <Table<EventDescriptionRow>
        rowKey="code"
        size="middle"
        loading={list.isLoading}
        dataSource={list.data?.infos ?? []}
        scroll={{ x: 900 }}
        pagination={state.pagination(list.data?.total)}
        locale={{ emptyText: <Empty description={t('eventDesc.empty')} image={Empty.PRESENTED_IMAGE_SIMPLE} /> }}
        columns={[
          { title: t('eventDesc.colCode'), dataIndex: 'code', width: 90 },
          {
            title: t('eventDesc.colLevel'),
            dataIndex: 'level',
            width: 120,
            render: (level: string) => <LevelTag level={level} />,
          },
          { title: t('eventDesc.colDescription'), dataIndex: 'description', width: 260 },
          { title: t('eventDesc.colSolution'), dataIndex: 'solution' },
          {
            title: t('eventDesc.colSource'),
            dataIndex: 'source',
            width: 120,
            render: (source: string) =>
              source === 'imported' ? (
                <Tag color="success" variant="filled">
                  {t('eventDesc.sourceImported')}
                </Tag>
              ) : (
                t('eventDesc.sourceMap')
              ),
          },
          ...(canEdit
            ? [
                {
                  title: t('shared.actions'),
                  key: 'actions',
                  width: 100,
                  render: (_: unknown, row: EventDescriptionRow) => (
                    <Button type="link" size="small" onClick={() => setEditing(row)} data-testid={`event-description-edit-${row.code}`}>
                      {t('shared.edit')}
                    </Button>
                  ),
                },
              ]
            : []),
        ]}
      />
      {editing && shownProtocol && (
        <EditDialog
          row={editing}
          protocol={shownProtocol}
          language={language}
          languageLabel={languageName(language, locale)}
          onClose={() => setEditing(undefined)}
        />
      )}
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
    </ListPage>
  );
}

/** One code's description and solution in the shown language; the server's refusal lands beside its field. */
function EditDialog({
  row,
  protocol,
  language,
  languageLabel,
  onClose,
}: {
  row: EventDescriptionRow;
  protocol: string;
  language: Language;
  languageLabel: string;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ description: string; solution: string }>();
  return (
    <FormDialog<{ description: string; solution: string }, EventDescriptionRow>
      form={form}
      title={t('eventDesc.editTitle', { code: row.code, language: languageLabel })}
      okId="event-description-submit"
      testId="event-description-form"
      width={640}
      initialValues={{ description: row.description, solution: row.solution }}
      save={(values) =>
        editEventDescription({ protocol, code: row.code, language, description: values.description, solution: values.solution ?? '' })
      }
      savedText={(saved) => t('eventDesc.saved', { code: saved.code })}
      invalidate={[eventDescriptionKeys.all]}
      fieldOf={() => 'description'}
      onClose={onClose}
    >
      <Form.Item
        name="description"
        label={t('eventDesc.colDescription')}
        rules={[{ required: true, whitespace: true, message: t('shared.required') }, { max: EVENT_DESCRIPTION_LIMITS.descriptionMax }]}
      >
        <Input id="event-description-text" />
      </Form.Item>
      <Form.Item name="solution" label={t('eventDesc.colSolution')} rules={[{ max: EVENT_DESCRIPTION_LIMITS.solutionMax }]}>
        <Input.TextArea id="event-description-solution" autoSize={{ minRows: 3, maxRows: 8 }} />
      </Form.Item>
    </FormDialog>
  );
}
