import { useRef, useState } from 'react';
import { Button, Dropdown, Modal, Progress, Typography } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { isApiError, notify } from '../data';
import { csvBlob, exportFileName, xlsxBlob, type ExportSheet, type ExportValue } from './exportFile';
import { saveBlob } from './saveBlob';

export interface ExportColumn<T> {
  title: string;
  value: (row: T) => ExportValue;
}

export interface ExportButtonProps<T> {
  /** Translated title: sheet name and file name. */
  title: string;
  /** Loads every row of the current filtered list, reporting progress (the SDK's `exportAll`). */
  fetchRows: (onProgress: (done: number, total: number) => void, signal: AbortSignal) => Promise<T[]>;
  columns: ExportColumn<T>[];
  disabled?: boolean;
}

/** Exports ALL rows of the current filtered list (not just the visible page) to CSV or XLSX. */
export function ExportButton<T>({ title, fetchRows, columns, disabled }: ExportButtonProps<T>) {
  const { t, i18n } = useTranslation('ui');
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const abort = useRef<AbortController | null>(null);

  const run = async (format: 'csv' | 'xlsx') => {
    const controller = new AbortController();
    abort.current = controller;
    setProgress({ done: 0, total: 0 });
    try {
      const rows = await fetchRows((done, total) => setProgress({ done, total }), controller.signal);
      const sheet: ExportSheet = {
        title,
        headers: columns.map((c) => c.title),
        rows: rows.map((row) => columns.map((c) => c.value(row))),
        rtl: (i18n.resolvedLanguage ?? i18n.language) === 'ar',
      };
      const blob = format === 'csv' ? csvBlob(sheet) : await xlsxBlob(sheet);
      if (controller.signal.aborted) return;
      saveBlob(blob, exportFileName(title, format));
      notify.success(t('export.done', { count: rows.length }));
    } catch (error) {
      // The HTTP client already toasted API failures; a cancel is no failure.
      if (!controller.signal.aborted && !isApiError(error)) notify.error(t('export.failed'));
    } finally {
      setProgress(null);
      abort.current = null;
    }
  };

  const percent = progress && progress.total ? Math.round((progress.done / progress.total) * 100) : 0;
  return (
    <>
      <Dropdown
        trigger={['click']}
        disabled={disabled || progress !== null}
        menu={{
          items: [
            { key: 'csv', label: t('export.csv') },
            { key: 'xlsx', label: t('export.xlsx') },
          ],
          onClick: ({ key }) => void run(key as 'csv' | 'xlsx'),
        }}
      >
        <Button icon={<DownloadOutlined />} loading={progress !== null}>
          {t('export.button')}
        </Button>
      </Dropdown>
      <Modal
        open={progress !== null}
        title={t('export.title', { title })}
        closable={false}
        mask={{ closable: false }}
        okButtonProps={{ hidden: true }}
        cancelText={t('actions.cancel')}
        onCancel={() => abort.current?.abort()}
      >
        <Progress percent={percent} status="active" />
        <Typography.Text type="secondary">
          {t('export.progress', {
            done: progress?.done ?? 0,
            total: progress?.total ?? 0,
            count: progress?.total ?? 0,
          })}
        </Typography.Text>
      </Modal>
    </>
  );
}
