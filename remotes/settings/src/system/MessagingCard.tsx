import {
  DEADLINE_NOTICE_DAYS,
  MESSAGE_CHANNELS,
  MESSAGE_ROUTES,
  SMS_DEFAULTS,
  WHATSAPP_DEFAULTS,
  type MessageChannel,
  type MessagingSettingsInput,
} from '@mizan/contracts';
import { api, isApiError, notify } from '@mizan/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Col, Form, Input, InputNumber, Row, Select, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

const messagingKey = ['systemSettings', 'messaging'] as const;

/** A secret's input: empty keeps the stored one, so its placeholder says whether one is set. */
function SecretInput({ set, label, ...props }: { set: boolean; label: string; disabled: boolean }) {
  const { t } = useTranslation('settings');
  return (
    <Input.Password
      autoComplete="new-password"
      aria-label={label}
      placeholder={set ? t('system.messaging.secretSet') : t('system.messaging.secretUnset')}
      {...props}
    />
  );
}

/**
 * The providers of messages to clients: the SMS gateway (URL, method, authorization header, body
 * template with `{to}` and `{text}`) and WhatsApp's Cloud API (base URL, version, phone number id,
 * token, app secret, verify token). Secrets are never shown: a blank one keeps what is stored.
 * "Send a test" sends one message now through a channel and shows what the provider said.
 */
