import { MoonOutlined, SunOutlined } from '@ant-design/icons';
import { Button, Tooltip } from 'antd';
import { useAtom } from 'jotai';
import { useTranslation } from 'react-i18next';
import { themeConfigAtom } from '../theme/themeConfig';

// Apart from the header so that the sign-in pages, which show them too, do not download the
// admin header (its search, bell, menus and dialogs) with them (login page weight).

/** Language and theme switches; shared by the header and the sign-in pages. */
export function LanguageSwitch({ color }: { color?: string }) {
  const { t } = useTranslation('layout');
  const [config, setConfig] = useAtom(themeConfigAtom);
  return (
    // The visible name of the other language is the accessible name (WCAG 2.5.3 label in name),
    // spoken in that language; "Language" is the hover hint and description.
    <Button
      type="text"
      style={{ color }}
      lang={config.locale === 'ar' ? 'en' : 'ar'}
      title={t('language.label')}
      onClick={() => setConfig({ locale: config.locale === 'ar' ? 'en' : 'ar' })}
    >
      {t('language.switch')}
    </Button>
  );
}

export function ThemeSwitch({ color }: { color?: string }) {
  const { t } = useTranslation('layout');
  const [config, setConfig] = useAtom(themeConfigAtom);
  const dark = config.currentTheme === 'dark';
  return (
    <Tooltip title={dark ? t('theme.light') : t('theme.dark')}>
      <Button
        type="text"
        style={{ color }}
        aria-label={t('theme.switch')}
        aria-pressed={dark}
        icon={dark ? <SunOutlined /> : <MoonOutlined />}
        onClick={() => setConfig({ currentTheme: dark ? 'light' : 'dark' })}
      />
    </Tooltip>
  );
}
