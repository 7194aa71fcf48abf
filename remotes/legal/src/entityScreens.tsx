import type { EntityRouteOverrides } from '@mizan/ui';
import { DeadlineActions } from './deadlines/DeadlineActions';
import { InvoiceActions, InvoiceStateTag } from './invoices/InvoiceActions';
import { LawsuitForm } from './lawsuits/LawsuitForm';
import { LawsuitStateActions } from './lawsuits/LawsuitStateActions';
import { lawsuitColumns } from './lawsuits/columns';
import { lawsuitTabs } from './lawsuits/recordTabs';
import { LawsuitStateTag } from './lawsuits/StateTag';
import { OpponentForm } from './opponents/OpponentForm';
import { PostponeAction } from './sessions/PostponeAction';
import { SessionForm } from './sessions/SessionForm';
import { sessionColumns } from './sessions/columns';
import { sessionTabs } from './sessions/recordTabs';
import { SessionsToolbar } from './sessions/SessionsToolbar';

/**
 * Where the legal department's screens go beyond the generic pages (as react-admin resources
 * override their list or form); everything not named here is the generic page alone (the
 * attachments list and its groups, payments).
 *
 * - lawsuits: the form by sections with the court → circuit → judge cascade; the state as a tag
 *   with the final case's outcome; close (asking the final case) and reopen on the row and the
 *   record page, whose tabs are details, hearings, attachments by group, payments with the fee
 *   figures, and history;
 * - opponents: the form warns of a client (or another opponent) known under that name or ID, as
 *   the client form does;
 * - hearings: the form warns of a client whose power of attorney does not cover the day; past
 *   ones with no decision flagged, a link to the calendar; the record page shows
 *   the postponement chain and records a postponement;
 * - deadlines: change the due date (with a reason), close as done or waived, reopen, on the row
 *   and the record page;
 * - invoices: the state as a tag on the row; on the record page (whose lines tab is the derived
 *   one) bring in unbilled time and expenses, issue, void, credit note and print.
 */
export const ENTITY_OVERRIDES: EntityRouteOverrides = {
  lawsuits: {
    renderForm: (props) => <LawsuitForm {...props} />,
    columns: lawsuitColumns,
    extraActions: (row) => <LawsuitStateActions row={row} compact />,
    record: {
      fields: ['fileNumber', 'caseNumber', 'caseYear', 'courtId', 'customerIds', 'opponentIds'],
      extraActions: (row) => (
        <>
          <LawsuitStateTag row={row} />
          <LawsuitStateActions row={row} />
        </>
      ),
      tabs: lawsuitTabs,
    },
  },
  opponents: {
    renderForm: (props) => <OpponentForm {...props} />,
  },
  sessions: {
    renderForm: (props) => <SessionForm {...props} />,
    columns: sessionColumns(),
    toolbar: <SessionsToolbar />,
    record: {
      extraActions: (row) => <PostponeAction row={row} />,
      tabs: sessionTabs,
    },
  },
  deadlines: {
    extraActions: (row) => <DeadlineActions row={row} compact />,
    record: { extraActions: (row) => <DeadlineActions row={row} /> },
  },
  invoices: {
    extraActions: (row) => <InvoiceStateTag row={row} />,
    record: { extraActions: (row) => <InvoiceActions row={row} /> },
  },
};
