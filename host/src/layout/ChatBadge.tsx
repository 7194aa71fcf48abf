import { MessageOutlined } from '@ant-design/icons';
import { AREA_PERMISSIONS, CHAT_ROUTES, chatInboxChannel, type ChatInboxData } from '@mizan/contracts';
import { api, useAuth, wsClient } from '@mizan/sdk';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Badge, Tooltip } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router-dom';
import { badgeCount } from './badgeCount';

/** The chat screen, whose URL is the chats' route's. */
const CHATS_PATH = CHAT_ROUTES.list.path;
const UNREAD_KEY = ['chats', 'unreadTotal'] as const;

/** The chat a path shows (`/admin/chats/12` → 12), if any. */
const openChatOf = (pathname: string) => {
  const match = /^\/admin\/chats\/(\d+)$/.exec(pathname);
  return match ? Number(match[1]) : null;
};

/**
 * Tells the server a message reached this employee, so its writer sees "delivered" while the
 * employee is anywhere in the app. Background work: a failure shows no toast (the next mark, or
 * opening the chat, catches up).
 */
const markDelivered = (chatId: number, messageId: number) =>
  void api
    .call(CHAT_ROUTES.delivered, { body: { chatId, messageId } }, { silent: true })
    .catch(() => undefined);

/**
 * The header's chat icon with the unread messages over all the employee's chats, linking to the
 * chat screen. The count comes from the API and follows the employee's chat channel: a message of
 * someone else in a chat not on screen raises it and is marked delivered (the open chat marks its
 * own), read marks from any tab set it. It reads no code of the chat remote, so it keeps working
 * (and the link keeps showing) when that remote is down.
 */
export function ChatBadge({ color }: { color?: string }) {
  const { t, i18n } = useTranslation('layout');
  const { user, can } = useAuth();
  const allowed = Boolean(user) && can(AREA_PERMISSIONS.chatUse);
  const me = user?.id;
  const queries = useQueryClient();
  const { pathname } = useLocation();
  const openChat = useRef<number | null>(null);
  openChat.current = openChatOf(pathname);

  const unread =
    useQuery({
      queryKey: UNREAD_KEY,
      // Asked in the background: a failure shows no toast (the badge stays as it was).
      queryFn: () => api.call(CHAT_ROUTES.unread, {}, { silent: true }).then((a) => a.total),
      enabled: allowed,
    }).data ?? 0;

  useEffect(() => {
    if (!allowed || me === undefined) return undefined;
    const refresh = () => void queries.invalidateQueries({ queryKey: UNREAD_KEY });
    /** Someone else's message: delivered unless its chat is open; unread unless seen there. */
    const received = (chatId: number, messageId: number) => {
      const onScreen = chatId === openChat.current;
      if (!onScreen) markDelivered(chatId, messageId);
      if (!onScreen || document.visibilityState !== 'visible')
        queries.setQueryData<number>(UNREAD_KEY, (n) => (n ?? 0) + 1);
    };
    const stop = wsClient.subscribe(chatInboxChannel(me), (message) => {
      if (message.type !== 'message') return;
      const data = message.data as ChatInboxData;
      if (data.kind === 'newMessage') {
        if (data.senderId !== me) received(data.chatId, data.messageId);
      } else if (data.kind === 'read') queries.setQueryData(UNREAD_KEY, data.unreadTotal);
      else refresh();
    });
    // After a reconnection: what arrived meanwhile.
    const stopOpen = wsClient.events.on('open', refresh);
    return () => {
      stop();
      stopOpen();
    };
  }, [allowed, me, queries]);

  if (!allowed) return null;
  return (
    <Tooltip title={t('chat.title')}>
      <Link
        to={CHATS_PATH}
        aria-label={t('chat.badge', { count: unread })}
        data-testid="chat-badge"
        data-unread={unread}
        style={{ color, display: 'inline-flex', alignItems: 'center', paddingInline: 8, blockSize: 32 }}
      >
        {/* The label says the count: the drawn badge is for the eye only. */}
        <span aria-hidden style={{ display: 'inline-flex' }}>
          <Badge count={badgeCount(unread, i18n.language)} size="small" offset={[2, -2]}>
            <MessageOutlined style={{ color, fontSize: 16 }} />
          </Badge>
        </span>
      </Link>
    </Tooltip>
  );
}
