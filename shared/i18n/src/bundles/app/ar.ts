// The client's other namespaces in ar (../signIn/ar has the signed-out pages' own): one chunk,
// loaded once a session needs them, never with the login page. Never the server-* namespaces:
// the server's messages reach the page already translated.
import entities from '../../locales/ar/entities.json';
import ui from '../../locales/ar/ui.json';
import menu from '../../locales/ar/menu.json';
import dashboard from '../../locales/ar/dashboard.json';
import settings from '../../locales/ar/settings.json';
import clients from '../../locales/ar/clients.json';
import legal from '../../locales/ar/legal.json';
import notifications from '../../locales/ar/notifications.json';
import tasks from '../../locales/ar/tasks.json';
import chat from '../../locales/ar/chat.json';

export default { entities, ui, menu, dashboard, settings, clients, legal, notifications, tasks, chat };
