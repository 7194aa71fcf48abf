import { roleName } from '@mizan/contracts';
import { authApi, isApiError, notify, updateSessionUser, userAtom, type AuthUser } from '@mizan/sdk';
import { Alert, Button, Card, Col, Form, Input, Row, Tag, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ChangePasswordForm } from '../auth/ChangePasswordForm';
import { NotificationPreferences } from '../notifications/NotificationPreferences';
import { SessionsCard, TwoFactorCard } from './SecurityCards';
import { ContentSpinner } from './Spinners';

type ProfileValues = Pick<AuthUser, 'name' | 'email'> & { phone?: string | null; jobTitle?: string | null };

const PROFILE_KEY = ['profile'] as const;
const PROFILE_FIELDS: string[] = ['name', 'email', 'phone', 'jobTitle'];

/** The signed-in employee's own details (`GET`/`PUT` profile), password change and notification preferences. */
export function ProfilePage() {
  const { t, i18n } = useTranslation('layout');
  const { t: ta } = useTranslation('auth');
  const sessionUser = useAtomValue(userAtom);
  const client = useQueryClient();
  const profile = useQuery({ queryKey: PROFILE_KEY, queryFn: authApi.profile });
  const [form] = Form.useForm<ProfileValues>();
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (profile.data) form.setFieldsValue(profile.data as ProfileValues);
  }, [profile.data, form]);

  const save = async (values: ProfileValues) => {
    setBusy(true);
    try {
      const saved = await authApi.updateProfile({
        name: values.name.trim(),
        email: values.email.trim(),
        phone: values.phone?.trim() || null,
        jobTitle: values.jobTitle?.trim() || null,
      });
      client.setQueryData(PROFILE_KEY, saved);
      // The header shows the name from the session: keep it in step (roles stay as the server sent them).
      if (sessionUser)
        await updateSessionUser({
          ...sessionUser,
          ...saved,
          Roles: sessionUser.Roles,
          permissions: sessionUser.permissions,
        });
      notify.success(t('profile.saved'));
    } catch (caught) {
      // The SDK toasts the message; 422 field errors (email taken, ...) also mark their fields.
      if (isApiError(caught)) {
        form.setFields(
          caught
            .fieldErrors()
            .filter((f): f is { name: keyof ProfileValues; errors: string[] } =>
              PROFILE_FIELDS.includes(f.name),
            ),
        );
      }
    } finally {
      setBusy(false);
    }
  };

  if (profile.isPending) return <ContentSpinner />;
  if (profile.isError) return <Alert type="error" showIcon title={profile.error.message} />;
  const roles = profile.data.Roles ?? sessionUser?.Roles ?? [];

  return (
    <Row gutter={[16, 16]}>
      <Col span={24}>
        <Typography.Title level={3} style={{ margin: 0 }}>
          {t('profile.title')}
        </Typography.Title>
      </Col>
      <Col xs={24} lg={14}>
        <Card title={t('profile.details')}>
          <Form<ProfileValues> form={form} layout="vertical" onFinish={save} disabled={busy}>
            <Form.Item
              name="name"
              label={t('profile.name')}
              rules={[{ required: true, whitespace: true, message: t('profile.nameRequired') }, { max: 150 }]}
            >
              <Input autoComplete="name" />
            </Form.Item>
            <Form.Item
              name="email"
              label={t('profile.email')}
              rules={[
                { required: true, whitespace: true, message: t('profile.emailRequired') },
                { type: 'email', message: t('profile.emailInvalid') },
                { max: 150 },
              ]}
            >
              <Input autoComplete="email" dir="ltr" />
            </Form.Item>
            {/* Not a form field (it cannot be changed), so the label is tied to the input by id. */}
            <Form.Item label={t('profile.username')} htmlFor="profile-username">
              <Input id="profile-username" value={profile.data.username} disabled dir="ltr" />
            </Form.Item>
            <Form.Item name="phone" label={t('profile.phone')} rules={[{ max: 20 }]}>
              <Input autoComplete="tel" dir="ltr" />
            </Form.Item>
            <Form.Item name="jobTitle" label={t('profile.jobTitle')} rules={[{ max: 100 }]}>
              <Input />
            </Form.Item>
            <Form.Item label={t('profile.roles')}>
              {roles.map((role) => (
                <Tag key={role.id}>{roleName(role.name, i18n.language)}</Tag>
              ))}
            </Form.Item>
            <Button type="primary" htmlType="submit" loading={busy}>
              {t('profile.save')}
            </Button>
          </Form>
        </Card>
      </Col>
      <Col xs={24} lg={10}>
        <Card title={ta('changePassword.title')}>
          <ChangePasswordForm />
        </Card>
      </Col>
      <Col xs={24} lg={14}>
        <SessionsCard />
      </Col>
      <Col xs={24} lg={10}>
        <TwoFactorCard />
      </Col>
      <Col xs={24} lg={14}>
        <NotificationPreferences />
      </Col>
    </Row>
  );
}
