/** Permissions of whole areas rather than of one entity. */
export const AREA_PERMISSIONS = {
  dashboardView: 'dashboard.view',
  /**
   * The dashboard's per-lawyer figures (`employeePerformance`): colleagues' results are the
   * administrator's to see, not every lawyer's. The dashboard's fee figures need `lawsuitPayments.view`.
   */
  dashboardPerformance: 'dashboard.performance',
  systemSettingsView: 'systemSettings.view',
  systemSettingsUpdate: 'systemSettings.update',
  logsView: 'logs.view',
  auditView: 'audit.view',
  chatUse: 'chat.use',
  /**
   * Sees every task (not only those one is assigned to or created) and may edit or delete anyone's
   * task comment: the office's supervisor.
   */
  tasksModerate: 'tasks.moderate',
  /** Subscribes to the whole office's calendar feed (every hearing and open deadline), not only one's own. */
  calendarOfficeFeed: 'calendar.officeFeed',
} as const;
