// The client's namespaces in en, one chunk loaded when the page first shows en (never the
// server-* namespaces: the server's messages reach the page already translated).
import common from '../locales/en/common.json';
import validation from '../locales/en/validation.json';
import errors from '../locales/en/errors.json';
import entities from '../locales/en/entities.json';
import ui from '../locales/en/ui.json';
import auth from '../locales/en/auth.json';
import layout from '../locales/en/layout.json';
import menu from '../locales/en/menu.json';
import dashboard from '../locales/en/dashboard.json';
import settings from '../locales/en/settings.json';
import clients from '../locales/en/clients.json';
import legal from '../locales/en/legal.json';
import notifications from '../locales/en/notifications.json';
import tasks from '../locales/en/tasks.json';
import chat from '../locales/en/chat.json';

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
