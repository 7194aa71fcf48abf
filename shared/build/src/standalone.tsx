import { currentLanguage, initI18n, setLanguage } from '@mizan/i18n';
import {
  autoConnect,
  configureNotifier,
  login,
  logout,
  queryClient,
  restoreSession,
  sdkStore,
  useAuth,
} from '@mizan/sdk';
import { QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp, Button, Card, ConfigProvider, Flex, Form, Input, Layout, Menu, Result } from 'antd';
import arEG from 'antd/locale/ar_EG';
import enUS from 'antd/locale/en_US';
import { Provider as JotaiProvider } from 'jotai';
import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, Link, Route, Routes, useLocation } from 'react-router-dom';
import type { RemoteRoute } from './routes';

function Notifier() {
  const { message } = AntApp.useApp();
  useEffect(() => {
    configureNotifier({
      success: (m) => void message.success(m),
      error: (m) => void message.error(m),
      warning: (m) => void message.warning(m),
      info: (m) => void message.info(m),
    });
    return () => configureNotifier(null);
  }, [message]);
  return null;
}

/** Developer sign-in against the API the dev server proxies (`/api` → MIZAN_SERVER_URL). */
function SignIn() {
  const [busy, setBusy] = useState(false);
  return (
    <Flex justify="center" style={{ padding: 48 }}>
      <Card title="Mizan · sign in" style={{ width: 360 }}>
        <Form
          layout="vertical"
          disabled={busy}
          onFinish={async ({ email, password }: { email: string; password: string }) => {
            setBusy(true);
            await login(email, password).catch(() => undefined);
            setBusy(false);
          }}
        >
          <Form.Item name="email" label="Email" rules={[{ required: true }]}>
            <Input dir="ltr" autoComplete="username" />
          </Form.Item>
          <Form.Item name="password" label="Password" rules={[{ required: true }]}>
            <Input.Password dir="ltr" autoComplete="current-password" />
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={busy}>
            Sign in
          </Button>
        </Form>
      </Card>
    </Flex>
  );
}

function Shell({ name, routes }: { name: string; routes: RemoteRoute[] }) {
  const { isAuthenticated, can } = useAuth();
  const { pathname } = useLocation();
  const [lng, setLng] = useState(currentLanguage());
  const switchLanguage = async () => {
    const next = lng === 'ar' ? 'en' : 'ar';
    await setLanguage(next);
    setLng(next);
  };
  return (
    <ConfigProvider
      direction={lng === 'ar' ? 'rtl' : 'ltr'}
      locale={lng === 'ar' ? arEG : enUS}
      wave={{ disabled: true }}
      virtual={false}
    >
      <AntApp>
        <Notifier />
        <Layout style={{ minHeight: '100vh' }}>
          <Layout.Header style={{ display: 'flex', alignItems: 'center', gap: 12, color: '#fff' }}>
            <strong>Mizan · {name} (standalone)</strong>
            <span style={{ marginInlineStart: 'auto' }} />
            <Button onClick={() => void switchLanguage()}>{lng === 'ar' ? 'English' : 'العربية'}</Button>
            {isAuthenticated ? <Button onClick={() => void logout()}>Sign out</Button> : null}
          </Layout.Header>
          {!isAuthenticated ? (
            <SignIn />
          ) : (
            <Layout>
              <Layout.Sider width={260} theme="light">
                <Menu
                  selectedKeys={[pathname]}
                  items={routes
                    .filter((r) => !r.path.includes(':') && can(r.permission))
                    .map((r) => ({ key: r.path, label: <Link to={r.path}>{r.path}</Link> }))}
                />
              </Layout.Sider>
              <Layout.Content style={{ padding: 16 }}>
                <Routes>
                  {routes.map((r) => (
                    <Route
                      key={r.path}
                      path={r.path}
                      element={can(r.permission) ? r.element : <Result status="403" title={r.permission} />}
                    />
                  ))}
                  <Route path="*" element={<Result status="info" title={`${routes.length} routes`} />} />
                </Routes>
              </Layout.Content>
            </Layout>
          )}
        </Layout>
      </AntApp>
    </ConfigProvider>
  );
}

/**
 * Runs one remote alone in development (`webpack serve` on its own port): its routes in a minimal
 * shell with the same providers as the host (SDK store and query cache, i18n, antd RTL), so a
 * screen can be built without the host. The host never loads this entry.
 *
 * @example mountStandalone({ name: 'settings', routes });
 */
export async function mountStandalone({
  name,
  routes,
}: {
  name: string;
  routes: RemoteRoute[];
}): Promise<void> {
  await restoreSession();
  await initI18n('ar');
  autoConnect();
  const root = document.getElementById('root');
  if (!root) throw new Error('index.html has no #root');
  createRoot(root).render(
    <StrictMode>
      <JotaiProvider store={sdkStore}>
        <QueryClientProvider client={queryClient}>
          <BrowserRouter>
            <Shell name={name} routes={routes} />
          </BrowserRouter>
        </QueryClientProvider>
      </JotaiProvider>
    </StrictMode>,
  );
}
