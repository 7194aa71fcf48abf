import { useState } from 'react';
import {
  Alert,
  Button,
  Descriptions,
  Modal,
  Progress,
  Result,
  Space,
  Steps,
  Table,
  Typography,
  Upload,
} from 'antd';
import { DownloadOutlined, InboxOutlined, UploadOutlined } from '@ant-design/icons';
import { importRoutes, type Entity, type Fields } from '@mizan/contracts';
import { http, isApiError, notify } from '../data';
import { useEntityText } from '../entity/labels';
import { deriveColumns } from '../entity/columns';
import { exportFileName } from '../export/exportFile';
import { saveBlob } from '../export/saveBlob';
import type { EntityRow } from '../fields/types';
import { formatSize } from '../fields/files';
import {
  IMPORT_ACCEPT,
  IMPORT_MAX_BYTES,
  type ImportPreview,
  type ImportResult,
  type ImportRowError,
} from './importTypes';

export interface EntityImportProps {
  entity: Entity<Fields>;
  /** Called after a successful commit (refresh the list). */
  onImported?: () => void;
}

type Phase =
  | { step: 'choose' }
  | { step: 'checking'; file: File; percent: number }
  | { step: 'preview'; file: File; preview: ImportPreview }
  | { step: 'committing'; file: File; preview: ImportPreview; percent: number }
  | { step: 'done'; result: ImportResult };

const isSpreadsheet = (file: File) => /\.(csv|xlsx)$/i.test(file.name);

/** Rows with at least one error (a server before `invalid` existed: counted from the errors). */
const invalidRows = (preview: ImportPreview) =>
  typeof preview.invalid === 'number' ? preview.invalid : new Set(preview.errors.map((e) => e.row)).size;

/**
 * Import from CSV/XLSX for `importable` definitions: template download with the translated headers,
 * a dry run showing per-row errors, then an all-or-nothing commit with progress and its result.
 */
