import type { RemoteRoute } from '@mizan/build/routes';
import { AREA_PERMISSIONS, CHAT_ROUTES } from '@mizan/contracts';
import { ChatPage } from './ChatPage';

/** The chat screen: the list alone, or the list beside one open chat (URLs of the chats' routes). */
export const routes: RemoteRoute[] = [
  { path: CHAT_ROUTES.list.path, element: <ChatPage />, permission: AREA_PERMISSIONS.chatUse },
  { path: CHAT_ROUTES.one.path, element: <ChatPage />, permission: AREA_PERMISSIONS.chatUse },
];

export default routes;
