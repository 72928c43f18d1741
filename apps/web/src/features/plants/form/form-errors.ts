import type { FormInstance } from 'antd';
import { type FieldIssue, fieldNamePath } from './plant-form-values';

/** Shows each problem beside the field it names (server or schema); returns the fields it used. */
export function showIssues(form: FormInstance, issues: readonly FieldIssue[], prefix = ''): string[] {
  const byField = new Map<string, string[]>();
  for (const issue of issues) {
    const field = prefix + issue.field;
    byField.set(field, [...(byField.get(field) ?? []), issue.message]);
  }
  form.setFields([...byField].map(([field, errors]) => ({ name: fieldNamePath(field), errors })));
  return [...byField.keys()];
}
