import { LAYOUT } from '@mizan/contracts';
import { Drawer, Layout, theme as antdTheme } from 'antd';
import { useAtomValue } from 'jotai';
import { Suspense, useState } from 'react';
import { Outlet } from 'react-router-dom';
import { ContentSpinner } from '../pages/Spinners';
import { usePrepareRemotes } from '../remotes/usePrepareRemotes';
import { useSystemSettingsChannel } from '../system/systemSettings';
import { themeConfigAtom } from '../theme/themeConfig';
import { Header, OfficeBrand, useBarBackground } from './Header';
import { NavigationProgress } from './NavigationProgress';
import { NavMenu } from './NavMenu';
import { useBreakpoints } from './useMediaQuery';

/**
 * The signed-in shell: header 60, side navigation 230/80 or top navigation 55,
 * content at most 1400 wide; on mobile (≤ 768px) the navigation moves into a drawer.
 */
export function AdminLayout() {
  const config = useAtomValue(themeConfigAtom);
  const { mobile, largeLaptop } = useBreakpoints();
  const { token } = antdTheme.useToken();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const topBackground = useBarBackground('top');
  useSystemSettingsChannel(true);
  usePrepareRemotes();

  const side = !mobile && config.navType === 'side';
  const top = !mobile && config.navType === 'top';
  const rtl = config.direction === 'rtl';

  return (
    <Layout style={{ minHeight: '100vh', minWidth: 0, maxWidth: '100vw' }}>
      <NavigationProgress />
      {config.hideHeader ? null : <Header mobile={mobile} onOpenDrawer={() => setDrawerOpen(true)} />}
      {top ? (
        <nav
          aria-label="main"
          style={{ height: LAYOUT.topNavHeight, background: topBackground, overflow: 'hidden' }}
        >
          <NavMenu mode="horizontal" theme="dark" />
        </nav>
      ) : null}
      {/* min-width 0 on the flex children: a wide screen scrolls inside the content area instead of
          pushing the header and the side menu off-screen. */}
      <Layout style={{ minWidth: 0 }}>
        {side ? (
          <Layout.Sider
            width={LAYOUT.sideNavWidth}
            collapsedWidth={LAYOUT.sideNavCollapsedWidth}
            collapsed={config.navCollapsed}
            theme={config.sideNavTheme}
            style={{
              position: 'sticky',
              top: config.hideHeader ? 0 : LAYOUT.headerHeight,
              height: `calc(100vh - ${config.hideHeader ? 0 : LAYOUT.headerHeight}px)`,
              overflowY: 'auto',
            }}
          >
            <nav aria-label="main">
              <NavMenu mode="inline" theme={config.sideNavTheme} collapsed={config.navCollapsed} />
            </nav>
          </Layout.Sider>
        ) : null}
        <Layout.Content
          style={{
            width: '100%',
            minWidth: 0,
            overflowX: 'auto',
            maxWidth: LAYOUT.contentMaxWidth,
            marginInline: 'auto',
            padding: mobile ? token.paddingSM : largeLaptop ? token.paddingLG : token.padding,
          }}
        >
          {/* One boundary for every screen: its spinner shows on the first screen of the page only.
              Navigations are transitions, so later screens replace the one on view once ready,
              with the progress bar meanwhile. A boundary per area (as before) committed a spinner
              at every change of area, and React reveals content no sooner than 300 ms after the
              latest spinner: a remote's list came 300 ms after it was ready. */}
          <Suspense fallback={<ContentSpinner />}>
            <Outlet />
          </Suspense>
        </Layout.Content>
      </Layout>
      {mobile ? (
        <Drawer
          open={drawerOpen}
          onClose={() => setDrawerOpen(false)}
          placement={rtl ? 'right' : 'left'}
          size={LAYOUT.sideNavWidth + 40}
          title={<OfficeBrand />}
          styles={{ body: { padding: 0 } }}
        >
          <nav aria-label="main">
            <NavMenu mode="inline" onNavigate={() => setDrawerOpen(false)} />
          </nav>
        </Drawer>
      ) : null}
    </Layout>
  );
}
