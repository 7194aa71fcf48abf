import { i18n } from '@mizan/i18n';
import type { RecordTab, RecordTabContext } from '@mizan/ui';
import { LawsuitAttachments } from '../attachments/LawsuitAttachments';
import { LawsuitDeadlines } from '../deadlines/LawsuitDeadlines';
import { PaymentsTab } from '../payments/PaymentsTab';
import { LawsuitMessages } from '../messages/LawsuitMessages';
import { LawsuitSessions } from '../sessions/LawsuitSessions';
import { LawsuitDetails } from './LawsuitDetails';

/** The derived tabs the lawsuit page replaces with its own (the generic embedded lists). */
const REPLACED = new Set([
  'sessions.lawsuitId',
  'deadlines.lawsuitId',
  'attachments.lawsuitId',
  'lawsuitPayments.lawsuitId',
]);

/**
 * The lawsuit page's tabs, in order: details by section, hearings (with their postponement
 * links), deadlines (with their actions), attachments by group, payments with the fee figures, then whatever else the registry
 * derives (another area's list pointing at lawsuits) and the history. A tab the user may not see
 * (no `view` permission of its entity) is left out, as the derived ones are.
 */
export function lawsuitTabs(derived: RecordTab[], { row, title, can }: RecordTabContext): RecordTab[] {
  const t = (key: string, ns = 'entities') => i18n.t(key, { ns });
  const own: RecordTab[] = [
    { key: 'details', label: t('lawsuits.tabs.details', 'legal'), children: <LawsuitDetails row={row} /> },
  ];
  if (can('sessions.view'))
    own.push({
      key: 'sessions',
      label: t('sessions.title'),
      children: <LawsuitSessions lawsuit={row} title={title} />,
    });
  if (can('deadlines.view'))
    own.push({
      key: 'deadlines',
      label: t('deadlines.title'),
      children: <LawsuitDeadlines lawsuit={row} title={title} />,
    });
  if (can('attachments.view'))
    own.push({
      key: 'attachments',
      label: t('attachments.title'),
      children: <LawsuitAttachments lawsuit={row} title={title} />,
    });
  if (can('lawsuitPayments.view'))
    own.push({
      key: 'payments',
      label: t('lawsuits.tabs.payments', 'legal'),
      children: <PaymentsTab lawsuit={row} title={title} />,
    });
  if (can('lawsuits.view'))
    own.push({
      key: 'messages',
      label: t('lawsuits.messages.tab', 'legal'),
      children: <LawsuitMessages lawsuitId={row.id} />,
    });
  const rest = derived.filter((tab) => !REPLACED.has(tab.key));
  return [...own, ...rest];
}
