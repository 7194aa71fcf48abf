import { Flex, theme } from 'antd';
import type { ReactNode } from 'react';
import { LanguageSwitch, ThemeSwitch } from '../layout/Switches';
import { useSystemSettings } from '../system/systemSettings';

// Plain headings and a card drawn with antd's tokens rather than Typography and Card: the login
// page would download Typography (with its tooltip and copy code) and Card (with Tabs, rc-menu and
// Skeleton), about 40 KB gzip, for two headings and a border (login page weight).

/** Frame of the signed-out pages: the office's logo and name above a card. */
export function AuthLayout({ title, children }: { title: string; children: ReactNode }) {
  const settings = useSystemSettings();
  const { token } = theme.useToken();
  const heading = (fontSize: number | string, lineHeight: number | string) => ({
    margin: 0,
    color: token.colorTextHeading,
    fontWeight: token.fontWeightStrong,
    fontSize,
    lineHeight,
  });
  return (
    <Flex vertical align="center" justify="center" style={{ minHeight: '100vh', padding: 16 }}>
      <Flex gap={4} style={{ position: 'absolute', top: 12, insetInlineEnd: 12 }}>
        <LanguageSwitch />
        <ThemeSwitch />
      </Flex>
      <Flex vertical align="center" gap={8} style={{ marginBottom: 24 }}>
        <img
          src={settings.logoUrl ?? '/favicon.svg'}
          alt=""
          width={64}
          height={64}
          style={{ borderRadius: 12 }}
        />
        <h2 style={heading(token.fontSizeHeading2, token.lineHeightHeading2)} data-testid="office-name">
          {settings.officeName}
        </h2>
      </Flex>
      <div
        style={{
          width: '100%',
          maxWidth: 420,
          padding: token.paddingLG,
          background: token.colorBgContainer,
          border: `${token.lineWidth}px ${token.lineType} ${token.colorBorderSecondary}`,
          borderRadius: token.borderRadiusLG,
          color: token.colorText,
        }}
      >
        <h4 style={{ ...heading(token.fontSizeHeading4, token.lineHeightHeading4), marginBottom: 16 }}>
          {title}
        </h4>
        {children}
      </div>
    </Flex>
  );
}
