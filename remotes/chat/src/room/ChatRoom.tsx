import { SettingOutlined } from '@ant-design/icons';
import type { ChatDetail, ChatMessage } from '@mizan/contracts';
import { Button, Flex, Input, List, Spin, Typography, theme } from 'antd';
import { useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { chatApi } from '../api';
import { statusOf } from '../messages/status';
import { chatTitle } from '../list/chatTitle';
import { Composer } from './Composer';
import { MessageItem, PendingItem } from './MessageItem';
import { MessageText } from './MessageText';
import { useRoom, type Typist } from './useRoom';

/** Pixels from the top of the list at which the next older page is asked for. */
const LOAD_OLDER_AT = 80;

function TypingLine({ typists }: { typists: Typist[] }) {
  const { t } = useTranslation('chat');
  return (
    <Typography.Text type="secondary" aria-live="polite" style={{ minBlockSize: 20, fontSize: 12 }}>
      {typists.length
        ? t('typing', {
            names: typists.map((x) => x.name).join('، '),
            count: typists.length,
            // The verb is feminine when every typist is a woman (تكتب، تكتبان، يكتبن).
            context: typists.every((x) => x.gender === 'female') ? 'female' : undefined,
          })
        : ''}
    </Typography.Text>
  );
}

/** Search in this chat's messages: the matches, newest last. */
function ChatSearch({ chatId }: { chatId: number }) {
  const { t } = useTranslation('chat');
  const [found, setFound] = useState<ChatMessage[] | null>(null);
  return (
    <Flex vertical gap={4}>
      <Input.Search
        allowClear
        aria-label={t('search.label')}
        placeholder={t('search.placeholder')}
        onSearch={async (q) => setFound(q.trim() ? (await chatApi.messages(chatId, { q })).items : null)}
      />
      {found ? (
        <List
          size="small"
          aria-label={t('search.results')}
          data-testid="search-results"
          locale={{ emptyText: t('search.none') }}
          dataSource={found}
          style={{ maxBlockSize: 200, overflowY: 'auto' }}
          renderItem={(m) => (
            <List.Item>
              <Flex vertical>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  <bdi>{m.senderName}</bdi> ·{' '}
                  <time dateTime={m.createdAt}>{new Date(m.createdAt).toLocaleString()}</time>
                </Typography.Text>
                <MessageText text={m.text} />
              </Flex>
            </List.Item>
          )}
        />
      ) : null}
    </Flex>
  );
}

export interface ChatRoomProps {
  chat: ChatDetail;
  me: number;
  online: ReadonlySet<number>;
  onOpenSettings: () => void;
}

/** An open chat: header with presence, the messages (older ones as the list scrolls up), the composer. */
export function ChatRoom({ chat, me, online, onOpenSettings }: ChatRoomProps) {
  const { t } = useTranslation('chat');
  const { token } = theme.useToken();
  const room = useRoom(chat, me);
  const [replyTo, setReplyTo] = useState<ChatMessage | null>(null);
  const [editing, setEditing] = useState<ChatMessage | null>(null);
  const scroller = useRef<HTMLDivElement>(null);
  const anchor = useRef<{ height: number; top: number; atBottom: boolean } | null>(null);

  // Keeps the reader's place: at the bottom new messages scroll in; a page added above does not move the view.
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const before = anchor.current;
    if (!before || before.atBottom) el.scrollTop = el.scrollHeight;
    else el.scrollTop = before.top + (el.scrollHeight - before.height);
  }, [room.messages, room.pending.length]);
  const remember = () => {
    const el = scroller.current;
    if (!el) return;
    anchor.current = {
      height: el.scrollHeight,
      top: el.scrollTop,
      atBottom: el.scrollHeight - el.scrollTop - el.clientHeight < 40,
    };
    if (el.scrollTop < LOAD_OLDER_AT && room.hasOlder && !room.loadingOlder) void room.loadOlder();
  };

  const other = chat.kind === 'direct' ? chat.members.find((m) => m.id !== me) : undefined;
  const members = chat.members.filter((m) => online.has(m.id) && m.id !== me).length;

  return (
    <Flex
      vertical
      style={{ blockSize: '100%', minInlineSize: 0 }}
      aria-label={chatTitle(chat, me)}
      role="region"
    >
      <Flex
        align="center"
        gap={8}
        style={{ borderBlockEnd: `1px solid ${token.colorBorderSecondary}`, paddingBlock: 8 }}
      >
        <Flex vertical style={{ flex: 1, minInlineSize: 0 }}>
          <Typography.Title level={2} style={{ fontSize: 18, margin: 0 }} ellipsis>
            <bdi>{chatTitle(chat, me)}</bdi>
          </Typography.Title>
          <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="presence">
            {other
              ? online.has(other.id)
                ? t('presence.online')
                : t('presence.offline')
              : t('presence.members', { count: chat.members.length, online: members })}
          </Typography.Text>
        </Flex>
        <Button aria-label={t('settings.open')} icon={<SettingOutlined />} onClick={onOpenSettings} />
      </Flex>
      <ChatSearch chatId={chat.id} />
      <div
        ref={scroller}
        onScroll={remember}
        style={{ flex: 1, overflowY: 'auto', paddingBlock: 8 }}
        tabIndex={0}
        aria-label={t('messages.label')}
      >
        {!room.loaded || room.loadingOlder ? (
          <Flex justify="center">
            <Spin size="small" />
          </Flex>
        ) : null}
        <ol
          aria-label={t('messages.label')}
          style={{ display: 'flex', flexDirection: 'column', gap: 6, margin: 0, padding: 0 }}
        >
          {room.messages.map((m) => (
            <MessageItem
              key={m.id}
              message={m}
              mine={m.senderId === me}
              status={statusOf(m.id, room.members, me)}
              showSender={chat.kind === 'group' && m.senderId !== me}
              onReply={(message) => {
                setEditing(null);
                setReplyTo(message);
              }}
              onEdit={(message) => {
                setReplyTo(null);
                setEditing(message);
              }}
              onDelete={async (message) => room.merge([await chatApi.deleteMessage(message.id)])}
            />
          ))}
          {room.pending.map((entry) => (
            <PendingItem
              key={entry.clientId}
              entry={entry}
              onRetry={() => room.retry(entry)}
              onDiscard={() => room.discard(entry)}
            />
          ))}
        </ol>
        {room.loaded && !room.messages.length && !room.pending.length ? (
          <Typography.Paragraph type="secondary" style={{ textAlign: 'center' }}>
            {t('messages.empty')}
          </Typography.Paragraph>
        ) : null}
      </div>
      <TypingLine typists={room.typists} />
      <Composer
        replyTo={replyTo}
        editing={editing}
        onCancel={() => {
          setReplyTo(null);
          setEditing(null);
        }}
        onSend={(text, files) => {
          anchor.current = null;
          room.send(text, replyTo?.id ?? null, files);
          setReplyTo(null);
        }}
        onSaveEdit={async (message, text) => {
          setEditing(null);
          room.merge([await chatApi.edit(message.id, text)]);
        }}
        onTyping={room.typing}
      />
    </Flex>
  );
}
