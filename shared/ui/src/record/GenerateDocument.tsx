import { useEffect, useMemo, useState } from 'react';
import { Alert, Button, Form, Modal, Radio, Select, Space, Spin, Tooltip, Typography } from 'antd';
import { FileWordOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  DOCUMENT_RECORDS,
  attachments,
  documentTemplates,
  permissionKey,
  type DocumentFormat,
  type DocumentRecordKind,
  type Entity,
  type Fields,
  type GeneratedDocument,
} from '@mizan/contracts';
import {
  documentTools,
  entityKeys,
  fetchFile,
  generateBatch,
  generateDocument,
  previewDocument,
  isApiError,
  templatesFor,
  useCan,
} from '../data';
import type { EntityRow } from '../fields/types';

/** The record kind an entity's documents fill from (`lawsuits` → `lawsuit`), or null. */
export function documentRecordKind(entity: string): DocumentRecordKind | null {
  const found = Object.entries(DOCUMENT_RECORDS).find(([, name]) => name === entity);
  return (found?.[0] as DocumentRecordKind | undefined) ?? null;
}

/**
 * A generated document shown in the page: a PDF as stored, in a frame; a DOCX (which browsers
 * cannot show) as the server renders it to PDF for the preview alone, when it has LibreOffice.
 */
function GeneratedPreview({
  result,
  source,
}: {
  result: GeneratedDocument;
  /** The preview's PDF; null when none can be made (a DOCX without LibreOffice on the server). */
  source: (() => Promise<Blob>) | null;
}) {
  const { t } = useTranslation('ui');
  const [url, setUrl] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (!source) return undefined;
    let made: string | null = null;
    let gone = false;
    setUrl(null);
    setFailed(false);
    source()
      .then((blob) => {
        if (gone) return;
        made = URL.createObjectURL(new Blob([blob], { type: 'application/pdf' }));
        setUrl(made);
      })
      .catch(() => !gone && setFailed(true));
    return () => {
      gone = true;
      if (made) URL.revokeObjectURL(made);
    };
  }, [source]);
  if (!source) return <Typography.Text type="secondary">{t('documents.previewPdfOnly')}</Typography.Text>;
  if (failed) return <Alert type="error" showIcon title={t('record.files.previewFailed')} />;
  if (!url) return <Spin />;
  return (
    <iframe
      src={url}
      title={t('record.files.previewTitle', { name: result.attachment.name })}
      style={{ inlineSize: '100%', blockSize: '60vh', border: '1px solid rgba(0,0,0,0.1)' }}
    />
  );
}

/** The templates of a record kind to choose from (loaded when the dialog opens). */
function TemplateSelect({
  kind,
  open,
  value,
  onChange,
}: {
  kind: DocumentRecordKind;
  open: boolean;
  value: number | null;
  onChange: (id: number) => void;
}) {
  const { t } = useTranslation('ui');
  const templates = useQuery({
    queryKey: [...entityKeys.lists(documentTemplates.name), 'for', kind],
    queryFn: () => templatesFor(kind),
    enabled: open,
  });
  return (
    <Form.Item label={t('documents.template')} required>
      <Select
        aria-label={t('documents.template')}
        loading={templates.isLoading}
        value={value ?? undefined}
        onChange={onChange}
        options={(templates.data ?? []).map((tpl) => ({ value: tpl.id, label: String(tpl.name) }))}
        notFoundContent={t('documents.noTemplates')}
      />
    </Form.Item>
  );
}

async function download(result: GeneratedDocument) {
  const blob = await fetchFile(result.attachment.fileId);
  const href = URL.createObjectURL(new Blob([blob], { type: result.attachment.mimeType }));
  const link = document.createElement('a');
  link.href = href;
  link.download = result.attachment.name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
}

/**
 * "Generate document" on a record page of a kind templates fill from (lawsuit, client, power of
 * attorney, hearing): choose a template and a format, generate (stored as the record's file),
 * then download and preview; fields the record lacks are listed. PDF is offered only when the
 * server has LibreOffice, and says why not otherwise.
 */
