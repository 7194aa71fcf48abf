import { ClockCircleOutlined, DeleteOutlined, EditOutlined, RollbackOutlined } from '@ant-design/icons';
import type { ChatMessage, ChatMessageStatus } from '@mizan/contracts';
import { Button, Flex, Popconfirm, Tooltip, Typography, theme } from 'antd';
import dayjs from 'dayjs';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { OutboxEntry } from '../messages/outbox';
import { MessageFiles } from './MessageFiles';
import { MessageText } from './MessageText';

/**
 * The ticks of one of my messages: a clock while pending (an icon: no font need carry a clock
 * glyph), ✓ sent, ✓✓ delivered, ✓✓ in the primary colour read.
 */
function Ticks({ status }: { status: ChatMessageStatus | 'pending' | 'failed' }) {
  const { t } = useTranslation('chat');
  const { token } = theme.useToken();
  const marks = { pending: <ClockCircleOutlined />, failed: '!', sent: '✓', delivered: '✓✓', read: '✓✓' }[
    status
  ];
  const color =
    status === 'read' ? token.colorPrimaryText : status === 'failed' ? token.colorErrorText : undefined;
  return (
    <span
      role="img"
      aria-label={t(`status.${status}`)}
      title={t(`status.${status}`)}
      data-status={status}
      style={{ color }}
    >
      {marks}
    </span>
  );
}

interface BubbleProps {
  mine: boolean;
  sender?: string;
  children: ReactNode;
  footer: ReactNode;
  testId: string;
  id?: number;
}

function Bubble({ mine, sender, children, footer, testId, id }: BubbleProps) {
  const { token } = theme.useToken();
  return (
    <li
      data-testid={testId}
      data-message-id={id}
      style={{
        alignSelf: mine ? 'flex-end' : 'flex-start',
        maxInlineSize: '78%',
        background: mine ? token.colorPrimaryBg : token.colorFillSecondary,
        borderRadius: 10,
        paddingBlock: 6,
        paddingInline: 10,
        listStyle: 'none',
      }}
    >
      {sender ? (
        <Typography.Text strong style={{ fontSize: 12, display: 'block' }}>
          <bdi>{sender}</bdi>
        </Typography.Text>
      ) : null}
      {children}
      <Flex
        gap={6}
        justify="flex-end"
        align="center"
        style={{ fontSize: 11, color: token.colorTextSecondary }}
      >
        {footer}
      </Flex>
    </li>
  );
}

export interface MessageItemProps {
  message: ChatMessage;
  mine: boolean;
  status: ChatMessageStatus;
  /** Show the sender's name (group chats, others' messages). */
  showSender: boolean;
  onReply: (message: ChatMessage) => void;
  onEdit: (message: ChatMessage) => void;
  onDelete: (message: ChatMessage) => void;
}

/** One stored message: reply preview, text, files, time, edited/deleted marks, ticks and actions. */
export function MessageItem({
  message,
  mine,
  status,
  showSender,
  onReply,
  onEdit,
  onDelete,
}: MessageItemProps) {
  const { t } = useTranslation('chat');
  const deleted = Boolean(message.deletedAt);
  const footer = (
    <>
      {!deleted ? (
        <>
          <Tooltip title={t('actions.reply')}>
            <Button
              type="text"
              size="small"
              aria-label={t('actions.reply')}
              icon={<RollbackOutlined />}
              onClick={() => onReply(message)}
            />
          </Tooltip>
          {mine ? (
            <>
              <Tooltip title={t('actions.edit')}>
                <Button
                  type="text"
                  size="small"
                  aria-label={t('actions.edit')}
                  icon={<EditOutlined />}
                  onClick={() => onEdit(message)}
                />
              </Tooltip>
              <Popconfirm
                title={t('actions.deleteConfirm')}
                okText={t('actions.delete')}
                cancelText={t('actions.cancel')}
                onConfirm={() => onDelete(message)}
              >
                <Button type="text" size="small" aria-label={t('actions.delete')} icon={<DeleteOutlined />} />
              </Popconfirm>
            </>
          ) : null}
        </>
      ) : null}
      {message.editedAt && !deleted ? <span data-testid="edited">{t('message.edited')}</span> : null}
      <time dateTime={message.createdAt}>{dayjs(message.createdAt).format('HH:mm')}</time>
      {mine ? <Ticks status={status} /> : null}
    </>
  );
  return (
    <Bubble
      mine={mine}
      sender={showSender ? message.senderName : undefined}
      footer={footer}
      testId="message"
      id={message.id}
    >
      {message.replyTo ? (
        <Typography.Text
          type="secondary"
          style={{
            display: 'block',
            fontSize: 12,
            borderInlineStart: '3px solid currentColor',
            paddingInlineStart: 6,
          }}
        >
          <bdi>{message.replyTo.senderName}</bdi>:{' '}
          <span dir="auto">{message.replyTo.deleted ? t('message.deleted') : message.replyTo.text}</span>
        </Typography.Text>
      ) : null}
      {deleted ? (
        <Typography.Text italic type="secondary" data-testid="deleted">
          {t('message.deleted')}
        </Typography.Text>
      ) : (
        <>
          {message.text ? <MessageText text={message.text} /> : null}
          <MessageFiles files={message.files} />
        </>
      )}
    </Bubble>
  );
}

/** One of my messages still in the outbox: pending, or failed with retry and discard. */
export function PendingItem({
  entry,
  onRetry,
  onDiscard,
}: {
  entry: OutboxEntry;
  onRetry: () => void;
  onDiscard: () => void;
}) {
  const { t } = useTranslation('chat');
  const failed = entry.state === 'failed';
  const footer = (
    <>
      {failed ? (
        <>
          <Typography.Text type="danger" style={{ fontSize: 11 }}>
            {entry.filesLost?.length
              ? t('status.filesLost', { names: entry.filesLost.join('، ') })
              : (entry.error ?? t('status.failed'))}
          </Typography.Text>
          <Button size="small" type="link" onClick={onRetry}>
            {t('actions.retry')}
          </Button>
          <Button size="small" type="link" danger onClick={onDiscard}>
            {t('actions.discard')}
          </Button>
        </>
      ) : null}
      <time dateTime={entry.createdAt}>{dayjs(entry.createdAt).format('HH:mm')}</time>
      <Ticks status={failed ? 'failed' : 'pending'} />
    </>
  );
  return (
    <Bubble mine footer={footer} testId="pending-message">
      {entry.body ? <MessageText text={entry.body} /> : null}
      {entry.files.length ? (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {entry.files.map((f) => f.name).join('، ')}
        </Typography.Text>
      ) : null}
    </Bubble>
  );
}
