import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Form, type FormInstance, Input, Modal } from 'antd';
import type { Rule } from 'antd/es/form';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { registerTexts } from '../lib/feature-texts';
import { placeRefusal } from './form-refusal';
import { sharedTexts } from './shared-texts';

registerTexts(sharedTexts);

export interface FormDialogProps<V extends object, R> {
  /** The dialog's form (from `Form.useForm`), so the caller's fields can watch or set values. */
  form: FormInstance<V>;
  title: string;
  initialValues?: Partial<V>;
  /** Saves the values; on success the dialog says so, refreshes `invalidate` and closes. */
  save(values: V): Promise<R>;
  invalidate: readonly QueryKey[];
  /** The success message (default "Saved"); may depend on the answer (an invitation sent instead). */
  savedText?: (result: R) => string;
  /**
   * Where a refusal goes: the field it names (code 4 field errors go to their fields anyway), or
   * undefined for a message. Default: the first field of the form when the server names none.
   */
  fieldOf?: (error: unknown) => string | undefined;
  /** Handles a refusal itself first (a problem shown outside the fields); true when it did. */
  onRefusal?: (error: unknown) => boolean;
  onClose(): void;
  children: ReactNode;
  width?: number;
  /** id of the OK button and data-testid of the form. */
  okId?: string;
  testId?: string;
}

/**
 * An add / edit dialog: the form, Save busy while saving, the server's code-4 field problems beside
 * their fields and any other refusal under the field `fieldOf` names (or as a message).
 */
export function FormDialog<V extends object, R = unknown>({
  form,
  title,
  initialValues,
  save,
  invalidate,
  savedText,
  fieldOf,
  onRefusal,
  onClose,
  children,
  width,
  okId,
  testId,
}: FormDialogProps<V, R>) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: save,
    onSuccess: (result) => {
      void message.success(savedText?.(result) ?? t('shared.saved'));
      for (const queryKey of invalidate) void queryClient.invalidateQueries({ queryKey });
      onClose();
    },
    onError: (error) => {
      if (onRefusal?.(error)) return;
      const place = placeRefusal(error, t('shared.requestFailed'), fieldOf);
      if (place.kind === 'fields') form.setFields(place.fields.map((f) => ({ name: f.name as never, errors: f.errors })));
      else if (place.kind === 'field') form.setFields([{ name: place.name as never, errors: [place.text] }]);
      else void message.error(place.text);
    },
  });
  return (
    <Modal
      open
      width={width}
      title={title}
      okText={t('shared.save')}
      cancelText={t('shared.cancel')}
      onCancel={onClose}
      onOk={() => form.submit()}
      confirmLoading={mutation.isPending}
      okButtonProps={{ id: okId }}
      destroyOnHidden
    >
      <Form<V>
        form={form}
        layout="vertical"
        data-testid={testId}
        initialValues={initialValues}
        onFinish={(values) => mutation.mutate(values)}
      >
        {children}
      </Form>
    </Modal>
  );
}

/**
 * A one-line text field of a dialog: its label, an id for the label to point at, and its rules (or
 * `required` / `max` with the shared messages).
 */
export function TextField({
  name,
  label,
  id,
  rules,
  required = false,
  max,
}: {
  name: string;
  label: string;
  id: string;
  rules?: Rule[];
  required?: boolean;
  max?: number;
}) {
  const { t } = useTranslation();
  const own: Rule[] = [
    ...(required ? [{ required: true, whitespace: true, message: t('shared.required') }] : []),
    ...(max === undefined ? [] : [{ max }]),
  ];
  return (
    <Form.Item name={name} label={label} rules={rules ?? own}>
      <Input id={id} />
    </Form.Item>
  );
}
