import { isMenuGroup, MENU } from '@mizan/contracts';
import { permissionsAtom, userAtom } from '@mizan/sdk';
import { Alert, Button, Card, Col, Empty, Flex, Row, Skeleton, Typography } from 'antd';
import { useAtomValue } from 'jotai';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { DashboardFigures } from '../dashboard/DashboardFigures';
import { DeadlinesCard } from '../dashboard/DeadlinesCard';
import { DashboardFilters, useDashboardFilter } from '../dashboard/DashboardFilters';
import { useDashboard } from '../dashboard/useDashboard';
import { visibleItems } from '../layout/menu';

/** Today in the Gregorian and the Hijri (Umm al-Qura) calendars, in the interface language. */
export function todayInCalendars(date: Date, language: 'ar' | 'en'): { gregorian: string; hijri: string } {
  const options: Intl.DateTimeFormatOptions = {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
  };
  const gregorian = new Intl.DateTimeFormat(
    language === 'ar' ? 'ar-EG-u-ca-gregory' : 'en-GB-u-ca-gregory',
    options,
  );
  const hijri = new Intl.DateTimeFormat(
    language === 'ar' ? 'ar-SA-u-ca-islamic-umalqura' : 'en-u-ca-islamic-umalqura',
    {
      day: 'numeric',
      month: 'long',
      year: 'numeric',
    },
  );
  return { gregorian: gregorian.format(date), hijri: hijri.format(date) };
}

/** Group label of a quick link, so "Courts" under "Courts" still reads clearly. */
function groupKeyOf(itemKey: string): string | undefined {
  return MENU.filter(isMenuGroup).find((g) => g.items.some((i) => i.key === itemKey))?.key;
}

/**
 * The dashboard: a welcome with the user's name, today's dates, the office's figures for the
 * chosen range and branch (`GET /admin/dashboard`, cached 300 s and refreshed by the channels of
 * what it counts; the all-zero fallback with a retry when it cannot be read), the overdue deadlines and those due within a week, and links to every
 * screen the user may open.
 */
export function DashboardPage() {
  const { t, i18n } = useTranslation('dashboard');
  const { t: tm } = useTranslation('menu');
  const user = useAtomValue(userAtom);
  const permissions = useAtomValue(permissionsAtom);
  const links = useMemo(
    () => visibleItems(permissions).filter((item) => item.key !== 'dashboard'),
    [permissions],
  );
  const language = i18n.language === 'en' ? 'en' : 'ar';
  const today = useMemo(() => todayInCalendars(new Date(), language), [language]);
  const [filter, setFilter] = useDashboardFilter();
  const figures = useDashboard(filter);

  return (
    <Flex vertical gap={16}>
      <Typography.Title level={3} style={{ margin: 0 }}>
        {t('welcome', { name: user?.name ?? '' })}
      </Typography.Title>
      <Card size="small" title={t('today')}>
        <Flex wrap gap={24}>
          <div>
            <Typography.Text type="secondary">{t('gregorian')}: </Typography.Text>
            <Typography.Text strong data-testid="today-gregorian">
              {today.gregorian}
            </Typography.Text>
          </div>
          <div>
            <Typography.Text type="secondary">{t('hijri')}: </Typography.Text>
            <Typography.Text strong data-testid="today-hijri">
              {today.hijri}
            </Typography.Text>
          </div>
        </Flex>
      </Card>
      <DashboardFilters filter={filter} onChange={setFilter} />
      {figures.failed ? (
        <Alert
          type="warning"
          showIcon
          data-testid="dashboard-fallback"
          title={t('failed')}
          action={
            <Button size="small" onClick={figures.retry} loading={figures.fetching}>
              {t('retry')}
            </Button>
          }
        />
      ) : null}
      {figures.dashboard ? (
        <DashboardFigures dashboard={figures.dashboard} filter={filter} />
      ) : (
        <Skeleton active />
      )}
      <DeadlinesCard />
      <Card size="small" title={t('quickLinks')}>
        {links.length === 0 ? (
          <Empty description={t('noLinks')} />
        ) : (
          <Row gutter={[12, 12]}>
            {links.map((item) => {
              const group = groupKeyOf(item.key);
              return (
                <Col key={item.route} xs={24} sm={12} md={8} xl={6}>
                  <Link to={item.route}>
                    <Card size="small" hoverable>
                      <Typography.Text strong>{tm(`items.${item.key}`)}</Typography.Text>
                      {group ? (
                        <div>
                          <Typography.Text type="secondary">{tm(`groups.${group}`)}</Typography.Text>
                        </div>
                      ) : null}
                    </Card>
                  </Link>
                </Col>
              );
            })}
          </Row>
        )}
      </Card>
    </Flex>
  );
}
