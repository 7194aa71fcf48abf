import { TOAST } from '@mizan/contracts/light';
import { antdValidateMessages, currentLanguage, setLanguage } from '@mizan/i18n';
import { configureNotifier } from '@mizan/sdk';
import { ConfigProvider, message, theme } from 'antd';
import arEG from 'antd/locale/ar_EG';
import enUS from 'antd/locale/en_US';
import dayjs from 'dayjs';
import 'dayjs/locale/ar';
import { useAtomValue, useStore } from 'jotai';
import { useEffect, useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useDocumentBranding, useSystemSettings } from '../system/systemSettings';
import { useThemeStylesheet } from './stylesheet';
import { applyOfficeDefaults, themeConfigAtom } from './themeConfig';
import { themeTokens } from './tokens';

/**
 * Sends the SDK's toasts (API errors, session messages) to antd's message API, rendered in the
 * page's theme and direction. A message hook rather than antd's `App`, whose `useApp` also brings
 * the modal and notification code (~15 KB gzip) to the login page (issue 14); nothing uses those.
 */
function NotifierBridge({ rtl }: { rtl: boolean }) {
  const [messageApi, contextHolder] = message.useMessage({
    duration: TOAST.durationSeconds,
    maxCount: TOAST.maxCount,
    rtl,
    top: TOAST.top,
  });
  useEffect(() => {
    configureNotifier({
      success: (content) => void messageApi.success(content),
      error: (content) => void messageApi.error(content),
      warning: (content) => void messageApi.warning(content),
      info: (content) => void messageApi.info(content),
    });
    return () => configureNotifier(null);
  }, [messageApi]);
  return contextHolder;
}

/** The text style antd's `App` gives its container (colour, size, line height, font family). */
function AppText({ rtl, children }: { rtl: boolean; children: ReactNode }) {
  const { token } = theme.useToken();
  return (
    <div
      className="ant-app"
      dir={rtl ? 'rtl' : undefined}
      style={{
        color: token.colorText,
        fontSize: token.fontSize,
        lineHeight: token.lineHeight,
        fontFamily: token.fontFamily,
      }}
    >
      {children}
    </div>
  );
}

/**
 * antd configuration of DESIGN §6: direction and locale from the theme config, light or dark
 * algorithm with WCAG AA text contrast (./tokens), the office's primary colour, no click wave, no
 * virtual lists; toasts 3 s, at most 3, 24 px from the top; notifications top right. The language switch applies here, live.
 */
export function ThemeProvider({ children }: { children: ReactNode }) {
  const config = useAtomValue(themeConfigAtom);
  const settings = useSystemSettings();
  const { t } = useTranslation();
  const store = useStore();
  useDocumentBranding(settings);
  // Without a saved preference, the office's default language and theme apply.
  const { defaultLanguage, defaultTheme } = settings;
  useEffect(
    () => applyOfficeDefaults(store, { defaultLanguage, defaultTheme }),
    [store, defaultLanguage, defaultTheme],
  );
  useThemeStylesheet(config.currentTheme);

  useEffect(() => {
    dayjs.locale(config.locale);
    if (currentLanguage() !== config.locale || document.documentElement.dir !== config.direction) {
      void setLanguage(config.locale);
    }
  }, [config.locale, config.direction]);

  const rtl = config.direction === 'rtl';
  useEffect(() => {
    // Static `message.*` calls (outside the App context) follow the same rules.
    message.config({ duration: TOAST.durationSeconds, maxCount: TOAST.maxCount, rtl, top: TOAST.top });
  }, [rtl]);

  // Recomputed only when the mode or the office's colour changes (it derives antd's tokens).
  const themeConfig = useMemo(
    () => themeTokens(config.currentTheme, settings.primaryColor),
    [config.currentTheme, settings.primaryColor],
  );

  // `t` changes with the language, so antd's form messages follow the switch.
  const validateMessages = useMemo(() => antdValidateMessages(t), [t]);

  return (
    <ConfigProvider
      direction={config.direction}
      locale={config.locale === 'ar' ? arEG : enUS}
      theme={themeConfig}
      wave={{ disabled: true }}
      virtual={false}
      form={{ validateMessages }}
    >
      <AppText rtl={rtl}>
        <NotifierBridge rtl={rtl} />
        {children}
      </AppText>
    </ConfigProvider>
  );
}
