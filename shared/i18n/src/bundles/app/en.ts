// The client's other namespaces in en (../signIn/en has the signed-out pages' own): one chunk,
// loaded once a session needs them, never with the login page. Never the server-* namespaces:
// the server's messages reach the page already translated.
import entities from '../../locales/en/entities.json';
import ui from '../../locales/en/ui.json';
import menu from '../../locales/en/menu.json';
import dashboard from '../../locales/en/dashboard.json';
import settings from '../../locales/en/settings.json';
import clients from '../../locales/en/clients.json';
import legal from '../../locales/en/legal.json';
import notifications from '../../locales/en/notifications.json';
import tasks from '../../locales/en/tasks.json';
import chat from '../../locales/en/chat.json';

export default { entities, ui, menu, dashboard, settings, clients, legal, notifications, tasks, chat };
