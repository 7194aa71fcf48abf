import type { RemoteRoute } from '@mizan/build/routes';
import { AREA_PERMISSIONS } from '@mizan/contracts';
import { ChatPage } from './ChatPage';

/** The chat screen: the list alone, or the list beside one open chat. */
export const routes: RemoteRoute[] = [
  { path: '/admin/chats', element: <ChatPage />, permission: AREA_PERMISSIONS.chatUse },
  { path: '/admin/chats/:id', element: <ChatPage />, permission: AREA_PERMISSIONS.chatUse },
];

export default routes;
