import type { AuditItem } from '@mizan/contracts';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

/** The tag colour of each audited verb (others: the default). */
const ACTION_COLORS: Record<string, string> = {
  create: 'green',
  update: 'blue',
  delete: 'red',
  status: 'gold',
  baned: 'volcano',
  import: 'cyan',
  fileDelete: 'red',
  resetPassword: 'purple',
  changePassword: 'purple',
  resetTwoFactor: 'purple',
  signOutEverywhere: 'purple',
  twoFactorRoles: 'purple',
  reset: 'magenta',
  appearance: 'geekblue',
  close: 'default',
  reopen: 'geekblue',
  postpone: 'orange',
  changeDue: 'orange',
};

/**
 * What an audit entry did, as a verb agreeing with who did it (`عدّلت` for a woman, `عدّل` for a
 * man or the system; `ui:record.history.actions`), in its colour. The audit trail and every record
 * page's history show entries through it.
 */
export function AuditAction({ entry }: { entry: Pick<AuditItem, 'action' | 'employee'> }) {
  const { t } = useTranslation('ui');
  return (
    <Tag color={ACTION_COLORS[entry.action] ?? 'default'}>
      {t(`record.history.actions.${entry.action}`, {
        context: entry.employee?.gender ?? undefined,
        defaultValue: entry.action,
      })}
    </Tag>
  );
}