export function GenerateDocumentButton({ entity, row }: { entity: Entity<Fields>; row: EntityRow }) {
  const { t } = useTranslation('ui');
  const can = useCan();
  const queryClient = useQueryClient();
  const kind = documentRecordKind(entity.name);
  const [open, setOpen] = useState(false);
  const [templateId, setTemplateId] = useState<number | null>(null);
  const [format, setFormat] = useState<DocumentFormat>('docx');
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<GeneratedDocument | null>(null);
  const [error, setError] = useState<string | null>(null);
  const tools = useQuery({ queryKey: ['documents', 'tools'], queryFn: documentTools, enabled: open });
  const previewSource = useMemo(() => {
    if (!result) return null;
    if (result.attachment.mimeType === 'application/pdf')
      return () => fetchFile(result.attachment.fileId, { silent: true });
    if (!tools.data?.pdf || templateId === null) return null;
    return () => previewDocument({ templateId, record: { entity: entity.name, id: row.id } });
    // Made once per generated document: the preview is of what was generated.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [result, tools.data?.pdf]);
  if (!kind || !can(permissionKey(documentTemplates, 'view'))) return null;

  const submit = async () => {
    if (templateId === null) return;
    setBusy(true);
    setError(null);
    setResult(null);
    try {
      const made = await generateDocument({
        templateId,
        record: { entity: entity.name, id: row.id },
        format,
      });
      setResult(made);
      void queryClient.invalidateQueries({ queryKey: entityKeys.all(attachments.name) });
      void queryClient.invalidateQueries({ queryKey: entityKeys.all(entity.name) });
    } catch (failure) {
      setError(isApiError(failure) ? failure.message : String(failure));
    } finally {
      setBusy(false);
    }
  };
  const pdfReason = tools.data && !tools.data.pdf ? tools.data.reason : null;

  return (
    <>
      <Button icon={<FileWordOutlined />} onClick={() => setOpen(true)}>
        {t('documents.generate')}
      </Button>
      <Modal
        open={open}
        title={t('documents.generateTitle')}
        width={result?.attachment.mimeType === 'application/pdf' ? 900 : 560}
        onCancel={() => {
          setOpen(false);
          setResult(null);
          setError(null);
        }}
        okText={t('documents.generate')}
        okButtonProps={{ disabled: templateId === null, loading: busy }}
        cancelText={t('actions.close')}
        onOk={() => void submit()}
        destroyOnHidden
      >
        <Form layout="vertical">
          <TemplateSelect kind={kind} open={open} value={templateId} onChange={setTemplateId} />
          <Form.Item label={t('documents.format')}>
            <Radio.Group value={format} onChange={(e) => setFormat(e.target.value as DocumentFormat)}>
              <Radio value="docx">Word (DOCX)</Radio>
              <Tooltip title={pdfReason}>
                <Radio value="pdf" disabled={pdfReason !== null}>
                  PDF
                </Radio>
              </Tooltip>
            </Radio.Group>
            {pdfReason && (
              <Typography.Paragraph type="secondary" style={{ marginBlockStart: 8 }}>
                {pdfReason}
              </Typography.Paragraph>
            )}
          </Form.Item>
        </Form>
        {error && <Alert type="error" showIcon title={error} />}
        {result && (
          <Space orientation="vertical" style={{ inlineSize: '100%' }}>
            <Alert
              type="success"
              showIcon
              title={t('documents.generated', { name: result.attachment.name })}
            />
            {result.missing.length > 0 && (
              <Alert
                type="warning"
                showIcon
                title={t('documents.missing', { count: result.missing.length })}
                description={<bdi dir="ltr">{result.missing.join(', ')}</bdi>}
              />
            )}
            <Button type="primary" onClick={() => void download(result)}>
              {t('documents.download')}
            </Button>
            <GeneratedPreview result={result} source={previewSource} />
          </Space>
        )}
      </Modal>
    </>
  );
}

/**
 * "Documents for all" beside a list of records (a day's hearing roll: the notices to the clients
 * of tomorrow's hearings): choose a template of their kind, and every record's document is
 * generated, stored with its record and downloaded together as one ZIP archive.
 */
export function BatchDocumentsButton({ entity, ids }: { entity: Entity<Fields>; ids: readonly number[] }) {
  const { t } = useTranslation('ui');
  const can = useCan();
  const kind = documentRecordKind(entity.name);
  const [open, setOpen] = useState(false);
  const [templateId, setTemplateId] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!kind || !can(permissionKey(documentTemplates, 'view'))) return null;
  const submit = async () => {
    if (templateId === null) return;
    setBusy(true);
    setError(null);
    try {
      const blob = await generateBatch({
        templateId,
        records: ids.map((id) => ({ entity: entity.name, id })),
        format: 'docx',
      });
      const href = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = href;
      link.download = `${t('documents.archiveName')}.zip`;
      link.click();
      setTimeout(() => URL.revokeObjectURL(href), 10_000);
      setOpen(false);
    } catch (failure) {
      setError(isApiError(failure) ? failure.message : String(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button icon={<FileWordOutlined />} disabled={!ids.length} onClick={() => setOpen(true)}>
        {t('documents.batch', { count: ids.length })}
      </Button>
      <Modal
        open={open}
        title={t('documents.batchTitle', { count: ids.length })}
        okText={t('documents.generate')}
        okButtonProps={{ disabled: templateId === null, loading: busy }}
        cancelText={t('actions.close')}
        onCancel={() => setOpen(false)}
        onOk={() => void submit()}
        destroyOnHidden
      >
        <Form layout="vertical">
          <TemplateSelect kind={kind} open={open} value={templateId} onChange={setTemplateId} />
        </Form>
        {error && <Alert type="error" showIcon title={error} />}
      </Modal>
    </>
  );
}
