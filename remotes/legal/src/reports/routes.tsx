import type { RemoteRoute } from '@mizan/build/routes';
import { FINANCE_REPORTS, type ReportDefinition } from '@mizan/contracts';
import { ReportPage } from './ReportPage';

/** Every finance report at its path (the API's, under `/admin`), for whoever may read it. */
export const reportRoutes: RemoteRoute[] = (Object.values(FINANCE_REPORTS) as ReportDefinition[]).map(
  (report) => ({
    path: report.path,
    permission: report.permission,
    element: <ReportPage report={report} />,
  }),
);
