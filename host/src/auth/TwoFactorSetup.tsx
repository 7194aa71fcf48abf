import type { TwoFactorEnableResult } from '@mizan/contracts';
import { authApi, isApiError } from '@mizan/sdk';
import { Alert, Button, Form, Input, List, Space, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ContentSpinner } from '../pages/Spinners';

/**
 * Enrolment in two-factor sign-in: the QR code and key of a new secret, the first code from the
 * app, then the ten recovery codes (shown once) until the employee says they are saved. Serves the
 * profile (signed in) and a sign-in whose role requires it (`challenge`).
 */
export function TwoFactorSetup({
  challenge,
  onEnabled,
  onDone,
}: {
  challenge?: string;
  /** Right after the code was accepted (the sign-in of an enrolment is in `result.login`). */
  onEnabled?: (result: TwoFactorEnableResult) => void | Promise<void>;
  /** After the recovery codes were acknowledged. */
  onDone: () => void;
}) {
  const { t } = useTranslation('auth');
  const setup = useQuery({
    queryKey: ['twoFactorSetup', challenge ?? 'me'],
    queryFn: () => authApi.twoFactorSetup(challenge),
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
  });
  const [form] = Form.useForm<{ code: string }>();
  const [busy, setBusy] = useState(false);
  const [codes, setCodes] = useState<string[] | null>(null);

  const submit = async ({ code }: { code: string }) => {
    setBusy(true);
    try {
      const result = await authApi.twoFactorEnable({ code: code.trim(), challenge });
      await onEnabled?.(result);
      setCodes(result.recoveryCodes);
    } catch (caught) {
      const message = isApiError(caught)
        ? (caught.fieldErrors()[0]?.errors[0] ?? caught.message)
        : String(caught);
      form.setFields([{ name: 'code', errors: [message] }]);
    } finally {
      setBusy(false);
    }
  };

  if (codes) {
    return (
      <Space direction="vertical" style={{ width: '100%' }}>
        <Typography.Title level={5} style={{ margin: 0 }}>
          {t('twoFactor.recoveryTitle')}
        </Typography.Title>
        <Alert type="warning" showIcon title={t('twoFactor.recoveryHelp')} />
        <List
          size="small"
          bordered
          dataSource={codes}
          aria-label={t('twoFactor.recoveryTitle')}
          renderItem={(code) => (
            <List.Item>
              <Typography.Text code copyable dir="ltr" className="recovery-code">
                {code}
              </Typography.Text>
            </List.Item>
          )}
        />
        <Button type="primary" onClick={onDone}>
          {t('twoFactor.saved')}
        </Button>
      </Space>
    );
  }
  if (setup.isPending) return <ContentSpinner />;
  if (setup.isError) return <Alert type="error" showIcon title={setup.error.message} />;
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Typography.Paragraph style={{ margin: 0 }}>{t('twoFactor.scan')}</Typography.Paragraph>
      <img
        src={setup.data.qr}
        alt={t('twoFactor.qrAlt')}
        width={200}
        height={200}
        data-otpauth={setup.data.uri}
      />
      <Typography.Text>
        {t('twoFactor.key')}:{' '}
        <Typography.Text code copyable dir="ltr" data-testid="two-factor-key">
          {setup.data.secret}
        </Typography.Text>
      </Typography.Text>
      <Form form={form} layout="vertical" requiredMark={false} onFinish={submit} disabled={busy}>
        <Form.Item
          name="code"
          label={t('twoFactor.code')}
          rules={[{ required: true, whitespace: true, message: t('twoFactor.codeRequired') }]}
        >
          <Input inputMode="numeric" autoComplete="one-time-code" dir="ltr" maxLength={10} />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={busy}>
          {t('twoFactor.enable')}
        </Button>
      </Form>
    </Space>
  );
}