export function EntityImport({ entity, onImported }: EntityImportProps) {
  const text = useEntityText(entity);
  const { t } = text;
  const ui = (key: string, options?: Record<string, unknown>) => t(key, { ns: 'ui', ...options });
  const [open, setOpen] = useState(false);
  const [phase, setPhase] = useState<Phase>({ step: 'choose' });
  const [error, setError] = useState<string | null>(null);
  const [rowMessages, setRowMessages] = useState<string[]>([]);
  const routes = importRoutes(entity);

  /** The server writes the template (translated headers, required ones starred), so both sides agree. */
  const template = async (format: 'csv' | 'xlsx') => {
    setError(null);
    try {
      const response = await http.get<Blob>(routes.template.path, {
        params: { format },
        responseType: 'blob',
      });
      saveBlob(response.data, exportFileName(`${text.title}-${ui('import.template')}`, format));
    } catch {
      // The HTTP client has already shown why.
    }
  };

  const send = async <T,>(file: File, dryRun: boolean, onPercent: (p: number) => void): Promise<T> => {
    const body = new FormData();
    body.append('file', file, file.name);
    const response = await http.post<T>(routes.upload.path, body, {
      params: dryRun ? { dryRun: 1 } : undefined,
      // Errors are shown inside the dialog, next to the file they concern.
      silent: true,
      onUploadProgress: (e) => e.total && onPercent(Math.round((e.loaded / e.total) * 100)),
    });
    return response.data;
  };

  const check = async (file: File) => {
    setError(null);
    if (!isSpreadsheet(file)) return setError(ui('import.badType'));
    if (file.size > IMPORT_MAX_BYTES)
      return setError(ui('import.tooLarge', { size: formatSize(IMPORT_MAX_BYTES, text.lng) }));
    setPhase({ step: 'checking', file, percent: 0 });
    try {
      const preview = await send<ImportPreview>(file, true, (percent) =>
        setPhase({ step: 'checking', file, percent }),
      );
      setPhase({ step: 'preview', file, preview });
    } catch (e) {
      setError(isApiError(e) ? e.message : ui('errors.generic'));
      setPhase({ step: 'choose' });
    }
  };

  const commit = async (file: File, preview: ImportPreview) => {
    setError(null);
    setRowMessages([]);
    setPhase({ step: 'committing', file, preview, percent: 0 });
    try {
      const result = await send<ImportResult>(file, false, (percent) =>
        setPhase({ step: 'committing', file, preview, percent }),
      );
      setPhase({ step: 'done', result });
      notify.success(ui('import.committed', { count: result.created }));
      onImported?.();
    } catch (e) {
      setError(isApiError(e) ? e.message : ui('errors.generic'));
      // All or nothing: a 422 lists the rows that stopped the whole file.
      setRowMessages(isApiError(e) ? (e.errors.rows ?? []) : []);
      setPhase({ step: 'preview', file, preview });
    }
  };

  const close = () => {
    if (phase.step === 'checking' || phase.step === 'committing') return;
    setOpen(false);
    setPhase({ step: 'choose' });
    setError(null);
    setRowMessages([]);
  };

  const columns = deriveColumns(entity, text);
  const sampleTable = (preview: ImportPreview) => {
    const fields = new Set((preview.columns ?? []).map((c) => c.field));
    const shown = columns.filter((c) => fields.has(c.key));
    return (
      <Table<EntityRow>
        size="small"
        rowKey={(r) => String(r.row ?? r.id)}
        // A row without a status is saved active (the column's default): show it as the commit stores it.
        dataSource={
          (preview.sample ?? []).map((r) => (entity.status ? { status: true, ...r } : r)) as EntityRow[]
        }
        pagination={false}
        scroll={{ x: 'max-content' }}
        columns={[
          { key: 'row', title: ui('import.row'), render: (_: unknown, r: EntityRow) => String(r.row ?? '') },
          ...shown.map((c) => ({
            key: c.key,
            title: c.title,
            render: (_: unknown, r: EntityRow) => c.render(r),
          })),
        ]}
      />
    );
  };

  const errorTable = (errors: ImportRowError[]) => (
    <Table<ImportRowError>
      size="small"
      rowKey={(e) => `${e.row}-${e.field ?? ''}-${e.message}`}
      dataSource={errors}
      pagination={errors.length > 10 ? { pageSize: 10, size: 'small' } : false}
      scroll={{ x: 'max-content' }}
      columns={[
        { key: 'row', dataIndex: 'row', title: ui('import.row'), width: 80 },
        {
          key: 'field',
          dataIndex: 'field',
          title: ui('import.field'),
          render: (f: string | null) => (f ? text.label(f) : ''),
        },
        { key: 'message', dataIndex: 'message', title: ui('import.message') },
      ]}
    />
  );

  const current = { choose: 0, checking: 0, preview: 1, committing: 1, done: 2 }[phase.step];

  return (
    <>
      <Button icon={<UploadOutlined />} onClick={() => setOpen(true)}>
        {ui('import.button')}
      </Button>
      <Modal
        open={open}
        onCancel={close}
        title={ui('import.title', { title: text.title })}
        width={760}
        footer={null}
        destroyOnHidden
        mask={{ closable: false }}
      >
        <Steps
          size="small"
          current={current}
          style={{ marginBlockEnd: 16 }}
          items={[
            { title: ui('import.stepFile') },
            { title: ui('import.stepPreview') },
            { title: ui('import.stepResult') },
          ]}
        />
        {error && <Alert type="error" showIcon title={error} style={{ marginBlockEnd: 12 }} />}

        {(phase.step === 'choose' || phase.step === 'checking') && (
          <Space orientation="vertical" style={{ inlineSize: '100%' }}>
            <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
              {ui('import.templateHint')}
            </Typography.Paragraph>
            <Space wrap>
              <Button icon={<DownloadOutlined />} onClick={() => void template('xlsx')}>
                {ui('import.templateXlsx')}
              </Button>
              <Button icon={<DownloadOutlined />} onClick={() => void template('csv')}>
                {ui('import.templateCsv')}
              </Button>
            </Space>
            <Upload.Dragger
              accept={IMPORT_ACCEPT.join(',')}
              multiple={false}
              showUploadList={false}
              disabled={phase.step === 'checking'}
              beforeUpload={(file) => {
                void check(file);
                return false;
              }}
            >
              <p className="ant-upload-drag-icon">
                <InboxOutlined />
              </p>
              <p className="ant-upload-text">{ui('import.drop')}</p>
              <p className="ant-upload-hint">
                {ui('import.dropHint', { size: formatSize(IMPORT_MAX_BYTES, text.lng) })}
              </p>
            </Upload.Dragger>
            {phase.step === 'checking' && (
              <div role="status">
                <Typography.Text>{ui('import.checking', { name: phase.file.name })}</Typography.Text>
                <Progress percent={phase.percent} status="active" />
              </div>
            )}
          </Space>
        )}

        {(phase.step === 'preview' || phase.step === 'committing') && (
          <Space orientation="vertical" style={{ inlineSize: '100%' }}>
            <Descriptions
              size="small"
              column={{ xs: 1, sm: 2, md: 4 }}
              items={[
                { key: 'total', label: ui('import.total'), children: phase.preview.total },
                { key: 'valid', label: ui('import.valid'), children: phase.preview.valid },
                { key: 'duplicates', label: ui('import.duplicates'), children: phase.preview.duplicates },
                // Rows, not messages: one row may have several errors, and the four counts add up to the total.
                { key: 'errors', label: ui('import.invalid'), children: invalidRows(phase.preview) },
              ]}
            />
            {(phase.preview.ignoredColumns?.length ?? 0) > 0 && (
              <Alert
                type="info"
                showIcon
                title={ui('import.ignoredColumns', { columns: phase.preview.ignoredColumns?.join('، ') })}
              />
            )}
            {phase.preview.errors.length > 0 ? (
              <>
                <Alert type="error" showIcon title={ui('import.errorsHint')} />
                {errorTable(phase.preview.errors)}
              </>
            ) : (
              (phase.preview.sample?.length ?? 0) > 0 && (
                <>
                  <Typography.Text strong>{ui('import.sample')}</Typography.Text>
                  {sampleTable(phase.preview)}
                </>
              )
            )}
            {(phase.preview.duplicateRows?.length ?? 0) > 0 && (
              <>
                <Typography.Text strong>{ui('import.duplicateRows')}</Typography.Text>
                {errorTable(phase.preview.duplicateRows ?? [])}
              </>
            )}
            {rowMessages.length > 0 && (
              <ul style={{ margin: 0, paddingInlineStart: 20 }}>
                {rowMessages.map((m) => (
                  <li key={m}>
                    <Typography.Text type="danger">{m}</Typography.Text>
                  </li>
                ))}
              </ul>
            )}
            {phase.step === 'committing' && (
              <div role="status">
                <Typography.Text>{ui('import.committing')}</Typography.Text>
                <Progress percent={phase.percent < 100 ? phase.percent : 99} status="active" />
              </div>
            )}
            <Space style={{ display: 'flex', justifyContent: 'flex-end' }}>
              <Button disabled={phase.step === 'committing'} onClick={() => setPhase({ step: 'choose' })}>
                {ui('import.otherFile')}
              </Button>
              <Button
                type="primary"
                loading={phase.step === 'committing'}
                // The server writes all rows or none: a file with an invalid row cannot be committed.
                disabled={phase.preview.valid === 0 || phase.preview.errors.length > 0}
                onClick={() => void commit(phase.file, phase.preview)}
              >
                {ui('import.commit', { count: phase.preview.valid })}
              </Button>
            </Space>
          </Space>
        )}

        {phase.step === 'done' && (
          <Result
            status="success"
            title={ui('import.doneTitle')}
            subTitle={ui('import.doneSummary', {
              created: phase.result.created,
              skipped: phase.result.skipped,
              rejected: phase.result.rejected.length,
            })}
            extra={[
              <Button key="close" type="primary" onClick={close}>
                {ui('actions.close')}
              </Button>,
            ]}
          >
            {phase.result.rejected.length > 0 &&
              errorTable(
                phase.result.rejected.map((r) => ({
                  row: r.row,
                  field: null,
                  message: r.reasons.join('؛ '),
                })),
              )}
          </Result>
        )}
      </Modal>
    </>
  );
}
