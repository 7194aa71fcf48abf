import { authApi, isApiError, notify } from '@mizan/sdk';
import { SessionLine } from '@mizan/ui';
import { Alert, Button, Card, Form, Input, List, Popconfirm, Space, Tag, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TwoFactorSetup } from '../auth/TwoFactorSetup';
import { ContentSpinner } from './Spinners';

const STATUS_KEY = ['twoFactorStatus'] as const;
const SESSIONS_KEY = ['mySessions'] as const;

/** The profile's two-factor card: its state, enrolment, and turning it off with the password. */
export function TwoFactorCard() {
  const { t } = useTranslation('auth');
  const client = useQueryClient();
  const status = useQuery({ queryKey: STATUS_KEY, queryFn: authApi.twoFactorStatus });
  const [enrolling, setEnrolling] = useState(false);
  const [busy, setBusy] = useState(false);
  const [form] = Form.useForm<{ password: string }>();
  const refresh = () => client.invalidateQueries({ queryKey: STATUS_KEY });

  const turnOff = async ({ password }: { password: string }) => {
    setBusy(true);
    try {
      await authApi.twoFactorDisable({ password });
      notify.success(t('twoFactor.disabled'));
      form.resetFields();
      await refresh();
    } catch (caught) {
      const message = isApiError(caught)
        ? (caught.fieldErrors()[0]?.errors[0] ?? caught.message)
        : String(caught);
      form.setFields([{ name: 'password', errors: [message] }]);
    } finally {
      setBusy(false);
    }
  };

  let body;
  if (status.isPending) body = <ContentSpinner />;
  else if (status.isError) body = <Alert type="error" showIcon title={status.error.message} />;
  else if (enrolling)
    body = (
      <TwoFactorSetup
        onEnabled={() => notify.success(t('twoFactor.enabled'))}
        onDone={() => {
          setEnrolling(false);
          void refresh();
        }}
      />
    );
  else {
    const { enabled, required, recoveryCodesLeft } = status.data;
    body = (
      <Space direction="vertical" style={{ width: '100%' }}>
        <Typography.Paragraph style={{ margin: 0 }}>{t('twoFactor.intro')}</Typography.Paragraph>
        <Space wrap>
          <Tag color={enabled ? 'green' : 'default'}>{enabled ? t('twoFactor.on') : t('twoFactor.off')}</Tag>
          {enabled && (
            <Typography.Text type="secondary">
              {t('twoFactor.codesLeft', { count: recoveryCodesLeft })}
            </Typography.Text>
          )}
        </Space>
        {required && <Alert type="info" showIcon title={t('twoFactor.required')} />}
        {!enabled && (
          <Button type="primary" onClick={() => setEnrolling(true)}>
            {t('twoFactor.setUp')}
          </Button>
        )}
        {enabled && !required && (
          <Form form={form} layout="vertical" requiredMark={false} onFinish={turnOff} disabled={busy}>
            <Typography.Paragraph type="secondary">{t('twoFactor.disableHelp')}</Typography.Paragraph>
            <Form.Item
              name="password"
              label={t('twoFactor.password')}
              rules={[{ required: true, message: t('twoFactor.passwordRequired') }]}
            >
              <Input.Password autoComplete="current-password" dir="ltr" />
            </Form.Item>
            <Button danger htmlType="submit" loading={busy}>
              {t('twoFactor.disable')}
            </Button>
          </Form>
        )}
      </Space>
    );
  }
  return <Card title={t('twoFactor.title')}>{body}</Card>;
}

/** The profile's sessions card: where the employee is signed in, each signed out on a click. */
export function SessionsCard() {
  const { t } = useTranslation('auth');
  const client = useQueryClient();
  const sessions = useQuery({ queryKey: SESSIONS_KEY, queryFn: authApi.sessions });
  const refresh = () => client.invalidateQueries({ queryKey: SESSIONS_KEY });
  const end = async (id: number) => {
    await authApi.endSession(id);
    notify.success(t('sessions.ended'));
    await refresh();
  };
  const endOthers = async () => {
    const { ended } = await authApi.endOtherSessions();
    notify.success(t('sessions.endedOthers', { count: ended }));
    await refresh();
  };
  const others = sessions.data?.filter((s) => !s.current).length ?? 0;
  return (
    <Card
      title={t('sessions.title')}
      extra={
        others > 0 && (
          <Popconfirm
            title={t('sessions.endOthersConfirm')}
            onConfirm={() => endOthers().catch(() => undefined)}
          >
            <Button danger>{t('sessions.endOthers')}</Button>
          </Popconfirm>
        )
      }
    >
      {sessions.isPending ? (
        <ContentSpinner />
      ) : sessions.isError ? (
        <Alert type="error" showIcon title={sessions.error.message} />
      ) : (
        <List
          dataSource={sessions.data}
          aria-label={t('sessions.title')}
          renderItem={(session) => (
            <List.Item
              actions={
                session.current
                  ? []
                  : [
                      <Popconfirm
                        key="end"
                        title={t('sessions.endConfirm')}
                        onConfirm={() => end(session.id).catch(() => undefined)}
                      >
                        <Button size="small">{t('sessions.end')}</Button>
                      </Popconfirm>,
                    ]
              }
            >
              <SessionLine session={session} />
            </List.Item>
          )}
        />
      )}
    </Card>
  );
}
