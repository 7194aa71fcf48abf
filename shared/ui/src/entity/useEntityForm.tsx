import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Form, Switch } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { VERSION_FIELD, type Entity, type Fields } from '@mizan/contracts';
import { entityApi, entityKeys, isApiError, newIdempotencyKey, notify, toFormData, wsClient } from '../data';
import { UploadProgressContext } from '../fields/FilesInput';
import { multipartLayout, settleUploads, uploadsFromProgress, type FileUpload } from '../fields/files';
import { fieldKind } from '../fields/registry';
import type { EntityRow } from '../fields/types';
import { fieldDifferences, staleConflictOf, type StaleConflict } from './conflict';
import {
  formFieldNames,
  formToBody,
  initialFormValues,
  isRequiredInForm,
  issueText,
  schemaFor,
  type FormMode,
} from './formValues';
import { useEntityText } from './labels';

/** What a save may pass on to its request: the bytes sent so far of a multipart body (axios's event). */
export interface SaveOptions {
  onUploadProgress?: (event: { loaded: number; total?: number }) => void;
  /** A create's key for this submission: the same when the same values are sent again after no answer. */
  idempotencyKey?: string;
}

/** What a submission sends, files by name, size and type: equal for a resend of the same values. */
function submissionOf(request: Record<string, unknown>): string {
  return JSON.stringify(request, (_key, value: unknown) =>
    value instanceof Blob
      ? { name: value instanceof File ? value.name : '', size: value.size, type: value.type }
      : value,
  );
}

export interface EntityFormOptions {
  /** The record to edit (as read, with its `updatedAt`); without it the form creates one. */
  record?: EntityRow;
  /** Default: `update` with a record, `create` without. */
  mode?: FormMode;
  /** Field names to show; default every field of the definition (create-only ones only on create). */
  fields?: string[];
  /**
   * Sends the checked body; default the entity's `POST /` or `PUT /`. On update the body carries
   * `updatedAt`, the version the form read, so the server can refuse a stale write (409).
   */
  save?: (mode: FormMode, body: Record<string, unknown>, options?: SaveOptions) => Promise<unknown>;
  /** After a successful save (toast shown, lists refreshed), with the server's answer. */
  onSaved?: (saved: unknown) => void;
  /**
   * Whether the form is shown (default true). A drawer passes its `open`: the form is filled each
   * time it opens, and not while its inputs are not mounted.
   */
  active?: boolean;
  /**
   * Values a create form starts with, as the API writes them (`{ customerIds: [7] }`), with the
   * joined labels of references beside them (`customers: [{ id: 7, name: '…' }]`) so a select
   * shows the name at once: a record page's "add" pre-fills the record the new row belongs to.
   */
  defaults?: Record<string, unknown>;
}

/** A change made elsewhere to the record being edited, seen on its real-time channel. */
export type RemoteChange = { kind: 'updated'; row: EntityRow } | { kind: 'deleted' };

/**
 * The state of one create/edit form of an entity: inputs from the field registry validated by the
 * same zod schema as the server (per field while typing, whole body on save), server 422 messages
 * on their fields, the read version sent back on update with a stale write (409) turned into a
 * conflict to resolve, and live `update`/`delete` events of the record noticed at once. Render it
 * with `<EntityForm {...form} />`, in a page or in a drawer (`EntityFormDrawer`).
 *
 * @example
 * const form = useEntityForm(courts, { record: court, onSaved: () => navigate('..') });
 * return <EntityForm {...form} />;
 */
