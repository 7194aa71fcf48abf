import { Descriptions, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { HOST_BUILD } from '../remotes/compat';
import { useLoadedRemotes } from '../remotes/loadedRemotes';

/**
 * "About": the host's version and the version of every remote this page has loaded. Remotes are
 * released on their own (`npm run release`), so which version a page runs is worth seeing.
 */
export function AboutDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('layout');
  const remotes = useLoadedRemotes();
  const names = Object.keys(remotes).sort();
  return (
    <Modal open={open} onCancel={onClose} footer={null} title={t('about.title')}>
      <Descriptions
        column={1}
        size="small"
        bordered
        items={[
          { key: 'host', label: t('about.host'), children: <Version value={HOST_BUILD.version} /> },
          ...names.map((name) => ({
            key: name,
            label: t(`remote.names.${name}`, { defaultValue: name }),
            children: <Version value={remotes[name]?.version ?? t('about.unknown')} />,
          })),
        ]}
      />
      {names.length === 0 ? (
        <Typography.Paragraph type="secondary">{t('about.noRemotes')}</Typography.Paragraph>
      ) : null}
    </Modal>
  );
}

/** Versions are Latin text (`0.1.0-20261123180512`) even inside Arabic. */
function Version({ value }: { value: string }) {
  return (
    <Typography.Text code dir="ltr" data-testid="remote-version">
      {value}
    </Typography.Text>
  );
}
