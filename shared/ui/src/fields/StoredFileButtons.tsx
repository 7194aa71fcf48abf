import { Button, Popconfirm } from 'antd';
import { DeleteOutlined, DownloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { StoredFile } from '@mizan/contracts';
import { downloadStoredFile } from './files';

/** Downloads one stored file through the authorised route; `onFailure` reports a failed download. */
export function DownloadFileButton({ file, onFailure }: { file: StoredFile; onFailure: () => void }) {
  const { t } = useTranslation('ui');
  return (
    <Button
      type="link"
      size="small"
      icon={<DownloadOutlined />}
      aria-label={t('files.download', { name: file.originalName })}
      onClick={() => void downloadStoredFile(file).catch(onFailure)}
    />
  );
}

/** Deletes one stored file after a confirmation naming it (the files field and the record page). */
export function DeleteFileButton({
  file,
  busy,
  onConfirm,
}: {
  file: StoredFile;
  /** The deletion of this file is under way. */
  busy: boolean;
  onConfirm: () => void;
}) {
  const { t } = useTranslation('ui');
  return (
    <Popconfirm
      title={t('files.confirmDelete', { name: file.originalName })}
      okText={t('actions.delete')}
      cancelText={t('actions.cancel')}
      okButtonProps={{ danger: true }}
      onConfirm={onConfirm}
    >
      <Button
        type="link"
        size="small"
        danger
        icon={<DeleteOutlined />}
        loading={busy}
        aria-label={t('files.delete', { name: file.originalName })}
      />
    </Popconfirm>
  );
}
