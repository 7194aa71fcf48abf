import { Alert, Flex, Spin, Tag, Typography } from 'antd';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { registry } from '@mizan/contracts';
import { recordPath } from '@mizan/ui';
import { useConflicts } from './useConflicts';

/** A match's record page: clients, or (once the legal area defines them) opponents. */
const matchPath = (entity: string, id: number) => {
  const definition = registry.find((e) => e.name === entity);
  return definition ? recordPath(definition, id) : undefined;
};

export interface ConflictPanelProps {
  name?: unknown;
  nationalId?: unknown;
  /** The client being edited: left out of its own check. */
  exceptId?: number;
}

/**
 * The live conflict-of-interest panel of the client form: as the name or ID is typed, the clients
 * the office already knows under it (name, ID, why it matched), each a link to its record page in
 * a new tab so the form keeps what was typed. A warning only: saving stays allowed.
 */
export function ConflictPanel({ name, nationalId, exceptId }: ConflictPanelProps) {
  const { t } = useTranslation('clients');
  const check = useConflicts({ name, nationalId, exceptId });
  const matches = check.data?.matches ?? [];
  const busy = check.enabled && (check.typing || check.isFetching);

  let body: React.ReactNode = null;
  if (busy)
    body = (
      <Typography.Text type="secondary">
        <Spin size="small" style={{ marginInlineEnd: 8 }} />
        {t('customers.conflicts.checking')}
      </Typography.Text>
    );
  else if (!check.enabled) body = null;
  else if (check.isError)
    body = <Typography.Text type="warning">{t('customers.conflicts.failed')}</Typography.Text>;
  else if (check.data && matches.length === 0)
    body = <Typography.Text type="success">{t('customers.conflicts.none')}</Typography.Text>;
  else if (matches.length > 0)
    body = (
      <Alert
        type="warning"
        showIcon
        title={t('customers.conflicts.found', { count: matches.length })}
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
                        aria-label={t('customers.conflicts.open', { name: match.name })}
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
                      {match.entity !== 'customers' && (
                        <Tag color="purple">{t(`${match.entity}.singular`, { ns: 'entities' })}</Tag>
                      )}
                      <Tag>{t(`customers.values.kind.${match.kind}`, { ns: 'entities' })}</Tag>
                      {match.idNumber && (
                        <Typography.Text>
                          {t('customers.conflicts.idNumber')}: <bdi dir="ltr">{match.idNumber}</bdi>
                        </Typography.Text>
                      )}
                      {match.reasons.map((reason) => (
                        <Tag key={reason} color={reason === 'id' || reason === 'sameName' ? 'red' : 'orange'}>
                          {t(`customers.conflicts.reasons.${reason}`)}
                        </Tag>
                      ))}
                    </Flex>
                  </Flex>
                </li>
              ))}
            </ul>
            <Typography.Text type="secondary">{t('customers.conflicts.mayStillSave')}</Typography.Text>
          </>
        }
      />
    );

  return (
    <section
      aria-label={t('customers.conflicts.title')}
      aria-live="polite"
      aria-busy={busy}
      style={{ marginBlockEnd: body ? 16 : 0 }}
    >
      {body}
    </section>
  );
}
