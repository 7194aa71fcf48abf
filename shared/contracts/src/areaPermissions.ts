/** Permissions of whole areas rather than of one entity. */
export const AREA_PERMISSIONS = {
  dashboardView: 'dashboard.view',
  /**
   * The dashboard's per-lawyer figures (`employeePerformance`): colleagues' results are the
   * administrator's to see, not every lawyer's.
   */
  dashboardPerformance: 'dashboard.performance',
  /**
   * The dashboard's fee figures (`financialStatistics`: the whole office's agreed, paid and
   * pending fees): the administrator's, not the front desk's. Recording a lawsuit's payments is
   * `lawsuitPayments.*`, a different right.
   */
  dashboardFinance: 'dashboard.finance',
  systemSettingsView: 'systemSettings.view',
  systemSettingsUpdate: 'systemSettings.update',
  logsView: 'logs.view',
  auditView: 'audit.view',
  /**
   * Lists the office's backups and downloads them: an archive holds every record and file of the
   * office (sign-in secrets included), so this is the administrator's.
   */
  backupsView: 'backups.view',
  /** Takes a backup now, beside the daily ones. */
  backupsCreate: 'backups.create',
  /** Deletes a backup and its archive. */
  backupsDelete: 'backups.delete',
  chatUse: 'chat.use',
  /**
   * Sees every task (not only those one is assigned to or created) and may edit or delete anyone's
   * task comment: the office's supervisor.
   */
  tasksModerate: 'tasks.moderate',
  /**
   * Sees, edits and records everyone's time entries (not only one's own): the office's manager.
   */
  financeEveryone: 'finance.everyone',
  /**
   * The finance reports (aged receivables, revenue by lawyer and by month, unbilled time and
   * expenses: `FINANCE_REPORTS`): the whole office's money and each lawyer's results, so the
   * administrator's, not every reader of invoices.
   */
  financeReports: 'finance.reports',
  /** Subscribes to the whole office's calendar feed (every hearing and open deadline), not only one's own. */
  calendarOfficeFeed: 'calendar.officeFeed',
} as const;
