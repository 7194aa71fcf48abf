import { Button, Checkbox, Popover, Space } from 'antd';
import { SettingOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { EntityColumn } from './columns';

export interface ColumnChooserProps {
  columns: EntityColumn[];
  visible: string[];
  onChange: (keys: string[] | null) => void;
}

/** Lets the user pick the table's columns; "reset" returns to the definition's defaults. */
export function ColumnChooser({ columns, visible, onChange }: ColumnChooserProps) {
  const { t } = useTranslation('ui');
  const content = (
    <Space orientation="vertical" size={4}>
      <Checkbox.Group
        value={visible}
        // At least one column stays: an empty table says nothing.
        onChange={(keys) =>
          keys.length > 0 && onChange(columns.map((c) => c.key).filter((k) => keys.includes(k)))
        }
        style={{ display: 'flex', flexDirection: 'column', gap: 4 }}
        options={columns.map((c) => ({ value: c.key, label: c.title }))}
      />
      <Button size="small" type="link" onClick={() => onChange(null)} style={{ paddingInline: 0 }}>
        {t('columns.reset')}
      </Button>
    </Space>
  );
  return (
    <Popover content={content} title={t('columns.title')} trigger="click" placement="bottom">
      <Button icon={<SettingOutlined />} aria-label={t('columns.title')}>
        {t('columns.button')}
      </Button>
    </Popover>
  );
}
