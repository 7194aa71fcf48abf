import { Card, Col, Row, Statistic, Tag, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { BarChart } from './BarChart';
import type { DayStats } from './types';

const pad = (n: number) => String(n).padStart(2, '0');

/** Totals of one day and the requests/errors per hour chart. */
export function StatsOverview({ stats }: { stats: DayStats }) {
  const { t, i18n } = useTranslation('settings');
  const { token } = theme.useToken();
  const { requests, errors } = stats.totals;
  const rate = requests ? (errors / requests) * 100 : 0;
  const byHour = new Map(stats.hours.map((h) => [h.hour, h]));
  // Every hour of the day gets a bar group, also the quiet ones, so the day reads at a glance.
  const buckets = Array.from({ length: 24 }, (_, hour) => ({
    label: `${pad(hour)}:00`,
    values: { requests: byHour.get(hour)?.requests ?? 0, errors: byHour.get(hour)?.errors ?? 0 },
  }));
  const number = new Intl.NumberFormat(i18n.language);

  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} sm={8}>
        <Card>
          <Statistic title={t('logs.stats.total')} value={number.format(requests)} />
        </Card>
      </Col>
      <Col xs={24} sm={8}>
        <Card>
          <Statistic
            title={t('logs.stats.errors')}
            value={number.format(errors)}
            styles={{ content: errors ? { color: token.colorError } : undefined }}
          />
        </Card>
      </Col>
      <Col xs={24} sm={8}>
        <Card>
          <Statistic title={t('logs.stats.errorRate')} value={rate} precision={1} suffix="%" />
        </Card>
      </Col>
      <Col span={24}>
        <Card title={t('logs.stats.byHour')}>
          <BarChart
            title={t('logs.stats.byHour')}
            buckets={buckets}
            series={[
              { key: 'requests', label: t('logs.stats.requests'), color: token.colorPrimary },
              { key: 'errors', label: t('logs.stats.errors'), color: token.colorError },
            ]}
          />
        </Card>
      </Col>
      {stats.levels.length > 0 && (
        <Col span={24}>
          <Card title={t('logs.stats.levels')} size="small">
            {stats.levels.map(({ level, count }) => (
              <Tag key={level} color={levelColor(level)}>
                {t(`logs.levels.${level}`, level)}: {number.format(count)}
              </Tag>
            ))}
          </Card>
        </Col>
      )}
    </Row>
  );
}

/** antd preset colour of a pino level name. */
export function levelColor(level: string): string {
  switch (level) {
    case 'fatal':
    case 'error':
      return 'red';
    case 'warn':
      return 'orange';
    case 'info':
      return 'blue';
    case 'debug':
    case 'trace':
      return 'default';
    default:
      return 'default';
  }
}