export function useEntityForm(entity: Entity<Fields>, options: EntityFormOptions = {}) {
  const { record, fields, save, onSaved, active = true } = options;
  const defaults = useRef(options.defaults);
  defaults.current = options.defaults;
  const mode: FormMode = options.mode ?? (record ? 'update' : 'create');
  const text = useEntityText(entity);
  const { t } = text;
  const queryClient = useQueryClient();
  const api = useMemo(() => entityApi(entity), [entity]);
  const [form] = Form.useForm();
  const [saving, setSaving] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const [conflict, setConflict] = useState<StaleConflict | null>(null);
  const [remote, setRemote] = useState<RemoteChange | null>(null);
  /** Per files field, the new files of the save under way (or last failed): progress, done, refused. */
  const [uploads, setUploads] = useState<Record<string, FileUpload[]>>({});
  /** The version the next save claims to be based on (`updatedAt` of the row last loaded). */
  const version = useRef<string | undefined>(record?.updatedAt);
  /** The row the form was last filled from (for references' titles and the unsaved-changes check). */
  const base = useRef<EntityRow | undefined>(record);
  const baseline = useRef('');
  const savingNow = useRef(false);
  const heldEvent = useRef<EntityRow | null>(null);

  const names = useMemo(
    () =>
      (fields ?? formFieldNames(entity, mode)).filter(
        (name) => !(mode === 'update' && entity.fields[name]?.createOnly),
      ),
    [entity, fields, mode],
  );
  const schema = useMemo(() => schemaFor(entity, mode), [entity, mode]);
  const snapshot = useCallback(
    (values: Record<string, unknown>) => {
      const { body, files } = formToBody(entity, text, names, values, mode);
      return JSON.stringify([body, Object.values(files).map((list) => list.length)]);
    },
    [entity, text, names, mode],
  );

  /** Fills the form from a row (or the defaults) and takes that row's version. */
  const fill = useCallback(
    (row: EntityRow | undefined) => {
      const values = initialFormValues(entity, text, names, row);
      const preset = row || mode !== 'create' ? undefined : defaults.current;
      for (const [name, value] of Object.entries(preset ?? {})) {
        const field = entity.fields[name];
        if (field && names.includes(name)) values[name] = fieldKind(field).toForm(value, text.context(name));
      }
      form.resetFields();
      form.setFieldsValue(values);
      // Pre-filled references show their names from the defaults' joined labels.
      base.current = row ?? (preset as EntityRow | undefined);
      version.current = row?.updatedAt;
      baseline.current = snapshot(values);
    },
    [entity, text, names, form, snapshot, mode],
  );

  /**
   * The create sent last without an answer (network down, timeout, server error) and its
   * `Idempotency-Key`: sending the same values again reuses the key, so the server answers with
   * the first create's result if it did happen.
   */
  const unanswered = useRef<{ submission: string; key: string } | null>(null);

  /** Back to the record as passed in, discarding what the user typed. */
  const reset = useCallback(() => {
    unanswered.current = null;
    fill(record);
    setFormError(null);
    setConflict(null);
    setRemote(null);
    setUploads({});
    heldEvent.current = null;
    // `text` changes with the language only: a new language must not wipe what the user typed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [record, mode]);
  useEffect(() => {
    if (active) reset();
  }, [active, reset]);

  // The record's own channel: a change saved elsewhere shows at once, not at the next save.
  const recordId = active && mode === 'update' ? record?.id : undefined;
  useEffect(() => {
    if (recordId === undefined) return undefined;
    let live = true;
    const seen = (row: EntityRow) => {
      // Our own save's event may come before its answer: judge it once the answer is in.
      if (savingNow.current) heldEvent.current = row;
      else if (row.updatedAt !== version.current) setRemote({ kind: 'updated', row });
    };
    // Events before the server took the subscription (the page was loading, the connection was
    // back after a cut) never reach us: read the record again once it has.
    const recheck = () =>
      api.get(recordId, { silent: true }).then(
        (row) => live && seen(row),
        (error: unknown) => {
          if (live && isApiError(error) && error.status === 404) setRemote({ kind: 'deleted' });
        },
      );
    const stop = wsClient.subscribe(entity.name, (message) => {
      if (message.type === 'subscribed' || message.type === 'resubscribed') return void recheck();
      if (message.type !== 'event') return;
      const row = message.data as EntityRow | null;
      if (!row || row.id !== recordId) return;
      if (message.action === 'delete') return setRemote({ kind: 'deleted' });
      if (message.action !== 'create') seen(row);
    });
    return () => {
      live = false;
      stop();
    };
  }, [api, entity.name, recordId]);

  /** Whether the user changed anything since the form was filled. */
  const isDirty = useCallback(
    () => snapshot(form.getFieldsValue(true) as Record<string, unknown>) !== baseline.current,
    [form, snapshot],
  );

  /** Checks one field exactly as the server would, with the same omission rules as the body. */
  const validateField = (name: string) => async (_: unknown, value: unknown) => {
    const { body } = formToBody(entity, text, [name], { [name]: value }, mode);
    if (!(name in body)) return;
    // The shape's keys are the field names (plus `id`); the definition is generic here.
    const shape = schema.shape as Record<
      string,
      (typeof schema.shape)[keyof typeof schema.shape] | undefined
    >;
    const result = shape[name]?.safeParse(body[name]);
    if (result && !result.success && result.error.issues[0]) {
      const issue = result.error.issues[0];
      throw new Error(issueText({ ...issue, path: [name, ...issue.path] }, text).message);
    }
  };

  const send = (body: Record<string, unknown>, options: SaveOptions) => {
    if (save) return save(mode, body, options);
    // Silent: the form shows every failure itself (on the fields, in its alert or conflict dialog).
    return mode === 'create'
      ? api.create(body, { silent: true, ...options })
      : api.update(record?.id ?? Number(body.id), body, { silent: true, ...options });
  };

  /** One request carries every new file: each file's progress is read from its bytes' place in the body. */
  const trackUploads = (body: Record<string, unknown>): SaveOptions => {
    const hasFiles = Object.values(body).some((v) => Array.isArray(v) && v.some((f) => f instanceof Blob));
    if (!hasFiles) return {};
    // The body as the SDK sends it (an update adds `id`), so the parts come in the same order.
    const sent = multipartLayout(toFormData(entity, mode === 'update' ? { ...body, id: record?.id } : body));
    // Form data holds copies of the files: name each part by the input's own file again.
    const own = (field: string, index: number) =>
      (body[field] as unknown[]).filter((f): f is Blob => f instanceof Blob)[index];
    const layout = {
      ...sent,
      files: sent.files.map((p) => ({ ...p, file: own(p.field, p.index) ?? p.file })),
    };
    setUploads(uploadsFromProgress(layout, 0));
    return { onUploadProgress: (e) => setUploads(uploadsFromProgress(layout, e.loaded, e.total)) };
  };

  const submit = async (): Promise<boolean> => {
    setFormError(null);
    if (remote?.kind === 'deleted') return false;
    try {
      await form.validateFields();
    } catch {
      return false; // antd shows the field messages
    }
    const values = form.getFieldsValue(true) as Record<string, unknown>;
    const { body, files } = formToBody(entity, text, names, values, mode);
    const payload = mode === 'update' && record ? { id: record.id, ...body } : body;
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
      return false;
    }
    const versioned = mode === 'update' && version.current ? { [VERSION_FIELD]: version.current } : {};
    setSaving(true);
    savingNow.current = true;
    heldEvent.current = null;
    try {
      const request = { ...(parsed.data as Record<string, unknown>), ...files, ...versioned };
      const options = trackUploads(request);
      if (mode === 'create') {
        const submission = submissionOf(request);
        if (unanswered.current?.submission !== submission)
          unanswered.current = { submission, key: newIdempotencyKey() };
        options.idempotencyKey = unanswered.current.key;
      }
      const saved = await send(request, options);
      unanswered.current = null;
      setUploads((current) => settleUploads(current));
      const savedRow = saved as Partial<EntityRow> | undefined;
      const held = heldEvent.current as EntityRow | null;
      if (held && held.updatedAt !== savedRow?.updatedAt) setRemote({ kind: 'updated', row: held });
      if (typeof savedRow?.updatedAt === 'string') version.current = savedRow.updatedAt;
      baseline.current = snapshot(values);
      await queryClient.invalidateQueries({ queryKey: entityKeys.all(entity.name) });
      notify.success(
        t(mode === 'create' ? 'form.created' : 'form.updated', { ns: 'ui', name: text.singular }),
      );
      onSaved?.(saved);
      return true;
    } catch (error) {
      if (!isApiError(error)) throw error;
      // An answer (other than a server error) settles the submission: the next one is new.
      if (error.status !== 0 && error.status < 500) unanswered.current = null;
      setUploads((current) => settleUploads(current, { message: error.message, errors: error.errors }));
      const stale = staleConflictOf(error);
      if (stale) {
        setConflict(stale);
        return false;
      }
      const onForm = error.fieldErrors().filter((e) => names.includes(e.name) || e.name === 'status');
      form.setFields(onForm);
      // A message the form cannot place (409 without fields, 413, network) stays visible in the form.
      if (onForm.length === 0) setFormError(error.message);
      return false;
    } finally {
      savingNow.current = false;
      setSaving(false);
    }
  };

  /** Their version replaces the form's values; the next save is based on it. */
  const reloadTheirs = (current: EntityRow) => {
    fill(current);
    setConflict(null);
    setRemote(null);
    setFormError(null);
  };
  /** The user's values stay; the next save is based on (and overwrites) the current version. */
  const keepMine = (current: EntityRow) => {
    base.current = { ...base.current, ...current };
    version.current = current.updatedAt;
    setConflict(null);
    setRemote(null);
  };
  /** Per-field "mine versus theirs" of a conflict, labels translated and values formatted. */
  const differences = (current: EntityRow) => {
    const mine = formToBody(entity, text, names, form.getFieldsValue(true), mode).body;
    const theirs = formToBody(
      entity,
      text,
      names,
      initialFormValues(entity, text, names, current),
      mode,
    ).body;
    if (entity.status) {
      mine.status = form.getFieldValue('status') as unknown;
      theirs.status = current.status !== false;
    }
    return fieldDifferences(entity, text, names, mine, theirs, [base.current ?? current, current], current);
  };
  /** A live update seen while editing becomes a conflict to resolve, with the same choices. */
  const reviewRemote = () => {
    if (remote?.kind !== 'updated') return;
    setConflict({
      message: '',
      current: remote.row,
      changedBy: null,
      changedAt: remote.row.updatedAt,
    });
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
        {kind.input(ctx, base.current)}
      </Form.Item>
    );
    if (field.type === 'files')
      items[name] = (
        <UploadProgressContext.Provider key={name} value={uploads[name]}>
          {items[name]}
        </UploadProgressContext.Provider>
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

  return {
    entity,
    text,
    mode,
    record,
    form,
    names,
    /** One ready `Form.Item` per field (and `status`), keyed by field name. */
    items,
    submit,
    saving,
    formError,
    conflict,
    remote,
    /** Nothing can be saved: the record was deleted elsewhere. */
    disabled: remote?.kind === 'deleted',
    isDirty,
    reset,
    reloadTheirs,
    keepMine,
    differences,
    reviewRemote,
    dismissConflict: () => setConflict(null),
  };
}

export type EntityFormState = ReturnType<typeof useEntityForm>;
