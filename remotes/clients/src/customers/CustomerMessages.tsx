import { MessagesTable, SendMessageForm } from '@mizan/ui';
import { Space } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * A client's communications tab: every message sent to them (by an event or by staff), and, for a
 * user who may edit the client, the form of a one-off message on a channel they agreed to, about
 * one of their lawsuits if it concerns one (offered to a user who may view lawsuits).
 */
export function CustomerMessages({
  customerId,
  canSend,
  canPickLawsuit = false,
}: {
  customerId: number;
  canSend: boolean;
  canPickLawsuit?: boolean;
}) {
  const { t } = useTranslation('clients');
  return (
    <Space orientation="vertical" style={{ width: '100%' }} size="large">
      {canSend && <SendMessageForm customerId={customerId} lawsuitPicker={canPickLawsuit} />}
      <MessagesTable of={{ customerId }} emptyText={t('messages.none')} />
    </Space>
  );
}
