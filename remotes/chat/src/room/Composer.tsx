import { CloseOutlined, PaperClipOutlined, SendOutlined } from '@ant-design/icons';
import { CHAT_FILE_TYPES, CHAT_TEXT_MAX, type ChatMessage } from '@mizan/contracts';
import { Button, Flex, Input, Typography, Upload } from 'antd';
import { useEffect, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';

export interface ComposerProps {
  /** The message being answered, shown above the box. */
  replyTo: ChatMessage | null;
  /** My message being edited: the box holds its text and saving replaces it. */
  editing: ChatMessage | null;
  onCancel: () => void;
  onSend: (text: string, files: File[]) => void;
  onSaveEdit: (message: ChatMessage, text: string) => void;
  onTyping: (typing: boolean) => void;
}

/** The box under a chat: Enter sends, Shift+Enter starts a new line; files attach to the message. */
export function Composer({ replyTo, editing, onCancel, onSend, onSaveEdit, onTyping }: ComposerProps) {
  const { t } = useTranslation('chat');
  const [text, setText] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  useEffect(() => setText(editing?.text ?? ''), [editing]);

  const submit = () => {
    const trimmed = text.trim();
    if (editing) {
      if (trimmed) onSaveEdit(editing, trimmed);
    } else if (trimmed || files.length) {
      onSend(trimmed, files);
      setFiles([]);
    } else return;
    setText('');
    onTyping(false);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    }
  };
  const banner = editing ?? replyTo;

  return (
    <Flex vertical gap={4} style={{ paddingBlock: 8 }}>
      {banner ? (
        <Flex align="center" gap={8}>
          <Typography.Text type="secondary" ellipsis style={{ flex: 1 }}>
            {editing ? t('composer.editing') : t('composer.replyingTo', { name: banner.senderName })}{' '}
            <span dir="auto">{banner.text}</span>
          </Typography.Text>
          <Button
            size="small"
            type="text"
            aria-label={t('actions.cancel')}
            icon={<CloseOutlined />}
            onClick={onCancel}
          />
        </Flex>
      ) : null}
      {files.length ? (
        <Typography.Text type="secondary" data-testid="attached-files">
          {files.map((f) => f.name).join('، ')}
        </Typography.Text>
      ) : null}
      <Flex gap={6} align="flex-end">
        {editing ? null : (
          <Upload
            multiple
            showUploadList={false}
            accept={CHAT_FILE_TYPES.join(',')}
            beforeUpload={(file) => {
              setFiles((all) => [...all, file]);
              return false;
            }}
          >
            <Button aria-label={t('composer.attach')} icon={<PaperClipOutlined />} />
          </Upload>
        )}
        <Input.TextArea
          dir="auto"
          aria-label={t('composer.label')}
          placeholder={t('composer.placeholder')}
          autoSize={{ minRows: 1, maxRows: 6 }}
          maxLength={CHAT_TEXT_MAX}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            onTyping(e.target.value.length > 0);
          }}
          onBlur={() => onTyping(false)}
          onKeyDown={onKeyDown}
        />
        <Button
          type="primary"
          aria-label={editing ? t('actions.save') : t('composer.send')}
          icon={<SendOutlined />}
          onClick={submit}
        />
      </Flex>
    </Flex>
  );
}
