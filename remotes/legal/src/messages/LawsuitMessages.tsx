import { MessagesTable } from '@mizan/ui';
import { useTranslation } from 'react-i18next';

/**
 * A lawsuit's communications tab: the messages its events sent its clients (and the one-off ones
 * staff sent about it from a client's page), newest first, with their state and the provider's
 * reason.
 */
export function LawsuitMessages({ lawsuitId }: { lawsuitId: number }) {
  const { t } = useTranslation('legal');
  return <MessagesTable of={{ lawsuitId }} emptyText={t('lawsuits.messages.none')} />;
}
