import { Card, Flex, Typography } from 'antd';
import type { ReactNode } from 'react';
import { LanguageSwitch, ThemeSwitch } from '../layout/Switches';
import { useSystemSettings } from '../system/systemSettings';

/** Frame of the signed-out pages: the office's logo and name above a card. */
export function AuthLayout({ title, children }: { title: string; children: ReactNode }) {
  const settings = useSystemSettings();
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
        <Typography.Title level={2} style={{ margin: 0 }} data-testid="office-name">
          {settings.officeName}
        </Typography.Title>
      </Flex>
      <Card style={{ width: '100%', maxWidth: 420 }}>
        <Typography.Title level={4} style={{ marginTop: 0 }}>
          {title}
        </Typography.Title>
        {children}
      </Card>
    </Flex>
  );
}
