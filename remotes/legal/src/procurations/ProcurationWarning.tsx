import { Alert } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { LEGAL_ROUTES } from '@mizan/contracts';
import { api } from '@mizan/sdk';
import { localizeDigits, toDateValue } from '@mizan/ui';
import type { Dayjs } from 'dayjs';

export interface ProcurationWarningProps {
  /** The clients chosen in the form (a lawsuit's). */
  customerIds?: readonly number[];
  /** Or the lawsuit whose clients to check (a hearing's). */
  lawsuitId?: number;
  /** The day that must be covered: a hearing's, a filing's; none: the office's today. */
  date?: Dayjs | string | null;
}

const dayOf = (value: ProcurationWarningProps['date']): string | undefined =>
  value == null ? undefined : typeof value === 'string' ? value : (toDateValue(value, 'date') ?? undefined);

/**
 * The form's word on the clients' powers of attorney: which client has none covering litigation on
 * the day (none recorded, all expired, none for litigation), before the form is saved. In the
 * office's `warn` mode a warning (saving goes through); in `refuse` mode an error saying the server
 * will refuse. Nothing while every client is covered or nothing is chosen yet.
 */
export function ProcurationWarning({ customerIds, lawsuitId, date }: ProcurationWarningProps) {
  const { t, i18n } = useTranslation('legal');
  const clients = [...(customerIds ?? [])].sort((a, b) => a - b);
  const day = dayOf(date);
  const params = {
    ...(clients.length > 0 ? { customerIds: clients.join(',') } : {}),
    ...(lawsuitId !== undefined ? { lawsuitId } : {}),
    ...(day ? { date: day } : {}),
  };
  const enabled = clients.length > 0 || lawsuitId !== undefined;
  const check = useQuery({
    queryKey: ['procurationCheck', params],
    queryFn: ({ signal }) =>
      api.call(LEGAL_ROUTES.procurationCheck, { query: params }, { signal, silent: true }),
    enabled,
    staleTime: 30_000,
  });
  const result = check.data;
  if (!enabled || !result || result.problems.length === 0) return null;
  const refuse = result.mode === 'refuse';
  return (
    <Alert
      type={refuse ? 'error' : 'warning'}
      showIcon
      data-testid="procuration-warning"
      style={{ marginBlockEnd: 16 }}
      title={t(refuse ? 'procurationCheck.refuseTitle' : 'procurationCheck.warnTitle')}
      description={
        <>
          <ul style={{ margin: 0, paddingInlineStart: 20 }}>
            {result.problems.map((problem) => (
              <li key={problem.customerId}>
                {t(`procurationCheck.${problem.reason}`, {
                  name: problem.name,
                  date: problem.expiredOn ? localizeDigits(problem.expiredOn, i18n.language) : '',
                })}
              </li>
            ))}
          </ul>
          {t(refuse ? 'procurationCheck.refuseHelp' : 'procurationCheck.warnHelp')}
        </>
      }
    />
  );
}
