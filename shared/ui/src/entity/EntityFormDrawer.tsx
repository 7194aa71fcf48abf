import { useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { Alert, Button, ConfigProvider, Drawer, Form, Grid, Space, Switch, type FormInstance } from 'antd';
import type { Entity, Fields } from '@mizan/contracts';
import { isApiError, notify } from '../data';
import { fieldKind } from '../fields/registry';
import type { EntityRow } from '../fields/types';
import type { EntityText } from './labels';
import {
  formFieldNames,
  formToBody,
  initialFormValues,
  isRequiredInForm,
  issueText,
  schemaFor,
  type FormMode,
} from './formValues';

/** What a `renderForm` override gets: the derived inputs, to lay out or replace as it likes. */
export interface EntityFormRenderProps {
  entity: Entity<Fields>;
  mode: FormMode;
  row: EntityRow | undefined;
  form: FormInstance;
  /** One ready `Form.Item` per field (and `status`), keyed by field name. */
  items: Record<string, ReactNode>;
  /** The default layout: every item in order. */
  children: ReactNode;
}

export interface EntityFormDrawerProps {
  entity: Entity<Fields>;
  text: EntityText;
  open: boolean;
  mode: FormMode;
  row?: EntityRow;
  /** Field names to show; default every field of the definition (create-only ones only on create). */
  fields?: string[];
  renderForm?: (props: EntityFormRenderProps) => ReactNode;
  /** Sends the checked body to the API; new files sit under their field (the SDK makes it multipart). */
  save: (mode: FormMode, body: Record<string, unknown>) => Promise<unknown>;
  onClose: () => void;
}

/**
 * The create/edit drawer: inputs from the field registry, validated by the same zod schema as the
 * server (per field while typing, whole body on save), server 422 messages put on their fields.
 */
export function EntityFormDrawer({
  entity,
  text,
  open,
  mode,
  row,
  fields,
  renderForm,
  save,
  onClose,
}: EntityFormDrawerProps) {
  const { t } = text;
  const [form] = Form.useForm();
  const [saving, setSaving] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const { direction } = useContext(ConfigProvider.ConfigContext);
  const screens = Grid.useBreakpoint();
  const names = useMemo(
    () =>
      (fields ?? formFieldNames(entity, mode)).filter(
        (name) => !(mode === 'update' && entity.fields[name]?.createOnly),
      ),
    [entity, fields, mode],
  );
  const schema = useMemo(() => schemaFor(entity, mode), [entity, mode]);

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue(initialFormValues(entity, text, names, row));
    setFormError(null);
    // Reset only when the drawer opens on another row; `text` changes with the language only.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open, row, mode]);

  /** Checks one field exactly as the server would, with the same omission rules as the body. */
  const validateField = (name: string) => async (_: unknown, value: unknown) => {
    const { body } = formToBody(entity, text, [name], { [name]: value }, mode);
    if (!(name in body)) return;
    const fieldSchema = schema.shape[name];
    const result = fieldSchema?.safeParse(body[name]);
    if (result && !result.success && result.error.issues[0]) {
      const issue = result.error.issues[0];
      throw new Error(issueText({ ...issue, path: [name, ...issue.path] }, text).message);
    }
  };

  const submit = async () => {
    setFormError(null);
    try {
      await form.validateFields();
    } catch {
      return; // antd shows the field messages
    }
    const { body, files } = formToBody(entity, text, names, form.getFieldsValue(true), mode);
    const payload = mode === 'update' && row ? { id: row.id, ...body } : body;
    const parsed = schema.safeParse(payload);
    if (!parsed.success) {
      const messages = parsed.error.issues.map((issue) => issueText(issue, text));
      form.setFields(
        messages
          .filter((m) => m.field && names.includes(m.field))
          .map((m) => ({ name: m.field as string, errors: [m.message] })),
      );
      const rest = messages.find((m) => !m.field || !names.includes(m.field));
      if (rest) setFormError(rest.message);
      return;
    }
    setSaving(true);
    try {
      await save(mode, { ...parsed.data, ...files });
      notify.success(
        t(mode === 'create' ? 'form.created' : 'form.updated', { ns: 'ui', name: text.singular }),
      );
      onClose();
    } catch (error) {
      if (!isApiError(error)) throw error;
      const fieldErrors = error.fieldErrors();
      const onForm = fieldErrors.filter((e) => names.includes(e.name) || e.name === 'status');
      form.setFields(onForm);
      // A message the form cannot place (409 without fields, 413, network) stays visible in the drawer.
      if (onForm.length === 0) setFormError(error.message);
    } finally {
      setSaving(false);
    }
  };

  const items: Record<string, ReactNode> = {};
  for (const name of names) {
    const field = entity.fields[name];
    if (!field) continue;
    const kind = fieldKind(field);
    const ctx = text.context(name);
    items[name] = (
      <Form.Item
        key={name}
        name={name}
        label={ctx.label}
        required={isRequiredInForm(field, mode)}
        valuePropName={kind.valuePropName}
        rules={field.type === 'files' ? [] : [{ validator: validateField(name) }]}
        extra={mode === 'update' && field.writeOnly ? t('form.keepBlank', { ns: 'ui' }) : undefined}
      >
        {kind.input(ctx, row)}
      </Form.Item>
    );
  }
  if (entity.status)
    items.status = (
      <Form.Item key="status" name="status" label={text.label('status')} valuePropName="checked">
        <Switch
          checkedChildren={t('values.status.on', { ns: 'ui' })}
          unCheckedChildren={t('values.status.off', { ns: 'ui' })}
        />
      </Form.Item>
    );
  const children = <>{Object.values(items)}</>;

  return (
    <Drawer
      open={open}
      onClose={onClose}
      destroyOnHidden
      // The drawer slides from the reading end: the left edge in Arabic, the right in English.
      placement={direction === 'rtl' ? 'left' : 'right'}
      size={screens.md ? 560 : '100%'}
      title={t(mode === 'create' ? 'form.createTitle' : 'form.editTitle', { ns: 'ui', name: text.singular })}
      footer={
        <Space style={{ display: 'flex', justifyContent: 'flex-end' }}>
          <Button onClick={onClose}>{t('actions.cancel', { ns: 'ui' })}</Button>
          <Button type="primary" loading={saving} onClick={() => void submit()}>
            {t('actions.save', { ns: 'ui' })}
          </Button>
        </Space>
      }
    >
      {formError && <Alert type="error" showIcon title={formError} style={{ marginBlockEnd: 16 }} />}
      <Form form={form} layout="vertical" onFinish={() => void submit()} requiredMark scrollToFirstError>
        {renderForm ? renderForm({ entity, mode, row, form, items, children }) : children}
        {/* Enter in a text box submits, as users expect from a form. */}
        <button type="submit" hidden aria-hidden tabIndex={-1} />
      </Form>
    </Drawer>
  );
}
