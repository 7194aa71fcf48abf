import { CopyOutlined } from '@ant-design/icons';
import {
  DOCUMENT_RECORD_KINDS,
  DOCUMENT_ROUTES,
  type DocumentField,
  type DocumentRecordKind,
} from '@mizan/contracts';
import { api } from '@mizan/sdk';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Flex, Input, Segmented, Table, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** The tag as written in a template: `{tag}`, an image's `{%tag}`, or a loop's opening and closing tags. */
const written = (field: DocumentField) =>
  field.kind === 'loop'
    ? `{#${field.tag}}…{/${field.tag}}`
    : field.kind === 'image'
      ? `{%${field.tag}}`
      : `{${field.tag}}`;

/**
 * The merge fields of each record kind, as a template author needs them: the tag to type (copied
 * with one click), its label in Arabic and English and an example value. Derived by the server from
 * the definitions, so a new field shows here without code.
 */
export function DocumentFieldsPage() {
  const { t } = useTranslation(['settings', 'entities']);
  const [record, setRecord] = useState<DocumentRecordKind>('lawsuit');
  const [q, setQ] = useState('');
  const fields = useQuery({
    queryKey: ['documents', 'fields', record],
    queryFn: () => api.call(DOCUMENT_ROUTES.fields, { query: { record } }),
  });
  const shown = useMemo(() => {
    const needle = q.trim().toLowerCase();
    return (fields.data ?? []).filter(
      (f) =>
        !needle ||
        f.tag.toLowerCase().includes(needle) ||
        f.label.ar.includes(needle) ||
        f.label.en.toLowerCase().includes(needle),
    );
  }, [fields.data, q]);
  return (
    <Card title={t('documents.fieldsTitle', { ns: 'settings' })}>
      <Typography.Paragraph type="secondary">
        {t('documents.fieldsHelp', { ns: 'settings' })}
      </Typography.Paragraph>
      <Flex gap={12} wrap="wrap" style={{ marginBlockEnd: 16 }}>
        <Segmented
          value={record}
          onChange={(value) => setRecord(value as DocumentRecordKind)}
          options={DOCUMENT_RECORD_KINDS.map((kind) => ({
            value: kind,
            label: t(`entities:documentTemplates.values.record.${kind}`),
          }))}
        />
        <Input.Search
          allowClear
          style={{ maxInlineSize: 320 }}
          placeholder={t('documents.search', { ns: 'settings' })}
          aria-label={t('documents.search', { ns: 'settings' })}
          onChange={(e) => setQ(e.target.value)}
        />
      </Flex>
      {fields.isError && (
        <Alert type="error" showIcon title={t('documents.loadFailed', { ns: 'settings' })} />
      )}
      <Table<DocumentField>
        size="small"
        loading={fields.isLoading}
        rowKey={(f) => `${f.loop ?? ''}:${f.tag}`}
        dataSource={shown}
        pagination={{ pageSize: 50, showSizeChanger: false }}
        scroll={{ x: 720 }}
        columns={[
          {
            key: 'tag',
            title: t('documents.tag', { ns: 'settings' }),
            render: (_, f) => (
              <Flex gap={4} align="center">
                {f.loop && <Tag>{`{#${f.loop}}`}</Tag>}
                <Typography.Text code dir="ltr">
                  {written(f)}
                </Typography.Text>
                <Button
                  size="small"
                  type="text"
                  icon={<CopyOutlined />}
                  aria-label={t('documents.copy', { ns: 'settings', tag: written(f) })}
                  onClick={() => void navigator.clipboard?.writeText(written(f))}
                />
              </Flex>
            ),
          },
          {
            key: 'ar',
            title: t('documents.labelAr', { ns: 'settings' }),
            render: (_, f) => <bdi>{f.label.ar}</bdi>,
          },
          {
            key: 'en',
            title: t('documents.labelEn', { ns: 'settings' }),
            render: (_, f) => <bdi>{f.label.en}</bdi>,
          },
          {
            key: 'example',
            title: t('documents.example', { ns: 'settings' }),
            render: (_, f) => (
              <Flex vertical>
                <bdi dir="rtl">{f.example.ar}</bdi>
                <Typography.Text type="secondary">
                  <bdi dir="ltr">{f.example.en}</bdi>
                </Typography.Text>
              </Flex>
            ),
          },
        ]}
      />
    </Card>
  );
}
