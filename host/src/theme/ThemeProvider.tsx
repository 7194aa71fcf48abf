import { TOAST } from '@mizan/contracts/light';
import { antdValidateMessages, currentLanguage, setLanguage } from '@mizan/i18n';
import { configureNotifier } from '@mizan/sdk';
import { ConfigProvider, theme } from 'antd';
import arEG from 'antd/locale/ar_EG';
import enUS from 'antd/locale/en_US';
import dayjs from 'dayjs';
import 'dayjs/locale/ar';
import { useAtomValue, useStore } from 'jotai';
import { lazy, Suspense, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useDocumentBranding, useSystemSettings } from '../system/systemSettings';
import { useThemeStylesheet } from './stylesheet';
import { applyOfficeDefaults, themeConfigAtom } from './themeConfig';
import type { EarlyToast } from './Toasts';
import { themeTokens } from './tokens';

const Toasts = lazy(() => import('./Toasts'));

/**
 * Until the first toast, a stand-in notifier keeps the toasts (the last few) and asks for ./Toasts,
 * which brings antd's message code and shows them (the login page downloads no toast
 * code until it has something to say).
 */
function ToastsOnDemand({ rtl }: { rtl: boolean }) {
  const early = useRef<EarlyToast[]>([]);
  const [wanted, setWanted] = useState(false);
  useEffect(() => {
    const keep = (level: EarlyToast['level']) => (content: string) => {
      early.current = [...early.current, { level, content }].slice(-TOAST.maxCount);
      setWanted(true);
    };
    configureNotifier({
      success: keep('success'),
      error: keep('error'),
      warning: keep('warning'),
      info: keep('info'),
      clear: () => {
        early.current = [];
      },
    });
    return () => configureNotifier(null);
  }, []);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <Toasts rtl={rtl} early={early} />
    </Suspense>
  );
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

const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';

/** Whether the system asks for less motion (followed live, as the theme is). */
function useReducedMotion(): boolean {
  const [reduced, setReduced] = useState(() => window.matchMedia?.(REDUCED_MOTION).matches ?? false);
  useEffect(() => {
    const query = window.matchMedia?.(REDUCED_MOTION);
    if (!query) return undefined;
    const follow = () => setReduced(query.matches);
    query.addEventListener('change', follow);
    return () => query.removeEventListener('change', follow);
  }, []);
  return reduced;
}

/**
 * antd configuration of the front end (docs/architecture.md): direction and locale from the theme
 * config, light or dark algorithm with WCAG AA text contrast (./tokens), the office's primary
 * colour, no click wave, no animations when the system asks for less motion, no virtual lists;
 * toasts 3 s, at most 3, 24 px from the top; notifications top right. The language switch applies
 * here, live.
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

  const reducedMotion = useReducedMotion();
  // Recomputed only when the mode or the office's colour changes (it derives antd's tokens). A
  // person who asked the system for less motion gets antd's components without their animations.
  const themeConfig = useMemo(() => {
    const tokens = themeTokens(config.currentTheme, settings.primaryColor);
    return reducedMotion ? { ...tokens, token: { ...tokens.token, motion: false } } : tokens;
  }, [config.currentTheme, settings.primaryColor, reducedMotion]);

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
        <ToastsOnDemand rtl={rtl} />
        {children}
      </AppText>
    </ConfigProvider>
  );
}
