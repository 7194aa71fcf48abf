import { FileOutlined } from '@ant-design/icons';
import type { ChatFile } from '@mizan/contracts';
import { fetchFile } from '@mizan/sdk';
import { Button, Flex, Image } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** A stored file as a blob URL (files need the session's headers, so no plain `src`). */
function useFileUrl(file: ChatFile): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    let made: string | null = null;
    fetchFile(file.id, { signal: controller.signal, silent: true })
      .then((blob) => {
        made = URL.createObjectURL(new Blob([blob], { type: file.mimeType }));
        setUrl(made);
      })
      .catch(() => undefined);
    return () => {
      controller.abort();
      if (made) URL.revokeObjectURL(made);
    };
  }, [file.id, file.mimeType]);
  return url;
}

function ImagePreview({ file }: { file: ChatFile }) {
  const { t } = useTranslation('chat');
  const url = useFileUrl(file);
  return (
    <Image
      src={url ?? undefined}
      alt={t('file.image', { name: file.name })}
      width={160}
      height={120}
      style={{ objectFit: 'cover', borderRadius: 6 }}
    />
  );
}

/** Opens a file in a new tab from its blob (the browser shows or downloads it). */
async function openFile(file: ChatFile) {
  const blob = await fetchFile(file.id);
  const url = URL.createObjectURL(new Blob([blob], { type: file.mimeType }));
  const link = document.createElement('a');
  link.href = url;
  link.download = file.name;
  link.rel = 'noopener';
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** A message's files: images as previews (click to enlarge), others as download buttons. */
export function MessageFiles({ files }: { files: readonly ChatFile[] }) {
  const { t } = useTranslation('chat');
  if (!files.length) return null;
  return (
    <Flex wrap gap={6} style={{ marginBlockStart: 4 }}>
      {files.map((file) =>
        file.image ? (
          <ImagePreview key={file.id} file={file} />
        ) : (
          <Button
            key={file.id}
            size="small"
            icon={<FileOutlined />}
            aria-label={t('file.download', { name: file.name })}
            onClick={() => void openFile(file)}
          >
            <bdi>{file.name}</bdi>
          </Button>
        ),
      )}
    </Flex>
  );
}
