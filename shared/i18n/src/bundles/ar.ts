// The client's namespaces in ar, one chunk loaded when the page first shows ar (never the
// server-* namespaces: the server's messages reach the page already translated).
import common from '../locales/ar/common.json';
import validation from '../locales/ar/validation.json';
import errors from '../locales/ar/errors.json';
import entities from '../locales/ar/entities.json';
import ui from '../locales/ar/ui.json';
import auth from '../locales/ar/auth.json';
import layout from '../locales/ar/layout.json';
import menu from '../locales/ar/menu.json';
import dashboard from '../locales/ar/dashboard.json';
import settings from '../locales/ar/settings.json';
import clients from '../locales/ar/clients.json';
import legal from '../locales/ar/legal.json';
import notifications from '../locales/ar/notifications.json';
import tasks from '../locales/ar/tasks.json';
import chat from '../locales/ar/chat.json';

export default {
  common,
  validation,
  errors,
  entities,
  ui,
  auth,
  layout,
  menu,
  dashboard,
  settings,
  clients,
  legal,
  notifications,
  tasks,
  chat,
};
