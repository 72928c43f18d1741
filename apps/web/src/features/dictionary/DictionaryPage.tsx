import { PlusOutlined } from '@ant-design/icons';
import { Code } from '@sunward/contracts/codes';
import { DICT_LIMITS, DICT_TYPES, type DictEntryRow, type DictType } from '@sunward/contracts/dictionary';
import { LANGUAGE_NAMES, LANGUAGE_TAGS, LANGUAGES } from '@sunward/contracts/languages';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Form, Input, InputNumber, Segmented, Select, Switch, Table, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PageProps } from '../../app/page-props';
import { useSession } from '../../app/session';
import { FormDialog } from '../../components/FormDialog';
import { LinkActions } from '../../components/LinkActions';
import { ListPage, ListSearch, useListState } from '../../components/ListPage';
import { PageTitle } from '../../components/PageTitle';
import { fieldErrors, refusalCode, refusalMessage } from '../../lib/api-client';
import { registerTexts } from '../../lib/feature-texts';
import { createDictEntry, dictionaryKeys, fetchDictPage, setDictEntryEnabled, updateDictEntry } from './api';
import { dictionaryTexts } from './dictionary-texts';

registerTexts(dictionaryTexts);

/** The plant form's dictionary lists (its query keys start with 'dict'): refreshed after a change here. */
const PICKER_LISTS = ['dict'] as const;

const isType = (value: string | undefined): value is DictType => (DICT_TYPES as readonly string[]).includes(value ?? '');

/**
 * Dictionary management (issue 24, platform administrators): the currencies, time zones and plant types
 * the console offers, each with its code, order, internationalised flag and texts; disabled entries are no
 * longer offered.
 */
export function DictionaryPage({ route }: PageProps) {
  const { t } = useTranslation();
  const { has } = useSession();
  const canEdit = has('system.dict.edit');
  const list = useListState();
  const typeParam = list.text('type');
  const type: DictType = isType(typeParam) ? typeParam : 'currency';
  const keyword = list.text('keyword');
  const [dialog, setDialog] = useState<{ row?: DictEntryRow } | null>(null);
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const page = useQuery({
    queryKey: dictionaryKeys.page(type, keyword, list.page, list.size),
    queryFn: () => fetchDictPage(type, keyword, list.page, list.size),
    placeholderData: keepPreviousData,
  });
  const toggle = useMutation({
    mutationFn: (row: DictEntryRow) => setDictEntryEnabled(row.id, !row.enabled),
    onSuccess: (row) => {
      void message.success(t(row.enabled ? 'dictionary.enabledDone' : 'dictionary.disabledDone', { code: row.code }));
      void queryClient.invalidateQueries({ queryKey: dictionaryKeys.all });
      void queryClient.invalidateQueries({ queryKey: PICKER_LISTS });
    },
    onError: (error) => void message.error(refusalMessage(error) ?? t('dictionary.requestFailed')),
  });

  return (
    <ListPage
      testId="dictionary-page"
      title={<PageTitle route={route} />}
      tools={
        <>
          <Segmented<DictType>
            aria-label={t('dictionary.type')}
            value={type}
            onChange={(value) => list.update({ type: value, keyword: undefined })}
            options={DICT_TYPES.map((value) => ({ value, label: t(`dictionary.type.${value}`) }))}
            data-testid="dict-type"
          />
          <ListSearch key={type} list={list} placeholder={t('dictionary.search')} testId="dict-search" />
          {canEdit && type !== 'plantType' && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({})} data-testid="dict-add">
              {t('dictionary.add')}
            </Button>
          )}
        </>
      }
    >
      <Table<DictEntryRow>
        rowKey="id"
        data-testid="dict-table"
        loading={page.isFetching}
        dataSource={page.data?.infos}
        pagination={list.pagination(page.data?.total, (total) => t('dictionary.total', { count: total }))}
        locale={{ emptyText: keyword ? t('dictionary.emptySearch') : t('dictionary.empty') }}
        scroll={{ x: 720 }}
        columns={[
          { key: 'code', title: t('dictionary.code'), width: 200, render: (_, r) => <code>{r.code}</code> },
          { key: 'text', title: t('dictionary.text'), render: (_, r) => r.label },
          { key: 'sort', title: t('dictionary.sort'), width: 90, render: (_, r) => r.sort },
          {
            key: 'i18n',
            title: t('dictionary.internationalised'),
            width: 150,
            render: (_, r) => (r.internationalised ? t('dictionary.yes') : t('dictionary.no')),
          },
          {
            key: 'status',
            title: t('dictionary.status'),
            width: 110,
            render: (_, r) => (
              <Tag color={r.enabled ? 'green' : 'default'}>{t(r.enabled ? 'dictionary.enabled' : 'dictionary.disabled')}</Tag>
            ),
          },
          {
            key: 'actions',
            title: t('dictionary.actions'),
            width: 170,
            render: (_, r) =>
              canEdit && (
                <LinkActions
                  actions={[
                    { key: 'edit', label: t('dictionary.edit'), onClick: () => setDialog({ row: r }), testId: `dict-edit-${r.code}` },
                    {
                      key: 'toggle',
                      label: t(r.enabled ? 'dictionary.disable' : 'dictionary.enable'),
                      danger: r.enabled,
                      testId: `dict-toggle-${r.code}`,
                      confirm: r.enabled
                        ? {
                            title: t('dictionary.disableTitle', { code: r.code }),
                            content: t('dictionary.disableHint'),
                            okText: t('dictionary.disable'),
                          }
                        : undefined,
                      onClick: () => toggle.mutateAsync(r),
                    },
                  ]}
                />
              ),
          },
        ]}
      />
      {dialog && <EntryDialog type={type} row={dialog.row} onClose={() => setDialog(null)} />}
    </ListPage>
  );
}

