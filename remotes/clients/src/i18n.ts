// This remote's texts, from the sources it was built with: registered on the page's i18next when
// the host loads `./routes`, so a release of this remote alone brings its new or changed strings.
import { registerRemoteTexts } from '@mizan/build/remote';
import arEntities from '@mizan/i18n/locales/ar/entities.json';
import arMenu from '@mizan/i18n/locales/ar/menu.json';
import arOwn from '@mizan/i18n/locales/ar/clients.json';
import enEntities from '@mizan/i18n/locales/en/entities.json';
import enMenu from '@mizan/i18n/locales/en/menu.json';
import enOwn from '@mizan/i18n/locales/en/clients.json';
import arServer from '@mizan/i18n/locales/ar/server-clients.json';
import enServer from '@mizan/i18n/locales/en/server-clients.json';

// `server-clients` too: the customer form checks ids with the server's own messages, and the host
// ships no server namespaces.
registerRemoteTexts('clients', {
  ar: { clients: arOwn, 'server-clients': arServer, entities: arEntities, menu: arMenu },
  en: { clients: enOwn, 'server-clients': enServer, entities: enEntities, menu: enMenu },
});
