import { Space, Tag, Typography } from 'antd';
import { Link } from 'react-router-dom';
import { sessions } from '@mizan/contracts';
import { i18n } from '@mizan/i18n';
import { DualDate, officeToday, recordPath, type EntityColumn, type EntityRow } from '@mizan/ui';

/** A hearing whose day has passed with no decision recorded (what `pastWithoutDecision` finds). */
export function pastWithoutDecision(row: EntityRow, today: string): boolean {
  const decision = typeof row.decision === 'string' ? row.decision.trim() : '';
  return typeof row.date === 'string' && row.date < today && decision === '';
}

/** The red flag of a hearing left without its decision (its words wrap in a narrow column). */
export function NoDecisionTag() {
  return (
    <Tag color="red" style={{ marginInlineEnd: 0, whiteSpace: 'normal' }}>
      {i18n.t('sessions.noDecision', { ns: 'legal' })}
    </Tag>
  );
}

const idOf = (value: unknown) => (typeof value === 'number' ? value : null);

/** The hearings it came from and went to by postponement, as links ("from 5/1 · to 6/3"). */
export function ChainLinks({ row }: { row: EntityRow }) {
  const previousId = idOf(row.previousId);
  const nextId = idOf(row.nextId);
  const previous = row.previous as { name?: unknown } | undefined;
  if (previousId === null && nextId === null && !row.nextDate) return null;
  return (
    <Space size={[8, 2]} wrap>
      {previousId !== null && (
        <Typography.Text type="secondary">
          {i18n.t('sessions.chain.from', { ns: 'legal' })}{' '}
          <Link to={recordPath(sessions, previousId)}>
            <DualDate value={typeof previous?.name === 'string' ? previous.name : null} primaryOnly />
            {typeof previous?.name !== 'string' && `#${previousId}`}
          </Link>
        </Typography.Text>
      )}
      {(nextId !== null || typeof row.nextDate === 'string') && (
        <Typography.Text type="secondary">
          {i18n.t('sessions.chain.to', { ns: 'legal' })}{' '}
          {nextId !== null ? (
            <Link to={recordPath(sessions, nextId)}>
              <DualDate value={row.nextDate as string | null} primaryOnly />
            </Link>
          ) : (
            <DualDate value={row.nextDate as string | null} primaryOnly />
          )}
        </Typography.Text>
      )}
    </Space>
  );
}

/**
 * The hearings list's columns: the derived ones, the date flagged when it passed with no
 * decision (shown and exported). `today` is the office's calendar day (as the server's
 * `pastWithoutDecision` filter counts it; fixed in tests). With `chain`, a column of the
 * hearings each one was postponed from and to (a lawsuit's hearings).
 */
export function sessionColumns({
  today = () => officeToday(),
  chain = false,
}: { today?: () => string; chain?: boolean } = {}) {
  return (derived: EntityColumn[]): EntityColumn[] => {
    const flag: EntityColumn = {
      key: 'decisionMissing',
      title: i18n.t('sessions.decisionColumn', { ns: 'legal' }),
      render: (row) => (pastWithoutDecision(row, today()) ? <NoDecisionTag /> : null),
      exportValue: (row) =>
        pastWithoutDecision(row, today()) ? i18n.t('sessions.noDecision', { ns: 'legal' }) : '',
      sortable: false,
      defaultVisible: true,
    };
    const links: EntityColumn = {
      key: 'chain',
      title: i18n.t('sessions.chain.column', { ns: 'legal' }),
      render: (row) => <ChainLinks row={row} />,
      exportValue: (row) => (typeof row.nextDate === 'string' ? row.nextDate : ''),
      sortable: false,
      defaultVisible: true,
    };
    const added = chain ? [flag, links] : [flag];
    const at = derived.findIndex((c) => c.key === 'decision');
    return at < 0
      ? [...derived, ...added]
      : [...derived.slice(0, at + 1), ...added, ...derived.slice(at + 1)];
  };
}
