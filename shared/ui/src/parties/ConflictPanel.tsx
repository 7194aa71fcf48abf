import { Alert, Flex, Spin, Tag, Typography } from 'antd';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { registry, type ConflictEntity } from '@mizan/contracts';
import { recordPath } from '../record/paths';
import { useConflicts } from './useConflicts';

/** A match's record page (a client's, an opponent's). */
const matchPath = (entity: string, id: number) => {
  const definition = registry.find((e) => e.name === entity);
  return definition ? recordPath(definition, id) : undefined;
};

export interface ConflictPanelProps {
  name?: unknown;
  nationalId?: unknown;
  /** The party being edited: left out of its own check. */
  exceptId?: number;
  /** The entity of the form (default clients): matches of the other one are tagged with theirs. */
  for?: ConflictEntity;
}

/**
 * The live conflict-of-interest panel of a party form (a client's, an opponent's): as the name or
 * ID is typed, the clients and opponents the office already knows under it (name, ID, which of
 * the two, why it matched), each a link to its record page in a new tab so the form keeps what
 * was typed. A warning only: saving stays allowed.
 *
 * @example <ConflictPanel name={name} nationalId={id} exceptId={row?.id} for="opponents" />
 */
export function ConflictPanel({ name, nationalId, exceptId, for: entity = 'customers' }: ConflictPanelProps) {
  const { t } = useTranslation('ui');
  const check = useConflicts({ name, nationalId, exceptId, for: entity });
  const matches = check.data?.matches ?? [];
  const busy = check.enabled && (check.typing || check.isFetching);

  let body: React.ReactNode = null;
  if (busy)
    body = (
      <Typography.Text type="secondary">
        <Spin size="small" style={{ marginInlineEnd: 8 }} />
        {t('parties.conflicts.checking')}
      </Typography.Text>
    );
  else if (!check.enabled) body = null;
  else if (check.isError)
    body = <Typography.Text type="warning">{t('parties.conflicts.failed')}</Typography.Text>;
  else if (check.data && matches.length === 0)
    body = <Typography.Text type="success">{t('parties.conflicts.none')}</Typography.Text>;
  else if (matches.length > 0)
    body = (
      <Alert
        type="warning"
        showIcon
        title={t('parties.conflicts.found', { count: matches.length })}
        description={
          <>
            <ul style={{ listStyle: 'none', margin: 0, padding: 0 }}>
              {matches.map((match) => (
                <li key={`${match.entity}-${match.id}`} style={{ paddingBlock: 6 }}>
                  <Flex vertical gap={2} style={{ minInlineSize: 0 }}>
                    {matchPath(match.entity, match.id) ? (
                      <Link
                        to={matchPath(match.entity, match.id)!}
                        target="_blank"
                        rel="noopener"
                        aria-label={t('parties.conflicts.open', { name: match.name })}
                      >
                        {match.name}
                      </Link>
                    ) : (
                      <Typography.Text strong>{match.name}</Typography.Text>
                    )}
                    {match.nameEn && (
                      <Typography.Text type="secondary" dir="ltr" style={{ textAlign: 'start' }}>
                        {match.nameEn}
                      </Typography.Text>
                    )}
                    <Flex wrap gap={4} align="center">
                      <Tag color={match.entity === entity ? 'default' : 'purple'}>
                        {t(`${match.entity}.singular`, { ns: 'entities' })}
                      </Tag>
                      <Tag>{t(`customers.values.kind.${match.kind}`, { ns: 'entities' })}</Tag>
                      {match.idNumber && (
                        <Typography.Text>
                          {t('parties.conflicts.idNumber')}: <bdi dir="ltr">{match.idNumber}</bdi>
                        </Typography.Text>
                      )}
                      {match.reasons.map((reason) => (
                        <Tag key={reason} color={reason === 'id' || reason === 'sameName' ? 'red' : 'orange'}>
                          {t(`parties.conflicts.reasons.${reason}`)}
                        </Tag>
                      ))}
                    </Flex>
                  </Flex>
                </li>
              ))}
            </ul>
            <Typography.Text type="secondary">{t('parties.conflicts.mayStillSave')}</Typography.Text>
          </>
        }
      />
    );

  return (
    <section
      aria-label={t('parties.conflicts.title')}
      aria-live="polite"
      aria-busy={busy}
      style={{ marginBlockEnd: body ? 16 : 0 }}
    >
      {body}
    </section>
  );
}
