import { Code } from '@sunward/contracts/codes';
import {
  type DictEntryFields,
  DictEntryRowSchema,
  type DictEntryUpdate,
  DictPageSchema,
  type DictType,
} from '@sunward/contracts/dictionary';
import { apiRequest } from '../../lib/api-client';

/** Query keys: everything under ['dictionary'] is refetched after a change; the pickers' lists too. */
export const dictionaryKeys = {
  all: ['dictionary'] as const,
  page: (type: DictType, keyword: string | undefined, page: number, size: number) =>
    ['dictionary', type, keyword ?? '', page, size] as const,
};

const HANDLED = [Code.VALIDATION, Code.NOT_FOUND, Code.DICTIONARY_CODE_EXISTS, Code.DICT_TYPE_FIXED];

export const fetchDictPage = (type: DictType, keyword: string | undefined, page: number, size: number) =>
  apiRequest('/api/v1/dicts', { query: { type, keyword, page, size }, schema: DictPageSchema });

export const createDictEntry = (fields: DictEntryFields) =>
  apiRequest('/api/v1/dict', { method: 'POST', json: fields, schema: DictEntryRowSchema, tolerate: HANDLED });

export const updateDictEntry = (id: number, fields: DictEntryUpdate) =>
  apiRequest(`/api/v1/dict/${id}`, { method: 'POST', json: fields, schema: DictEntryRowSchema, tolerate: HANDLED });

export const setDictEntryEnabled = (id: number, enabled: boolean) =>
  apiRequest(`/api/v1/dict/${id}/enabled`, { method: 'POST', json: { enabled }, schema: DictEntryRowSchema, tolerate: HANDLED });
