import {
  InfoCircleOutlined,
  LogoutOutlined,
  MenuFoldOutlined,
  MenuOutlined,
  MenuUnfoldOutlined,
  UserOutlined,
  LayoutOutlined,
} from '@ant-design/icons';
import { DEFAULT_THEME_CONFIG, LAYOUT, ROUTES } from '@mizan/contracts';
import { userAtom } from '@mizan/sdk';
import { Avatar, Button, Dropdown, Flex, Tooltip, Typography, theme as antdTheme } from 'antd';
import { useAtom, useAtomValue } from 'jotai';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { signOut } from '../auth/session';
import { HeaderTimer } from '../finance/HeaderTimer';
import { NotificationBell } from '../notifications/NotificationBell';
import { useSystemSettings } from '../system/systemSettings';
import { navBackground } from '../theme/contrast';
import { themeConfigAtom } from '../theme/themeConfig';
import { AboutDialog } from './AboutDialog';
import { ChatBadge } from './ChatBadge';
import { ConnectionDot } from './ConnectionDot';
import { GlobalSearch } from './GlobalSearch';
import { LanguageSwitch, ThemeSwitch } from './Switches';

/**
 * Background of the header or the top navigation bar: the user's own colour when they chose one,
 * otherwise the office's primary colour (so a new office colour reaches the bars, not only buttons).
 */
export function useBarBackground(bar: 'header' | 'top'): string {
  const config = useAtomValue(themeConfigAtom);
  const { primaryColor } = useSystemSettings();
  const chosen = bar === 'header' ? config.headerNavColor : config.topNavColor;
  const fallback = bar === 'header' ? DEFAULT_THEME_CONFIG.headerNavColor : DEFAULT_THEME_CONFIG.topNavColor;
  return chosen === fallback ? navBackground(primaryColor) : chosen;
}

/** An icon that points along the reading direction: mirrored in right-to-left pages. */
export function Directional({ children }: { children: ReactNode }) {
  const { direction } = useAtomValue(themeConfigAtom);
  return (
    <span
      data-mirrored={direction === 'rtl' ? 'true' : undefined}
      style={{ display: 'inline-flex', transform: direction === 'rtl' ? 'scaleX(-1)' : undefined }}
    >
      {children}
    </span>
  );
}

/** Office logo and name, linking to the dashboard. */
export function OfficeBrand({ compact = false, color }: { compact?: boolean; color?: string }) {
  const settings = useSystemSettings();
  return (
    <Link
      to={ROUTES.dashboard}
      style={{ display: 'inline-flex', alignItems: 'center', gap: 10, color, minWidth: 0 }}
    >
      <img
        src={settings.logoUrl ?? '/favicon.svg'}
        alt=""
        width={32}
        height={32}
        style={{ borderRadius: 6, flex: 'none' }}
      />
      {compact ? null : (
        <Typography.Text strong ellipsis style={{ color: 'inherit', fontSize: 16 }} data-testid="office-name">
          {settings.officeName}
        </Typography.Text>
      )}
    </Link>
  );
}

export interface HeaderProps {
  mobile: boolean;
  onOpenDrawer: () => void;
}

/** The header (height 60): brand, menu toggles, switches, connection state, notifications and user menu. */
export function Header({ mobile, onOpenDrawer }: HeaderProps) {
  const { t } = useTranslation('layout');
  const { token } = antdTheme.useToken();
  const [config, setConfig] = useAtom(themeConfigAtom);
  const user = useAtomValue(userAtom);
  const navigate = useNavigate();
  const [aboutOpen, setAboutOpen] = useState(false);
  const background = useBarBackground('header');
  const color = '#fff';

  const collapseButton = mobile ? (
    <Button
      type="text"
      style={{ color }}
      aria-label={t('nav.open')}
      icon={<MenuOutlined />}
      onClick={onOpenDrawer}
    />
  ) : config.navType === 'side' ? (
    <Button
      type="text"
      style={{ color }}
      aria-label={config.navCollapsed ? t('nav.expand') : t('nav.collapse')}
      icon={<Directional>{config.navCollapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}</Directional>}
      onClick={() => setConfig({ navCollapsed: !config.navCollapsed })}
    />
  ) : null;

  return (
    <header
      style={{
        height: LAYOUT.headerHeight,
        display: 'flex',
        alignItems: 'center',
        gap: 8,
        paddingInline: token.paddingMD,
        minWidth: 0,
        background,
        color,
        position: 'sticky',
        top: 0,
        zIndex: 100,
      }}
    >
      {collapseButton}
      <OfficeBrand color={color} compact={mobile} />
      {mobile ? null : <GlobalSearch />}
      <Flex align="center" gap={4} style={{ marginInlineStart: 'auto', minWidth: 0, flex: 'none' }}>
        <ConnectionDot />
        <LanguageSwitch color={color} />
        <ThemeSwitch color={color} />
        {mobile ? null : (
          <Tooltip title={config.navType === 'side' ? t('nav.top') : t('nav.side')}>
            <Button
              type="text"
              style={{ color }}
              aria-label={t('nav.switch')}
              icon={<LayoutOutlined />}
              onClick={() => setConfig({ navType: config.navType === 'side' ? 'top' : 'side' })}
            />
          </Tooltip>
        )}
        <HeaderTimer color={color} compact={mobile} />
        <ChatBadge color={color} />
        <NotificationBell color={color} />
        <Dropdown
          trigger={['click']}
          menu={{
            items: [
              {
                key: 'profile',
                icon: <UserOutlined />,
                label: t('user.profile'),
                onClick: () => navigate(ROUTES.profile),
              },
              {
                key: 'about',
                icon: <InfoCircleOutlined />,
                label: t('about.menu'),
                onClick: () => setAboutOpen(true),
              },
              { type: 'divider' },
              {
                key: 'signOut',
                icon: <LogoutOutlined />,
                danger: true,
                label: t('user.signOut'),
                onClick: () => void signOut(navigate),
              },
            ],
          }}
        >
          <Button
            type="text"
            style={{ color, paddingInline: 6 }}
            aria-label={user?.name ?? t('user.profile')}
          >
            <Avatar size="small" icon={<UserOutlined />} style={{ background: 'rgba(255,255,255,0.25)' }} />
            {mobile ? null : (
              <span
                style={{
                  marginInlineStart: 6,
                  maxWidth: 180,
                  overflow: 'hidden',
                  textOverflow: 'ellipsis',
                  whiteSpace: 'nowrap',
                }}
              >
                {user?.name}
              </span>
            )}
          </Button>
        </Dropdown>
        <AboutDialog open={aboutOpen} onClose={() => setAboutOpen(false)} />
      </Flex>
    </header>
  );
}
