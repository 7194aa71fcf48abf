import { useContext, useMemo, useState, type ReactNode } from 'react';
import {
  Button,
  ConfigProvider,
  Flex,
  Popconfirm,
  Result,
  Skeleton,
  Space,
  Switch,
  Tabs,
  Typography,
} from 'antd';
import { ArrowLeftOutlined, ArrowRightOutlined, DeleteOutlined, EditOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { permissionKey, registry, type Entity, type Fields } from '@mizan/contracts';
import { entityApi, entityKeys, isApiError, notify, useCan, useEntityChannel } from '../data';
import { ConflictDialog } from '../entity/ConflictDialog';
import { staleConflictOf, type StaleConflict } from '../entity/conflict';
import type { EntityFormRenderProps } from '../entity/EntityForm';
import { EntityFormDrawer } from '../entity/EntityFormDrawer';
import type { FormMode } from '../entity/formValues';
import { useEntityText } from '../entity/labels';
import type { EntityRow } from '../fields/types';
import { GenerateDocumentButton } from './GenerateDocument';
import { parseRecordId } from './paths';
import { RecordFields, readableFields } from './RecordFields';
import { deriveRecordTabs, titleOf, type RecordTab, type RecordTabContext } from './tabs';

export interface RecordPageProps {
  /** The definition from `@mizan/contracts` (`registry`). */
  entity: Entity<Fields>;
  /** The record's id; default the route's `:id`. */
  id?: number | string;
  /**
   * Adjust the derived tabs: add (`[...tabs, mine]`), replace (map by `key`), hide (filter) or
   * reorder them. Keys: `<entity>.<field>` per referencing entity, `files`, `history`.
   */
  tabs?: (derived: RecordTab[], context: RecordTabContext) => RecordTab[];
  /** Field names the description shows (default every readable field), or a function of them. */
  fields?: string[] | ((derived: string[]) => string[]);
  /** More buttons in the header, after edit and delete. */
  extraActions?: (row: EntityRow) => ReactNode;
  /** The edit form's fields and layout, as on the list (`EntityPage`'s props of the same names). */
  formFields?: string[] | ((derived: string[], mode: FormMode) => string[]);
  renderForm?: (props: EntityFormRenderProps) => ReactNode;
  /** The definitions tabs are derived from (default the registry). */
  entities?: readonly Entity<Fields>[];
}

/** The switch's pending choice while a stale toggle is resolved. */
type StatusConflict = { conflict: StaleConflict; wanted: boolean };

/**
 * A record's tabs wrap onto a second row rather than overflowing into antd's "more" menu, whose
 * button inside the tab list is not a tab (screen readers and axe refuse it) and hides tabs from
 * sight. With rows, the sliding underline would sit under the last row: the active tab is
 * underlined itself instead.
 */
const WRAPPED_TABS = `
.mizan-record-tabs > .ant-tabs-nav .ant-tabs-nav-wrap { white-space: normal; }
.mizan-record-tabs > .ant-tabs-nav .ant-tabs-nav-list { flex-wrap: wrap; row-gap: 4px; }
.mizan-record-tabs > .ant-tabs-nav .ant-tabs-ink-bar { display: none; }
.mizan-record-tabs > .ant-tabs-nav .ant-tabs-tab-active { box-shadow: inset 0 -2px 0 var(--ant-color-primary, currentColor); }
`;

/**
 * The generic page of one row at `<route>/:id`: its title with a way back to the list, edit
 * (the list's form drawer), delete and status actions as the user's permissions allow (each write
 * carries the version read; a stale one opens the conflict dialog), every readable field in a
 * description layout, and tabs derived from the registry: each entity referencing this one as an
 * embedded list whose "add" pre-fills the reference, the record's files, and its history.
 *
 * @example <Route path="/admin/customers/:id" element={<RecordPage entity={customers} />} />
 */
export function RecordPage({
  entity,
  id: idProp,
  tabs: adjustTabs,
  fields,
  extraActions,
  formFields,
  renderForm,
  entities = registry as readonly Entity<Fields>[],
}: RecordPageProps) {
  const params = useParams();
  const id = parseRecordId(idProp ?? params.id);
  const text = useEntityText(entity);
  const { t, lng } = text;
  const can = useCan();
  const allowed = (action: 'update' | 'delete' | 'status') => can(permissionKey(entity, action));
  const api = useMemo(() => entityApi(entity), [entity]);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [searchParams, setSearchParams] = useSearchParams();
  const { direction } = useContext(ConfigProvider.ConfigContext);
  // `?edit=1` opens the page with its edit form (a row just made elsewhere, to complete).
  const [editing, setEditing] = useState(() => searchParams.get('edit') === '1');
  const [statusConflict, setStatusConflict] = useState<StatusConflict | null>(null);
  const detailKey = entityKeys.detail(entity.name, id ?? 0);

  useEntityChannel(entity.name);
  const record = useQuery({
    queryKey: detailKey,
    // Silent: the page shows a failure itself (not found, or an error with "retry").
    queryFn: () => api.get(id as number, { silent: true }),
    enabled: id !== null,
  });
  const row = record.data;
  const refresh = () => queryClient.invalidateQueries({ queryKey: entityKeys.all(entity.name) });

  const toggle = useMutation({
    mutationFn: ({ wanted, version }: { wanted: boolean; version: string }) =>
      api.setStatus(id as number, { value: wanted, updatedAt: version }, { silent: true }),
    onSuccess: (saved) => queryClient.setQueryData(detailKey, saved),
    onError: (error, { wanted }) => {
      const conflict = staleConflictOf(error);
      if (conflict) setStatusConflict({ conflict, wanted });
      else notify.error(error.message);
    },
    onSettled: refresh,
  });
  const remove = useMutation({
    // Not silent: a refused delete (409, "still has 3 powers of attorney") shows the server's message.
    mutationFn: () => api.remove(id as number, row?.updatedAt),
    onSuccess: () => {
      notify.success(t('delete.done', { ns: 'ui' }));
      queryClient.removeQueries({ queryKey: detailKey });
      void navigate(entity.route);
      void refresh();
    },
  });

  const BackIcon = direction === 'rtl' ? ArrowRightOutlined : ArrowLeftOutlined;
  const back = (
    <Link to={entity.route}>
      <Space size={4}>
        <BackIcon aria-hidden />
        {t('record.back', { ns: 'ui', title: text.title })}
      </Space>
    </Link>
  );
  const notFound = id === null || (isApiError(record.error) && record.error.status === 404);
  if (notFound)
    return (
      <Result
        status="404"
        title={t('record.notFound.title', { ns: 'ui', name: text.singular })}
        subTitle={t('record.notFound.subTitle', { ns: 'ui', name: text.singular })}
        extra={back}
      />
    );
  if (record.isError && !row)
    return (
      <Result
        status="error"
        title={t('record.loadFailed', { ns: 'ui', name: text.singular })}
        subTitle={record.error instanceof Error ? record.error.message : undefined}
        extra={
          <Space wrap>
            <Button onClick={() => void record.refetch()}>{t('actions.retry', { ns: 'ui' })}</Button>
            {back}
          </Space>
        }
      />
    );
  if (!row)
    return (
      <div aria-busy="true" aria-label={t('states.loading', { ns: 'ui' })}>
        {back}
        <Skeleton active title paragraph={{ rows: 6 }} style={{ marginBlockStart: 16 }} />
      </div>
    );

  const title = titleOf(entity, row, lng);
  const context: RecordTabContext = { entity, row, title, can };
  const derivedTabs = deriveRecordTabs(entity, text, context, entities);
  const tabs = adjustTabs ? adjustTabs(derivedTabs, context) : derivedTabs;
  const requestedTab = searchParams.get('tab');
  const activeTab = tabs.some((tab) => tab.key === requestedTab) ? requestedTab! : tabs[0]?.key;
  const shownFields =
    typeof fields === 'function' ? fields(readableFields(entity)) : (fields ?? readableFields(entity));
  const version = typeof row.updatedAt === 'string' ? row.updatedAt : '';

  return (
    <div className="mizan-record-page" style={{ minInlineSize: 0 }}>
      {back}
      <Flex
        justify="space-between"
        align="center"
        wrap
        gap={12}
        style={{ marginBlockStart: 8, marginBlockEnd: 16 }}
      >
        <Typography.Title level={3} style={{ margin: 0, overflowWrap: 'anywhere' }}>
          <bdi>{title}</bdi>
        </Typography.Title>
        <Space wrap>
          {entity.status && (
            <Switch
              checked={row.status !== false}
              loading={toggle.isPending}
              disabled={!allowed('status')}
              checkedChildren={t('values.status.on', { ns: 'ui' })}
              unCheckedChildren={t('values.status.off', { ns: 'ui' })}
              aria-label={t('switch.status', { ns: 'ui', name: title })}
              onChange={() => toggle.mutate({ wanted: row.status === false, version })}
            />
          )}
          {allowed('update') && (
            <Button icon={<EditOutlined />} onClick={() => setEditing(true)}>
              {t('actions.edit', { ns: 'ui' })}
            </Button>
          )}
          {allowed('delete') && (
            <Popconfirm
              title={t('delete.title', { ns: 'ui', name: text.singular })}
              description={t('delete.confirm', { ns: 'ui', name: title })}
              okText={t('actions.delete', { ns: 'ui' })}
              cancelText={t('actions.cancel', { ns: 'ui' })}
              okButtonProps={{ danger: true }}
              onConfirm={() => remove.mutateAsync().catch(() => undefined)}
            >
              <Button danger icon={<DeleteOutlined />} loading={remove.isPending}>
                {t('actions.delete', { ns: 'ui' })}
              </Button>
            </Popconfirm>
          )}
          <GenerateDocumentButton entity={entity} row={row} />
          {extraActions?.(row)}
        </Space>
      </Flex>

      <section aria-label={t('record.details', { ns: 'ui' })} style={{ marginBlockEnd: 24 }}>
        <RecordFields entity={entity} text={text} row={row} fields={shownFields} />
      </section>

      {tabs.length > 0 && <style>{WRAPPED_TABS}</style>}
      {tabs.length > 0 && (
        <Tabs
          className="mizan-record-tabs"
          activeKey={activeTab}
          onChange={(key) =>
            setSearchParams(
              (current) => {
                const next = new URLSearchParams(current);
                next.set('tab', key);
                return next;
              },
              { replace: true },
            )
          }
          items={tabs.map((tab) => ({ key: tab.key, label: tab.label, children: tab.children }))}
        />
      )}

      <EntityFormDrawer
        entity={entity}
        open={editing && row !== undefined}
        mode="update"
        row={row}
        fields={
          typeof formFields === 'function' ? formFields(Object.keys(entity.fields), 'update') : formFields
        }
        renderForm={renderForm}
        onClose={() => {
          setEditing(false);
          if (searchParams.has('edit'))
            setSearchParams(
              (current) => {
                current.delete('edit');
                return current;
              },
              { replace: true },
            );
        }}
      />
      <ConflictDialog<EntityRow>
        conflict={statusConflict?.conflict ?? null}
        subject={text.singular}
        differences={(current) => [
          {
            field: 'status',
            label: text.label('status'),
            mine: t(`values.status.${statusConflict?.wanted ? 'on' : 'off'}`, { ns: 'ui' }),
            theirs: t(`values.status.${current.status !== false ? 'on' : 'off'}`, { ns: 'ui' }),
          },
        ]}
        onReload={(current) => {
          queryClient.setQueryData(detailKey, current);
          setStatusConflict(null);
        }}
        onKeepMine={(current) => {
          const wanted = statusConflict?.wanted ?? current.status === false;
          setStatusConflict(null);
          toggle.mutate({ wanted, version: current.updatedAt });
        }}
        onClose={() => setStatusConflict(null)}
      />
    </div>
  );
}
