import { connectionStatusAtom, type ConnectionStatus } from '@mizan/sdk';
import { Badge, Tooltip } from 'antd';
import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';

const VIEW: Record<
  ConnectionStatus,
  { status: 'success' | 'processing' | 'default' | 'error'; text: string }
> = {
  open: { status: 'success', text: 'connection.open' },
  connecting: { status: 'processing', text: 'connection.connecting' },
  reconnecting: { status: 'processing', text: 'connection.connecting' },
  idle: { status: 'default', text: 'connection.closed' },
  closed: { status: 'default', text: 'connection.closed' },
  failed: { status: 'error', text: 'connection.failed' },
};

/** The real-time connection's state as a coloured dot in the header. */
export function ConnectionDot() {
  const { t } = useTranslation('layout');
  const status = useAtomValue(connectionStatusAtom);
  const view = VIEW[status] ?? VIEW.idle;
  return (
    <Tooltip title={t(view.text)}>
      <span
        role="status"
        aria-label={t(view.text)}
        data-status={status}
        style={{ display: 'inline-flex', padding: 4 }}
      >
        <Badge status={view.status} />
      </span>
    </Tooltip>
  );
}
