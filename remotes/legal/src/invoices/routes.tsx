import type { RemoteRoute } from '@mizan/build/routes';
import { invoices, permissionKey } from '@mizan/contracts';
import { InvoicePrintPage } from './InvoicePrintPage';
import { printPath } from './InvoiceActions';

/** An invoice's print view (A4, Arabic and English), for whoever may read invoices. */
export const invoiceRoutes: RemoteRoute[] = [
  {
    path: printPath(0).replace('/0/', '/:id/'),
    permission: permissionKey(invoices.name, 'view'),
    element: <InvoicePrintPage />,
  },
];
