import { DeleteOutlined, UploadOutlined } from '@ant-design/icons';
import { AREA_PERMISSIONS, SYSTEM_SETTINGS_ROUTES } from '@mizan/contracts';
import { api, isApiError, notify, useAuth } from '@mizan/sdk';
import { formatSize } from '@mizan/ui';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Card,
  Col,
  ColorPicker,
  Form,
  Result,
  Row,
  Space,
  Typography,
  Upload,
  theme,
} from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { HOST_SETTINGS_KEY, generalSettingsKey } from './GeneralSettingsPage';
import {
  IMAGE_RULES,
  appearanceForm,
  imageProblem,
  type AppearanceChange,
  type ImageKind,
} from './appearance';

/** An object URL for a chosen file, revoked when the file changes or the screen closes. */
function usePreview(file: File | null | undefined, stored: string | null): string | null {
  const url = useMemo(() => (file ? URL.createObjectURL(file) : null), [file]);
  useEffect(() => () => (url ? URL.revokeObjectURL(url) : undefined), [url]);
  if (file === null) return null;
  return url ?? stored;
}

function ImagePicker({
  kind,
  value,
  stored,
  disabled,
  onChange,
}: {
  kind: ImageKind;
  value: File | null | undefined;
  stored: string | null;
  disabled: boolean;
  onChange: (file: File | null | undefined) => void;
}) {
  const { t, i18n } = useTranslation('settings');
  const { token } = theme.useToken();
  const max = formatSize(IMAGE_RULES[kind].maxSize, i18n.language);
  const preview = usePreview(value, stored);
  const rule = IMAGE_RULES[kind];
  const size = kind === 'logo' ? 96 : 48;
  return (
    <Space orientation="vertical" size="small" style={{ width: '100%' }}>
      <div
        style={{
          width: size * 2,
          height: size,
          border: `1px dashed ${token.colorBorder}`,
          borderRadius: token.borderRadius,
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'center',
          background: token.colorFillQuaternary,
        }}
      >
        {preview ? (
          <img
            src={preview}
            alt={t(`system.appearance.preview.${kind}`)}
            style={{ maxWidth: '100%', maxHeight: '100%', objectFit: 'contain' }}
          />
        ) : (
          <Typography.Text type="secondary">{t('system.appearance.none')}</Typography.Text>
        )}
      </div>
      <Space wrap>
        <Upload
          accept={rule.accept.join(',')}
          showUploadList={false}
          disabled={disabled}
          beforeUpload={(file) => {
            const problem = imageProblem(kind, file);
            if (problem === 'type') notify.error(t('system.appearance.errors.type', { name: file.name }));
            else if (problem === 'size')
              notify.error(t('system.appearance.errors.size', { name: file.name, max }));
            else onChange(file);
            // Never let antd upload by itself: the file goes with the form's PUT.
            return false;
          }}
        >
          <Button icon={<UploadOutlined />} disabled={disabled}>
            {t(`system.appearance.choose.${kind}`)}
          </Button>
        </Upload>
        {(preview || value === null) && (
          <Button
            icon={<DeleteOutlined />}
            danger
            disabled={disabled || value === null}
            onClick={() => onChange(stored ? null : undefined)}
          >
            {t('system.appearance.remove')}
          </Button>
        )}
        {value !== undefined && (
          <Button type="link" disabled={disabled} onClick={() => onChange(undefined)}>
            {t('system.appearance.undo')}
          </Button>
        )}
      </Space>
      <Typography.Text type="secondary">{t(`system.appearance.hints.${kind}`, { max })}</Typography.Text>
    </Space>
  );
}

/** `/admin/settings/system/general/appearances`: logo, favicon and primary colour (multipart PUT). */
export function AppearancePage() {
  const { t } = useTranslation('settings');
  const { can } = useAuth();
  const canEdit = can(AREA_PERMISSIONS.systemSettingsUpdate);
  const client = useQueryClient();
  const query = useQuery({
    queryKey: generalSettingsKey,
    queryFn: () => api.call(SYSTEM_SETTINGS_ROUTES.get),
  });
  const [logo, setLogo] = useState<File | null | undefined>();
  const [favicon, setFavicon] = useState<File | null | undefined>();
  const [color, setColor] = useState<string>();
  const primaryColor = color ?? query.data?.primaryColor ?? '#1d4ed8';
  const save = useMutation({
    mutationFn: (change: AppearanceChange) =>
      api.call(SYSTEM_SETTINGS_ROUTES.appearance, { body: appearanceForm(change) }),
    onSuccess: (saved) => {
      client.setQueryData(generalSettingsKey, saved);
      void client.invalidateQueries({ queryKey: HOST_SETTINGS_KEY, exact: true });
      setLogo(undefined);
      setFavicon(undefined);
      setColor(undefined);
      notify.success(t('system.appearance.saved'));
    },
  });
  const colorError = isApiError(save.error) ? save.error.errors.primaryColor?.[0] : undefined;
  const dirty =
    logo !== undefined ||
    favicon !== undefined ||
    (color !== undefined && color !== query.data?.primaryColor);

  if (query.isError)
    return (
      <Result
        status="error"
        title={t('system.loadError')}
        extra={<Button onClick={() => void query.refetch()}>{t('actions.retry')}</Button>}
      />
    );
  if (!query.data) return <Card loading />;

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <Card>
        <Typography.Title level={3} style={{ margin: 0 }}>
          {t('system.appearance.title')}
        </Typography.Title>
        <Typography.Text type="secondary">{t('system.appearance.description')}</Typography.Text>
      </Card>
      {!canEdit && <Alert type="info" showIcon title={t('system.readOnly')} />}
      <Card>
        <Form layout="vertical" disabled={!canEdit || save.isPending}>
          <Row gutter={24}>
            <Col xs={24} md={8}>
              <Form.Item label={t('system.appearance.fields.logo')}>
                <ImagePicker
                  kind="logo"
                  value={logo}
                  stored={query.data.logoUrl}
                  disabled={!canEdit}
                  onChange={setLogo}
                />
              </Form.Item>
            </Col>
            <Col xs={24} md={8}>
              <Form.Item label={t('system.appearance.fields.favicon')}>
                <ImagePicker
                  kind="favicon"
                  value={favicon}
                  stored={query.data.faviconUrl}
                  disabled={!canEdit}
                  onChange={setFavicon}
                />
              </Form.Item>
            </Col>
            <Col xs={24} md={8}>
              <Form.Item
                label={t('system.appearance.fields.primaryColor')}
                extra={t('system.appearance.hints.primaryColor')}
                validateStatus={colorError ? 'error' : undefined}
                help={colorError}
              >
                <ColorPicker
                  showText
                  disabledAlpha
                  format="hex"
                  value={primaryColor}
                  onChangeComplete={(c) => setColor(c.toHexString())}
                  presets={[
                    {
                      label: t('system.appearance.presets'),
                      colors: ['#1d4ed8', '#0f766e', '#7c3aed', '#b45309', '#be123c', '#334155'],
                    },
                  ]}
                />
              </Form.Item>
            </Col>
          </Row>
          {canEdit && (
            <Space>
              <Button
                type="primary"
                loading={save.isPending}
                disabled={!dirty}
                onClick={() => save.mutate({ primaryColor, logo, favicon })}
              >
                {t('actions.save')}
              </Button>
            </Space>
          )}
        </Form>
      </Card>
    </Space>
  );
}
