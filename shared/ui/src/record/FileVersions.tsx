import { useRef, useState } from 'react';
import { Button, Flex, List, Modal, Typography } from 'antd';
import { HistoryOutlined, RollbackOutlined, UploadOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { FILE_TEXT_ROUTES, type StoredFile } from '@mizan/contracts';
import { api } from '@mizan/sdk';
import { notify } from '../data';
import { formatSize } from '../fields/files';
import { DownloadFileButton } from '../fields/StoredFileButtons';

/**
 * The versions of one stored file in a dialog: the current one first, then the earlier ones with
 * who uploaded them and when; each downloads, and with `canEdit` an earlier one is made current
 * again and a new version is uploaded (the current one is kept). `onChanged`: the record's files
 * changed (the current version is another file now).
 */
export function FileVersions({
  file,
  canEdit,
  onChanged,
}: {
  file: StoredFile;
  canEdit: boolean;
  onChanged: () => void;
}) {
  const { t, i18n } = useTranslation('ui');
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const picker = useRef<HTMLInputElement>(null);
  const queryClient = useQueryClient();
  const key = ['fileVersions', file.id];
  const { data } = useQuery({
    queryKey: key,
    queryFn: () => api.call(FILE_TEXT_ROUTES.versions, { params: { id: file.id } }, { silent: true }),
    enabled: open,
  });
  const changed = async () => {
    await queryClient.invalidateQueries({ queryKey: key });
    onChanged();
  };
  const upload = async (picked: File) => {
    const form = new FormData();
    form.append('file', picked, picked.name);
    setBusy(true);
    try {
      await api.call(FILE_TEXT_ROUTES.upload, { params: { id: file.id }, body: form });
      notify.success(t('record.files.versions.uploaded'));
      await changed();
    } catch {
      // The SDK showed the server's message (type or size refused).
    } finally {
      setBusy(false);
    }
  };
  const restore = async (versionId: number) => {
    setBusy(true);
    try {
      await api.call(FILE_TEXT_ROUTES.restore, { params: { id: file.id, versionId } });
      notify.success(t('record.files.versions.restored'));
      await changed();
    } catch {
      // The SDK showed the server's message.
    } finally {
      setBusy(false);
    }
  };
  const when = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <>
      <Button
        type="link"
        size="small"
        icon={<HistoryOutlined />}
        aria-label={t('record.files.versions.open', { name: file.originalName })}
        onClick={() => setOpen(true)}
      />
      <Modal
        open={open}
        title={t('record.files.versions.title', { name: file.originalName })}
        footer={null}
        onCancel={() => setOpen(false)}
        width={560}
      >
        <Flex vertical gap={12}>
          {canEdit && (
            <>
              <input
                ref={picker}
                type="file"
                hidden
                onChange={(event) => {
                  const picked = event.target.files?.[0];
                  event.target.value = '';
                  if (picked) void upload(picked);
                }}
              />
              <Button icon={<UploadOutlined />} loading={busy} onClick={() => picker.current?.click()}>
                {t('record.files.versions.upload')}
              </Button>
            </>
          )}
          <List
            dataSource={data?.items ?? []}
            loading={!data}
            renderItem={(version) => (
              <List.Item
                actions={[
                  <DownloadFileButton
                    key="download"
                    file={{
                      ...file,
                      id: version.id,
                      originalName: version.originalName,
                      mimeType: version.mimeType,
                    }}
                    onFailure={() => notify.error(t('files.downloadFailed'))}
                  />,
                  canEdit && !version.current ? (
                    <Button
                      key="restore"
                      type="link"
                      size="small"
                      icon={<RollbackOutlined />}
                      disabled={busy}
                      onClick={() => void restore(version.id)}
                    >
                      {t('record.files.versions.restore')}
                    </Button>
                  ) : null,
                ]}
              >
                <List.Item.Meta
                  title={
                    <Flex gap={8} wrap>
                      <bdi style={{ overflowWrap: 'anywhere' }}>{version.originalName}</bdi>
                      {version.current && (
                        <Typography.Text type="success">{t('record.files.versions.current')}</Typography.Text>
                      )}
                    </Flex>
                  }
                  description={t('record.files.versions.by', {
                    name: version.createdByName ?? '—',
                    date: when.format(new Date(version.createdAt)),
                    size: formatSize(version.size, i18n.language),
                  })}
                />
              </List.Item>
            )}
          />
        </Flex>
      </Modal>
    </>
  );
}
