import {
  AppstoreOutlined,
  BankOutlined,
  CommentOutlined,
  DashboardOutlined,
  EnvironmentOutlined,
  FileProtectOutlined,
  FolderOpenOutlined,
  ApartmentOutlined,
  ScheduleOutlined,
  SettingOutlined,
  SolutionOutlined,
  TeamOutlined,
  UserOutlined,
  AuditOutlined,
  CarryOutOutlined,
  ClusterOutlined,
} from '@ant-design/icons';
import { isMenuGroup, LAYOUT, type MenuEntry, type MenuItem } from '@mizan/contracts';
import { permissionsAtom } from '@mizan/sdk';
import { Menu, Tag, type MenuProps } from 'antd';
import { useAtomValue } from 'jotai';
import { useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router-dom';
import { useMenu } from '../remotes/remoteMenu';
import { useRemoteStatuses } from '../remotes/remoteStatus';
import { activeItem, groupOf, visibleMenu } from './menu';

/** One icon per top-level entry of the side menu. */
const ICONS: Record<string, ReactNode> = {
  dashboard: <DashboardOutlined />,
  employees: <TeamOutlined />,
  systemSettings: <SettingOutlined />,
  places: <EnvironmentOutlined />,
  lawsuitSettings: <SolutionOutlined />,
  procurationCases: <FileProtectOutlined />,
  courts: <BankOutlined />,
  taskTypes: <CarryOutOutlined />,
  sessionSettings: <ScheduleOutlined />,
  offices: <ApartmentOutlined />,
  administrativeSections: <ClusterOutlined />,
  clients: <UserOutlined />,
  procurations: <AuditOutlined />,
  legal: <FolderOpenOutlined />,
  chat: <CommentOutlined />,
};

type Items = NonNullable<MenuProps['items']>;

export const groupKey = (key: string) => `group:${key}`;

export interface NavMenuProps {
  mode: 'inline' | 'horizontal';
  theme?: 'light' | 'dark';
  collapsed?: boolean;
  onNavigate?: () => void;
}

/** The side or top navigation: the side menu, filtered by the user's permissions. */
export function NavMenu({ mode, theme = 'light', collapsed = false, onNavigate }: NavMenuProps) {
  const { t } = useTranslation('menu');
  const permissions = useAtomValue(permissionsAtom);
  const statuses = useRemoteStatuses();
  const { pathname } = useLocation();
  const menu = useMenu();
  const entries = useMemo(() => visibleMenu(permissions, menu), [permissions, menu]);

  const label = (item: MenuItem) => (
    <Link to={item.route} onClick={onNavigate}>
      {t(`items.${item.key}`)}
      {item.remote && statuses[item.remote] === 'unavailable' ? (
        <Tag color="warning" style={{ marginInlineStart: 8 }}>
          {t('unavailable')}
        </Tag>
      ) : null}
    </Link>
  );

  const items: Items = entries.map((entry: MenuEntry) =>
    isMenuGroup(entry)
      ? {
          key: groupKey(entry.key),
          icon: ICONS[entry.key] ?? <AppstoreOutlined />,
          label: t(`groups.${entry.key}`),
          children: entry.items.map((item) => ({ key: item.route, label: label(item) })),
        }
      : { key: entry.route, icon: ICONS[entry.key] ?? <AppstoreOutlined />, label: label(entry) },
  );

  const flat = entries.flatMap((entry) => (isMenuGroup(entry) ? entry.items : [entry]));
  const active = activeItem(pathname, flat);
  const openGroup = active ? groupOf(active.key, menu) : undefined;

  return (
    <Menu
      mode={mode}
      theme={theme}
      items={items}
      selectedKeys={active ? [active.route] : []}
      defaultOpenKeys={mode === 'inline' && !collapsed && openGroup ? [groupKey(openGroup.key)] : undefined}
      style={
        mode === 'horizontal'
          ? // Fills the 55px top bar and lets its colour (the theme's topNavColor) show through.
            { background: 'transparent', lineHeight: `${LAYOUT.topNavHeight}px`, borderBottom: 0 }
          : { borderInlineEnd: 0 }
      }
    />
  );
}
