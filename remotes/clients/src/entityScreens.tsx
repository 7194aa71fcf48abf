import type { EntityRouteOverrides } from '@mizan/ui';
import { CustomerForm } from './customers/CustomerForm';
import { customerTabs } from './customers/CustomerHearings';
import { procurationColumns } from './procurations/columns';

/**
 * Where the clients area's screens go beyond the generic pages (as react-admin resources override
 * their list or form); everything not named here is the generic page alone. The client form
 * lays out the derived inputs by kind with the live conflict check (also on the record page's
 * edit form), and the client page lists the client's hearings after their lawsuits; the powers of
 * attorney list flags expiry.
 */
export const ENTITY_OVERRIDES: EntityRouteOverrides = {
  customers: { renderForm: (props) => <CustomerForm {...props} />, record: { tabs: customerTabs } },
  procurations: { columns: procurationColumns() },
};
