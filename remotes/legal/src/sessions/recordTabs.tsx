import { i18n } from '@mizan/i18n';
import type { RecordTab, RecordTabContext } from '@mizan/ui';
import { SessionChain } from './SessionChain';

/**
 * The hearing page's tabs: its postponement chain first, in place of the derived list of
 * hearings pointing back at it (the chain shows them in order), then the other derived tabs.
 */
export function sessionTabs(derived: RecordTab[], { row }: RecordTabContext): RecordTab[] {
  const chain: RecordTab = {
    key: 'chain',
    label: i18n.t('sessions.chain.title', { ns: 'legal' }),
    children: <SessionChain sessionId={row.id} version={String(row.updatedAt)} />,
  };
  return [chain, ...derived.filter((tab) => tab.key !== 'sessions.previousId')];
}
