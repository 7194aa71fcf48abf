import type { TwoFactorChallenge } from '@mizan/contracts';
import { verifyTwoFactor, type LoginResult } from '@mizan/sdk';
import { Button, Form, Input, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/** The second step of a sign-in: the code from the authenticator app, or a recovery code. */
export function TwoFactorStep({
  challenge,
  onSignedIn,
  onBack,
}: {
  challenge: TwoFactorChallenge;
  onSignedIn: (result: LoginResult) => void;
  onBack: () => void;
}) {
  const { t } = useTranslation('auth');
  const [recovery, setRecovery] = useState(false);
  const [busy, setBusy] = useState(false);
  const [form] = Form.useForm<{ code: string }>();

  const submit = async ({ code }: { code: string }) => {
    setBusy(true);
    try {
      const value = code.trim();
      const result = await verifyTwoFactor(
        recovery
          ? { challenge: challenge.challenge, recoveryCode: value }
          : { challenge: challenge.challenge, code: value },
      );
      onSignedIn(result);
    } catch {
      // The SDK toasts the server's message ("the code is wrong or was already used").
      form.resetFields();
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Typography.Paragraph>{t('twoFactor.verifyHelp')}</Typography.Paragraph>
      <Form form={form} layout="vertical" requiredMark={false} onFinish={submit} disabled={busy}>
        <Form.Item
          key={recovery ? 'recovery' : 'code'}
          name="code"
          label={recovery ? t('twoFactor.recoveryCode') : t('twoFactor.code')}
          rules={[
            {
              required: true,
              whitespace: true,
              message: recovery ? t('twoFactor.recoveryRequired') : t('twoFactor.codeRequired'),
            },
          ]}
        >
          <Input
            autoFocus
            dir="ltr"
            inputMode={recovery ? 'text' : 'numeric'}
            autoComplete="one-time-code"
            maxLength={recovery ? 20 : 10}
          />
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={busy}>
          {t('twoFactor.verify')}
        </Button>
      </Form>
      <div
        style={{ marginTop: 16, display: 'flex', justifyContent: 'space-between', gap: 8, flexWrap: 'wrap' }}
      >
        <Button type="link" onClick={() => (setRecovery(!recovery), form.resetFields())}>
          {recovery ? t('twoFactor.useApp') : t('twoFactor.useRecovery')}
        </Button>
        <Button type="link" onClick={onBack}>
          {t('twoFactor.back')}
        </Button>
      </div>
    </>
  );
}