export function MessagingCard({ canEdit }: { canEdit: boolean }) {
  const { t } = useTranslation('settings');
  const label = (key: string) => t(`system.messaging.fields.${key}`);
  const client = useQueryClient();
  const [form] = Form.useForm<MessagingSettingsInput>();
  const query = useQuery({
    queryKey: messagingKey,
    queryFn: () => api.call(MESSAGE_ROUTES.providers),
  });
  const save = useMutation({
    mutationFn: (values: MessagingSettingsInput) =>
      api.call(MESSAGE_ROUTES.updateProviders, { body: values }, { silent: true }),
    onSuccess: (saved) => {
      client.setQueryData(messagingKey, saved);
      form.resetFields();
      notify.success(t('system.messaging.saved'));
    },
    onError: (error) => notify.error(error.message),
  });
  const [test, setTest] = useState<{ channel: MessageChannel; to: string }>({ channel: 'sms', to: '' });
  const sendTest = useMutation({
    mutationFn: () => api.call(MESSAGE_ROUTES.testProvider, { body: test }, { silent: true }),
  });
  const testError = isApiError(sendTest.error) ? Object.values(sendTest.error.errors)[0]?.[0] : undefined;
  const data = query.data;
  const errors = isApiError(save.error) ? save.error.errors : {};
  const noticeDays = Form.useWatch('deadlineNoticeDays', form) as number | null | undefined;

  return (
    <Card title={t('system.messaging.title')} loading={query.isPending}>
      <Typography.Paragraph type="secondary">{t('system.messaging.help')}</Typography.Paragraph>
      {query.isError && <Alert type="error" showIcon title={t('system.loadError')} />}
      {data && !data.emailConfigured && <Alert type="info" showIcon title={t('system.messaging.noSmtp')} />}
      {data && (
        <Form
          form={form}
          layout="vertical"
          disabled={!canEdit}
          initialValues={{
            deadlineNoticeDays: data.deadlineNoticeDays,
            sms: { ...SMS_DEFAULTS, ...data.sms },
            whatsapp: { ...WHATSAPP_DEFAULTS, ...data.whatsapp },
          }}
          onFinish={(values) => save.mutate(values)}
        >
          <Row gutter={24}>
            <Col xs={24} lg={12}>
              <Typography.Title level={5}>{label('sms')}</Typography.Title>
              <Form.Item name={['sms', 'url']} label={label('url')}>
                <Input dir="ltr" placeholder="https://sms.example.com/send?to={to}" />
              </Form.Item>
              <Form.Item name={['sms', 'method']} label={label('method')}>
                <Select options={['POST', 'PUT', 'GET'].map((value) => ({ value, label: value }))} />
              </Form.Item>
              <Form.Item name={['sms', 'authHeader']} label={label('authHeader')}>
                <SecretInput set={data.sms.authHeaderSet} label={label('authHeader')} disabled={!canEdit} />
              </Form.Item>
              <Form.Item name={['sms', 'contentType']} label={label('contentType')}>
                <Input dir="ltr" />
              </Form.Item>
              <Form.Item name={['sms', 'bodyTemplate']} label={label('bodyTemplate')}>
                <Input.TextArea dir="ltr" rows={3} />
              </Form.Item>
              {errors.sms?.[0] && <Typography.Text type="danger">{errors.sms[0]}</Typography.Text>}
            </Col>
            <Col xs={24} lg={12}>
              <Typography.Title level={5}>{label('whatsapp')}</Typography.Title>
              <Form.Item name={['whatsapp', 'baseUrl']} label={label('baseUrl')}>
                <Input dir="ltr" />
              </Form.Item>
              <Form.Item name={['whatsapp', 'apiVersion']} label={label('apiVersion')}>
                <Input dir="ltr" />
              </Form.Item>
              <Form.Item name={['whatsapp', 'phoneNumberId']} label={label('phoneNumberId')}>
                <Input dir="ltr" />
              </Form.Item>
              {(['token', 'appSecret', 'verifyToken'] as const).map((key) => (
                <Form.Item key={key} name={['whatsapp', key]} label={label(key)}>
                  <SecretInput set={data.whatsapp[`${key}Set`]} label={label(key)} disabled={!canEdit} />
                </Form.Item>
              ))}
              {errors.whatsapp?.[0] && <Typography.Text type="danger">{errors.whatsapp[0]}</Typography.Text>}
            </Col>
          </Row>
          <Form.Item
            name="deadlineNoticeDays"
            label={label('deadlineNoticeDays')}
            tooltip={t('system.messaging.deadlineNoticeHelp')}
            extra={
              typeof noticeDays === 'number'
                ? t('system.messaging.deadlineNoticeDays', { count: noticeDays })
                : undefined
            }
            validateStatus={errors.deadlineNoticeDays?.[0] ? 'error' : undefined}
            help={errors.deadlineNoticeDays?.[0]}
            rules={[
              {
                required: true,
                type: 'integer',
                min: DEADLINE_NOTICE_DAYS.min,
                max: DEADLINE_NOTICE_DAYS.max,
              },
            ]}
          >
            <InputNumber min={DEADLINE_NOTICE_DAYS.min} max={DEADLINE_NOTICE_DAYS.max} precision={0} />
          </Form.Item>
          {canEdit && (
            <Button type="primary" htmlType="submit" loading={save.isPending}>
              {t('system.messaging.save')}
            </Button>
          )}
        </Form>
      )}
      {canEdit && (
        <Space wrap style={{ marginTop: 24 }} align="start">
          <Select
            aria-label={label('channel')}
            value={test.channel}
            onChange={(channel) => setTest({ ...test, channel })}
            options={MESSAGE_CHANNELS.map((value) => ({
              value,
              label: t(`system.messaging.channels.${value}`),
            }))}
            style={{ minWidth: 140 }}
          />
          <Input
            aria-label={label('to')}
            dir="ltr"
            placeholder={test.channel === 'email' ? 'name@example.com' : '+201001234567'}
            value={test.to}
            onChange={(event) => setTest({ ...test, to: event.target.value })}
            status={testError ? 'error' : undefined}
          />
          <Button loading={sendTest.isPending} disabled={!test.to.trim()} onClick={() => sendTest.mutate()}>
            {t('system.messaging.sendTest')}
          </Button>
        </Space>
      )}
      {testError && <Typography.Paragraph type="danger">{testError}</Typography.Paragraph>}
      {sendTest.data && (
        <Alert
          style={{ marginTop: 12 }}
          type={sendTest.data.ok ? 'success' : 'error'}
          showIcon
          title={
            sendTest.data.ok
              ? t('system.messaging.testOk', { id: sendTest.data.providerId ?? '' })
              : t('system.messaging.testFailed', { reason: sendTest.data.reason ?? '' })
          }
        />
      )}
    </Card>
  );
}
