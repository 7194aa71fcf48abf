import { PlusOutlined, TeamOutlined, UserOutlined } from '@ant-design/icons';
import { CHAT_ROUTES, pathOf, type ChatSummary } from '@mizan/contracts';
import { useDebouncedValue } from '@mizan/ui';
import { useQuery } from '@tanstack/react-query';
import { Avatar, Badge, Button, Flex, Input, Segmented, Spin, Typography, theme } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { chatApi, chatKeys } from '../api';
import { chatTitle } from './chatTitle';

export interface ChatListProps {
  me: number;
  openId: number | null;
  online: ReadonlySet<number>;
  onNew: () => void;
}

/** A chat's row: name, the last message, its unread count and, one-to-one, the other's presence. */
function ChatRow({
  chat,
  me,
  open,
  online,
}: {
  chat: ChatSummary;
  me: number;
  open: boolean;
  online: ReadonlySet<number>;
}) {
  const { t } = useTranslation('chat');
  const { token } = theme.useToken();
  const other = chat.kind === 'direct' ? chat.members.find((m) => m.id !== me) : undefined;
  const last = chat.lastMessage;
  const title = chatTitle(chat, me);
  return (
    <li style={{ listStyle: 'none' }}>
      <Link
        to={pathOf(CHAT_ROUTES.one.path, { id: chat.id })}
        aria-current={open ? 'page' : undefined}
        data-testid="chat-row"
        style={{
          display: 'flex',
          gap: 8,
          alignItems: 'center',
          padding: 8,
          borderRadius: 8,
          color: token.colorText,
          background: open ? token.colorPrimaryBg : undefined,
        }}
      >
        <Badge dot={other ? online.has(other.id) : false} color="green" offset={[-4, 28]}>
          <Avatar icon={chat.kind === 'group' ? <TeamOutlined /> : <UserOutlined />} />
        </Badge>
        <Flex vertical style={{ flex: 1, minInlineSize: 0 }}>
          <Typography.Text strong={chat.unread > 0} ellipsis>
            <bdi>{title}</bdi>
          </Typography.Text>
          <Typography.Text type="secondary" ellipsis style={{ fontSize: 12 }}>
            {last ? (
              <span dir="auto">
                {last.deletedAt ? t('message.deleted') : last.text || t('message.files')}
              </span>
            ) : (
              t('messages.empty')
            )}
          </Typography.Text>
        </Flex>
        {chat.unread > 0 ? (
          <Badge count={chat.unread} overflowCount={99} aria-label={t('unread', { unread: chat.unread })} />
        ) : null}
      </Link>
    </li>
  );
}

/** The employee's chats, newest activity first; the archive on a second tab; a search by name. */
export function ChatList({ me, openId, online, onNew }: ChatListProps) {
  const { t } = useTranslation('chat');
  const [archived, setArchived] = useState(false);
  const [q, setQ] = useState('');
  const search = useDebouncedValue(q.trim(), 300);
  const chats = useQuery({
    queryKey: chatKeys.list(archived, search),
    queryFn: () => chatApi.list(archived, search),
  });
  return (
    <Flex vertical gap={8} style={{ minInlineSize: 0 }}>
      <Flex gap={8} align="center">
        <Typography.Title level={1} style={{ fontSize: 20, margin: 0, flex: 1 }}>
          {t('title')}
        </Typography.Title>
        <Button type="primary" icon={<PlusOutlined />} onClick={onNew}>
          {t('new.open')}
        </Button>
      </Flex>
      <Segmented
        block
        value={archived ? 'archived' : 'active'}
        onChange={(v) => setArchived(v === 'archived')}
        options={[
          { value: 'active', label: t('list.active') },
          { value: 'archived', label: t('list.archived') },
        ]}
      />
      <Input.Search
        allowClear
        aria-label={t('list.search')}
        placeholder={t('list.search')}
        value={q}
        onChange={(e) => setQ(e.target.value)}
      />
      {chats.isPending ? <Spin /> : null}
      <ul aria-label={t('list.label')} style={{ margin: 0, padding: 0, overflowY: 'auto' }}>
        {(chats.data?.items ?? []).map((chat) => (
          <ChatRow key={chat.id} chat={chat} me={me} open={chat.id === openId} online={online} />
        ))}
      </ul>
      {chats.data && !chats.data.items.length ? (
        <Typography.Text type="secondary">{archived ? t('list.noArchived') : t('list.none')}</Typography.Text>
      ) : null}
    </Flex>
  );
}
