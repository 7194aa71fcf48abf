// This remote's texts, from the sources it was built with: registered on the page's i18next when
// the host loads `./routes`, so a release of this remote alone brings its new or changed strings.
import { registerRemoteTexts } from '@mizan/build/remote';
import arEntities from '@mizan/i18n/locales/ar/entities.json';
import arMenu from '@mizan/i18n/locales/ar/menu.json';
import arOwn from '@mizan/i18n/locales/ar/settings.json';
import enEntities from '@mizan/i18n/locales/en/entities.json';
import enMenu from '@mizan/i18n/locales/en/menu.json';
import enOwn from '@mizan/i18n/locales/en/settings.json';

registerRemoteTexts('settings', {
  ar: { settings: arOwn, entities: arEntities, menu: arMenu },
  en: { settings: enOwn, entities: enEntities, menu: enMenu },
});
