import { invoices, permissionKey, sessions } from '@mizan/contracts';
import { i18n } from '@mizan/i18n';
import { EntityTable, useEntityList, type RecordTab, type RecordTabContext } from '@mizan/ui';
import { CustomerMessages } from './CustomerMessages';
import { CustomerStatement } from './CustomerStatement';

/**
 * A client's hearings: the generic hearings list fixed to the lawsuits naming this client among
 * their parties (the `customerId` list filter), newest first, each linking to its page.
 */
export function CustomerHearings({ customerId }: { customerId: number }) {
  const list = useEntityList(sessions, { urlState: false, fixedFilters: { customerId } });
  return <EntityTable {...list} />;
}

/**
 * The client page's tabs: the hearings tab after the client's lawsuits (for a user who may view
 * hearings), the statement (for a user who may view invoices), and the communications tab.
 */
export function customerTabs(derived: RecordTab[], context: RecordTabContext): RecordTab[] {
  return withMessages(withStatement(withHearings(derived, context), context), context);
}

/** The client's statement of account: invoices, credit notes, payments, retainer and balance. */
function withStatement(derived: RecordTab[], { row, can }: RecordTabContext): RecordTab[] {
  if (!can(permissionKey(invoices.name, 'view'))) return derived;
  return [
    ...derived,
    {
      key: 'statement',
      label: i18n.t('statement.tab', { ns: 'clients' }),
      children: <CustomerStatement customerId={row.id} customerName={String(row.name ?? '')} />,
    },
  ];
}

/** The communications tab last: the client's messages, and a one-off one for a user who may edit the client. */
function withMessages(derived: RecordTab[], { row, can }: RecordTabContext): RecordTab[] {
  if (!can('customers.view')) return derived;
  return [
    ...derived,
    {
      key: 'messages',
      label: i18n.t('messages.tab', { ns: 'clients' }),
      children: (
        <CustomerMessages
          customerId={row.id}
          canSend={can('customers.update')}
          canPickLawsuit={can('lawsuits.view')}
        />
      ),
    },
  ];
}

function withHearings(derived: RecordTab[], { row, can }: RecordTabContext): RecordTab[] {
  if (!can('sessions.view')) return derived;
  const tab: RecordTab = {
    key: 'sessions.customerId',
    label: i18n.t('sessions.title', { ns: 'entities' }),
    children: <CustomerHearings customerId={row.id} />,
  };
  const at = derived.findIndex((t) => t.key === 'lawsuits.customerIds');
  return at < 0 ? [tab, ...derived] : [...derived.slice(0, at + 1), tab, ...derived.slice(at + 1)];
}
