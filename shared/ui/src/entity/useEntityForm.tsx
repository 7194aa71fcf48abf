import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Form, Switch } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { VERSION_FIELD, type Entity, type Fields } from '@mizan/contracts';
import { entityApi, entityKeys, isApiError, newIdempotencyKey, notify, toFormData, wsClient } from '../data';
import { UploadProgressContext } from '../fields/FilesInput';
import { multipartLayout, settleUploads, uploadsFromProgress, type FileUpload } from '../fields/files';
import { fieldKind } from '../fields/registry';
import type { EntityRow } from '../fields/types';
import { fieldText, staleConflictOf, threeWayMerge, type StaleConflict } from './conflict';
import type { MergeChoice, MergeField, MergeState } from './MergeDialog';
import {
  formFieldNames,
  formToBody,
  initialFormValues,
  isRequiredInForm,
  issueText,
  schemaFor,
  updatable,
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

/**
 * A change made elsewhere to the record being edited, seen on its real-time channel: the fields it
 * filled (the user had not changed them) and those the user changed too (the save will ask).
 */
export type RemoteChange =
  { kind: 'updated'; row: EntityRow; filled: string[]; both: string[] } | { kind: 'deleted' };

/** Saves that meet someone else's newer version and merge with it, at most, before giving up. */
const MERGE_ATTEMPTS = 3;

/**
 * The state of one create/edit form of an entity: inputs from the field registry validated by the
 * same zod schema as the server (per field while typing, whole body on save), server 422 messages
 * on their fields, and concurrent edits merged as a person would:
 * - the form keeps the version it was opened with and sends it back (`updatedAt`), so the server
 *   refuses a save over a newer version (409);
 * - a live change of the record (its channel, or the record passed in again) fills only the
 *   fields the user has not changed; a field the user changed is never replaced;
 * - a refused save merges with the stored version: fields only they changed are taken, fields
 *   both changed are asked (keep mine, take theirs, `MergeDialog`), then it saves again on it.
 * Render it with `<EntityForm {...form} />`, in a page or in a drawer (`EntityFormDrawer`).
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
  const [merge, setMerge] = useState<MergeState | null>(null);
  const [remote, setRemote] = useState<RemoteChange | null>(null);
  /** Per files field, the new files of the save under way (or last failed): progress, done, refused. */
  const [uploads, setUploads] = useState<Record<string, FileUpload[]>>({});
  /** The version the next save claims to be based on (`updatedAt` of the row last loaded). */
  const version = useRef<string | undefined>(record?.updatedAt);
  /** The row the form was last filled from, live changes merged in (for references' titles). */
  const base = useRef<EntityRow | undefined>(record);
  /**
   * Per field, the form value the form itself last put there (opening, a live change, a merge):
   * a field whose value differs from it is the user's change, never replaced.
   */
  const given = useRef<Record<string, unknown>>({});
  /** Fields a live change filled since the form opened (shown in the merge as taken). */
  const filledLive = useRef(new Set<string>());
  const baseline = useRef('');
  const savingNow = useRef(false);
  const heldEvent = useRef<EntityRow | null>(null);
  const recordRef = useRef(record);
  recordRef.current = record;

  const names = useMemo(
    () =>
      (fields ?? formFieldNames(entity, mode)).filter(
        (name) => !(mode === 'update' && entity.fields[name] && !updatable(entity.fields[name])),
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
      given.current = values;
      filledLive.current = new Set();
      baseline.current = snapshot(values);
    },
    [entity, text, names, form, snapshot, mode],
  );

  /** The fields a merge compares (files only add, write-only ones are never read back) and `status`. */
  const mergeNames = useMemo(
    () => [
      ...names.filter((name) => {
        const field = entity.fields[name];
        return field && field.type !== 'files' && !field.writeOnly;
      }),
      ...(entity.status ? ['status'] : []),
    ],
    [entity, names],
  );
  /** A form value as it would be sent, comparable across the ways a form holds it. */
  const keyOf = useCallback(
    (name: string, value: unknown) => {
      if (name === 'status') return JSON.stringify(value !== false);
      const field = entity.fields[name];
      return field ? JSON.stringify(fieldKind(field).fromForm(value, text.context(name)) ?? null) : '';
    },
    [entity, text],
  );
  const keysOf = useCallback(
    (values: Record<string, unknown>) =>
      Object.fromEntries(mergeNames.map((name) => [name, keyOf(name, values[name])])),
    [mergeNames, keyOf],
  );
  /** The form values of a stored row. */
  const valuesOf = useCallback(
    (row: EntityRow) => initialFormValues(entity, text, names, row),
    [entity, text, names],
  );

  /**
   * A change saved elsewhere: fields the user has not changed take its values, the others keep
   * the user's; the form keeps its version (the save is still checked against the newer one).
   */
  const applyLive = useCallback(
    (row: EntityRow) => {
      const theirs = valuesOf(row);
      const mine = form.getFieldsValue(true) as Record<string, unknown>;
      const { both, theirs: take } = threeWayMerge(
        mergeNames,
        keysOf(given.current),
        keysOf(mine),
        keysOf(theirs),
      );
      for (const name of take) {
        form.setFieldValue(name, theirs[name]);
        given.current = { ...given.current, [name]: theirs[name] };
        filledLive.current.add(name);
      }
      base.current = { ...base.current, ...row, updatedAt: base.current?.updatedAt ?? row.updatedAt };
      baseline.current = snapshot(given.current);
      setRemote({ kind: 'updated', row, filled: [...filledLive.current], both });
    },
    [valuesOf, form, mergeNames, keysOf, snapshot],
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
    fill(recordRef.current);
    setFormError(null);
    setMerge(null);
    setRemote(null);
    setUploads({});
    heldEvent.current = null;
    // Filled when the form opens or shows another record, not when the record passed in is read
    // again (a live change of it is merged below), nor when the language changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [record?.id, mode]);
  useEffect(() => {
    if (active) reset();
  }, [active, reset]);
  // The record passed in, read again after a change elsewhere (a record page's cache patched by
  // the channel): merged like a live event, never refilling what the user typed.
  useEffect(() => {
    if (!active || mode !== 'update' || !record || savingNow.current) return;
    if (record.id === base.current?.id && record.updatedAt !== version.current) applyLive(record);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [record]);

  // The record's own channel: a change saved elsewhere shows at once, not at the next save.
  const recordId = active && mode === 'update' ? record?.id : undefined;
  useEffect(() => {
    if (recordId === undefined) return undefined;
    let live = true;
    const seen = (row: EntityRow) => {
      // Our own save's event may come before its answer: judge it once the answer is in.
      if (savingNow.current) heldEvent.current = row;
      else if (row.updatedAt !== version.current) applyLive(row);
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
    // `applyLive` reads refs; a new one each render must not subscribe again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
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
    // Silent: the form shows every failure itself (on the fields, in its alert or merge dialog).
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

  const submit = async (attempt = 0): Promise<boolean> => {
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
      if (typeof savedRow?.updatedAt === 'string') version.current = savedRow.updatedAt;
      given.current = values;
      filledLive.current = new Set();
      baseline.current = snapshot(values);
      setRemote(null);
      if (held && held.updatedAt !== savedRow?.updatedAt) applyLive(held);
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
        savingNow.current = false;
        return await mergeStale(stale, attempt);
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

  /** Display rows of merge fields: the user's value and theirs. */
  const mergeRows = (fields: string[], row: EntityRow): MergeField[] => {
    const mine = formToBody(entity, text, names, form.getFieldsValue(true), mode).body;
    const theirs = formToBody(entity, text, names, valuesOf(row), mode).body;
    if (entity.status) {
      mine.status = form.getFieldValue('status') !== false;
      theirs.status = row.status !== false;
    }
    const rows = [base.current ?? row, row];
    return fields.map((name) => ({
      field: name,
      label: name === 'status' ? text.label('status') : text.context(name).label,
      mine: fieldText(entity, text, name, mine[name], rows, row),
      theirs: fieldText(entity, text, name, theirs[name], [row], row),
    }));
  };

  /** The form goes on from `row`'s version: what it stores is what the form was given. */
  const adopt = (row: EntityRow) => {
    given.current = { ...given.current, ...valuesOf(row) };
    version.current = row.updatedAt;
    base.current = row;
    filledLive.current = new Set();
    baseline.current = snapshot(given.current);
    setRemote(null);
  };

  /** The pending merge: the stored row it merges with and the fields only they changed. */
  const pending = useRef<{ row: EntityRow; take: string[]; from: 'save' | 'live' } | null>(null);

  /**
   * A save refused over a newer version: fields only they changed are taken, and with none both
   * changed it saves again at once on their version; otherwise the merge dialog asks.
   */
  const mergeStale = (stale: StaleConflict, attempt: number): Promise<boolean> | boolean => {
    const row = stale.current;
    const theirs = valuesOf(row);
    const { both, theirs: take } = threeWayMerge(
      mergeNames,
      keysOf(given.current),
      keysOf(form.getFieldsValue(true) as Record<string, unknown>),
      keysOf(theirs),
    );
    const shown = [...new Set([...filledLive.current, ...take])];
    if (both.length === 0 && attempt + 1 < MERGE_ATTEMPTS) {
      for (const name of take) form.setFieldValue(name, theirs[name]);
      adopt(row);
      return submit(attempt + 1);
    }
    pending.current = { row, take, from: 'save' };
    setMerge({
      changedBy: stale.changedBy,
      changedAt: stale.changedAt,
      from: 'save',
      both: mergeRows(both, row),
      taken: mergeRows(shown, row),
    });
    return false;
  };

  /** The user's choices of a merge: their values where chosen, then (after a save) save again. */
  const applyMerge = (choices: Record<string, MergeChoice>) => {
    const current = pending.current;
    setMerge(null);
    if (!current) return;
    const theirs = valuesOf(current.row);
    const takeNames = [
      ...current.take,
      ...Object.entries(choices)
        .filter(([, choice]) => choice === 'theirs')
        .map(([name]) => name),
    ];
    for (const name of takeNames) form.setFieldValue(name, theirs[name]);
    adopt(current.row);
    pending.current = null;
    if (current.from === 'save') void submit();
  };

  /** A live change the user asks to settle now: the same merge, without saving. */
  const reviewRemote = () => {
    if (remote?.kind !== 'updated') return;
    const row = remote.row;
    const { both } = threeWayMerge(
      mergeNames,
      keysOf(given.current),
      keysOf(form.getFieldsValue(true) as Record<string, unknown>),
      keysOf(valuesOf(row)),
    );
    pending.current = { row, take: [], from: 'live' };
    setMerge({
      changedBy: null,
      changedAt: row.updatedAt,
      from: 'live',
      both: mergeRows(both, row),
      taken: mergeRows([...filledLive.current], row),
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
    remote,
    /** A merge with someone else's version waiting for the user's choices (`MergeDialog`). */
    merge,
    /** Nothing can be saved: the record was deleted elsewhere. */
    disabled: remote?.kind === 'deleted',
    isDirty,
    reset,
    applyMerge,
    reviewRemote,
    dismissMerge: () => {
      pending.current = null;
      setMerge(null);
    },
  };
}

export type EntityFormState = ReturnType<typeof useEntityForm>;
