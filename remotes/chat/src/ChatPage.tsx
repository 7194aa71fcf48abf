import {
  CHAT_PRESENCE_CHANNEL,
  CHAT_ROUTES,
  pathOf,
  chatInboxChannel,
  type ChatInboxData,
  type ChatPresenceMessage,
} from '@mizan/contracts';
import { connectionStatusAtom, sdkStore, useAuth, wsClient } from '@mizan/sdk';
import { useAtomValue } from 'jotai';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Card, Empty, Flex, Result, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { chatApi, chatKeys } from './api';
import { ChatList } from './list/ChatList';
import { NewChatModal } from './list/NewChatModal';
import { OutboxProvider } from './outboxContext';
import { ChatRoom } from './room/ChatRoom';
import { ChatSettings } from './room/ChatSettings';

/** The chat screen, whose URL is the chats' route's. */
const CHATS_PATH = CHAT_ROUTES.list.path;

const NOBODY: ReadonlySet<number> = new Set();

/**
 * Who is online: the server's list, then its presence channel. While this page's own connection
 * is down nobody is shown online (what the server knows cannot reach it).
 */
function usePresence(): ReadonlySet<number> {
  const [online, setOnline] = useState<ReadonlySet<number>>(new Set());
  const connected = useAtomValue(connectionStatusAtom, { store: sdkStore }) === 'open';
  useEffect(() => {
    let live = true;
    const load = () =>
      void chatApi
        .presence()
        .then((answer) => live && setOnline(new Set(answer.online)))
        .catch(() => undefined);
    load();
    const stop = wsClient.subscribe(CHAT_PRESENCE_CHANNEL, (message) => {
      if (message.type === 'subscribed') load();
      if (message.type !== 'message') return;
      const data = (message as ChatPresenceMessage).data;
      if (data?.kind !== 'presence') return;
      setOnline((now) => {
        const next = new Set(now);
        if (data.online) next.add(data.employeeId);
        else next.delete(data.employeeId);
        return next;
      });
    });
    return () => {
      live = false;
      stop();
    };
  }, []);
  return connected ? online : NOBODY;
}

/**
 * The employee's own chat channel while the chat screen is open: lists follow new messages and
 * changes, a chat taken away closes. (The header's chat badge marks messages delivered wherever
 * the employee is in the app.)
 */
function useInbox(me: number, openId: number | null) {
  const queries = useQueryClient();
  const navigate = useNavigate();
  useEffect(() => {
    return wsClient.subscribe(chatInboxChannel(me), (message) => {
      if (message.type !== 'message') return;
      const data = message.data as ChatInboxData;
      void queries.invalidateQueries({ queryKey: chatKeys.lists });
      if (data.kind === 'chat') void queries.invalidateQueries({ queryKey: chatKeys.one(data.chat.id) });
      if (data.kind === 'removed' && data.chatId === openId) navigate(CHATS_PATH);
    });
  }, [me, openId, queries, navigate]);
}

/** `/admin/chats` and `/admin/chats/:id`: the chat list beside the open chat. */
export function ChatPage() {
  const { t } = useTranslation('chat');
  const me = useAuth().user?.id ?? 0;
  const params = useParams();
  const openId = params.id && /^\d+$/.test(params.id) ? Number(params.id) : null;
  const navigate = useNavigate();
  const [creating, setCreating] = useState(false);
  const [settings, setSettings] = useState(false);
  const online = usePresence();
  useInbox(me, openId);
  const chat = useQuery({
    queryKey: chatKeys.one(openId ?? 0),
    queryFn: () => chatApi.one(openId!),
    enabled: openId !== null,
  });

  let room = <Empty description={t('pick')} />;
  if (openId !== null && chat.isPending) room = <Spin />;
  else if (openId !== null && chat.isError) room = <Result status="404" title={t('notFound')} />;
  else if (chat.data)
    room = (
      <>
        <ChatRoom
          key={chat.data.id}
          chat={chat.data}
          me={me}
          online={online}
          onOpenSettings={() => setSettings(true)}
        />
        <ChatSettings
          chat={chat.data}
          me={me}
          open={settings}
          onClose={() => setSettings(false)}
          onGone={() => {
            setSettings(false);
            navigate(CHATS_PATH);
          }}
        />
      </>
    );

  return (
    <OutboxProvider me={me}>
      <Flex gap={16} wrap style={{ blockSize: 'calc(100vh - 140px)', minBlockSize: 420 }}>
        <Card
          style={{ flex: '1 1 260px', maxInlineSize: 360, overflow: 'auto' }}
          styles={{ body: { padding: 12 } }}
        >
          <ChatList me={me} openId={openId} online={online} onNew={() => setCreating(true)} />
        </Card>
        <Card
          style={{ flex: '3 1 360px', minInlineSize: 0 }}
          styles={{ body: { padding: 12, blockSize: '100%' } }}
        >
          {room}
        </Card>
      </Flex>
      <NewChatModal
        open={creating}
        onClose={() => setCreating(false)}
        onOpened={(id) => {
          setCreating(false);
          navigate(pathOf(CHAT_ROUTES.one.path, { id }));
        }}
      />
    </OutboxProvider>
  );
}