interface EntryValues {
  type: DictType;
  code: string;
  sort: number;
  internationalised: boolean;
  texts: Record<string, string>;
}

function EntryDialog({ type, row, onClose }: { type: DictType; row?: DictEntryRow; onClose(): void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<EntryValues>();
  const internationalised = Form.useWatch('internationalised', form) ?? row?.internationalised ?? true;
  const chosenType = Form.useWatch('type', form) ?? type;
  const languages = internationalised ? LANGUAGES : (['en'] as const);
  const save = (values: EntryValues) => {
    const texts = Object.fromEntries(languages.map((l) => [l, values.texts?.[l]?.trim() ?? '']));
    const fields = { sort: values.sort, internationalised: values.internationalised, texts };
    return row ? updateDictEntry(row.id, fields) : createDictEntry({ ...fields, type: values.type, code: values.code.trim() });
  };
  return (
    <FormDialog<EntryValues>
      form={form}
      title={row ? t('dictionary.editTitle', { code: row.code }) : t('dictionary.addTitle')}
      okId="dict-submit"
      testId="dict-form"
      width={640}
      initialValues={{
        type: row?.type ?? (type === 'plantType' ? 'currency' : type),
        code: row?.code ?? '',
        sort: row?.sort ?? 0,
        internationalised: row?.internationalised ?? true,
        texts: row?.texts ?? {},
      }}
      save={save}
      invalidate={[dictionaryKeys.all, PICKER_LISTS]}
      onRefusal={(error) => {
        const byField = Object.entries(fieldErrors(error));
        if (byField.length > 0) {
          form.setFields(byField.map(([name, text]) => ({ name: name.split('.') as never, errors: [text] })));
          return true;
        }
        if (refusalCode(error) === Code.DICTIONARY_CODE_EXISTS) {
          form.setFields([{ name: 'code', errors: [refusalMessage(error) ?? ''] }]);
          return true;
        }
        return false;
      }}
      onClose={onClose}
    >
      <Form.Item name="type" label={t('dictionary.type')}>
        <Select
          id="dict-type-field"
          disabled={!!row}
          options={DICT_TYPES.filter((v) => row || v !== 'plantType').map((value) => ({ value, label: t(`dictionary.type.${value}`) }))}
        />
      </Form.Item>
      <Form.Item
        name="code"
        label={t('dictionary.code')}
        extra={row ? t('dictionary.codeFixed') : t(`dictionary.codeHint.${chosenType}`)}
        rules={[{ required: true, whitespace: true, message: t('dictionary.required') }, { max: DICT_LIMITS.codeMax }]}
      >
        <Input id="dict-code" disabled={!!row} />
      </Form.Item>
      <Form.Item
        name="sort"
        label={t('dictionary.sort')}
        extra={t('dictionary.sortHint')}
        rules={[{ required: true, message: t('dictionary.required') }]}
      >
        <InputNumber id="dict-sort" min={0} max={DICT_LIMITS.sortMax} precision={0} style={{ width: 160 }} />
      </Form.Item>
      <Form.Item
        name="internationalised"
        label={t('dictionary.internationalised')}
        valuePropName="checked"
        extra={t('dictionary.internationalisedHint')}
      >
        <Switch id="dict-i18n" />
      </Form.Item>
      {languages.map((language) => (
        <Form.Item
          key={language}
          name={['texts', language]}
          label={internationalised ? LANGUAGE_NAMES[language] : t('dictionary.text')}
          rules={[{ required: true, whitespace: true, message: t('dictionary.required') }, { max: DICT_LIMITS.textMax }]}
        >
          <Input id={`dict-text-${language}`} lang={internationalised ? LANGUAGE_TAGS[language] : undefined} />
        </Form.Item>
      ))}
    </FormDialog>
  );
}
