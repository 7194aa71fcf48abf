import type { Dashboard } from '@mizan/contracts';
import { formatNumber } from '@mizan/ui';
import { Card, Col, Empty, Row, theme } from 'antd';
import { BarChart, LineChart, PieChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import ReactEChartsCore from 'echarts-for-react/lib/core';
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { monthLabel } from './format';

// Only what the three charts use: the rest of ECharts stays out of the bundle.
echarts.use([PieChart, BarChart, LineChart, GridComponent, LegendComponent, TooltipComponent, SVGRenderer]);

export interface DashboardChartsProps {
  dashboard: Pick<Dashboard, 'lawsuitStatusDistribution' | 'monthlyLawsuitTrend' | 'courtTypeDistribution'>;
}

/**
 * The plot area shrinks until its axis labels (rotated court names, the first and last months at
 * the line's ends, the values' digits) fit inside the card: by default ECharts lays the axes out
 * first and lets their labels run past the chart's edges, where they were cut.
 */
const GRID = {
  top: 16,
  bottom: 8,
  left: 12,
  right: 12,
  outerBoundsMode: 'same',
  outerBoundsContain: 'axisLabel',
} as const;

const HEIGHT = 280;

/**
 * The dashboard's charts: lawsuits by case (stage), by type of court, and filed per month over the
 * last twelve months. Loaded as their own chunk (React.lazy), after the figures. Text in the
 * theme's colours (dark mode), numbers and months in the interface language (Arabic-Indic digits
 * and Arabic month names in Arabic), axes mirrored in right-to-left.
 */
export default function DashboardCharts({ dashboard }: DashboardChartsProps) {
  const { t, i18n } = useTranslation('dashboard');
  const { t: te } = useTranslation('entities');
  const { token } = theme.useToken();
  const lng = i18n.language;
  const rtl = i18n.dir(lng) === 'rtl';
  const number = useCallback((value: unknown) => formatNumber(Number(value), lng), [lng]);

  const common = useMemo(
    () => ({
      textStyle: { color: token.colorText, fontFamily: token.fontFamily },
      tooltip: {
        backgroundColor: token.colorBgElevated,
        borderColor: token.colorBorderSecondary,
        textStyle: { color: token.colorText },
      },
      legend: {
        type: 'scroll' as const,
        bottom: 0,
        [rtl ? 'right' : 'left']: 0,
        textStyle: { color: token.colorTextSecondary },
      },
    }),
    [rtl, token],
  );
  const axis = useMemo(
    () => ({
      axisLine: { lineStyle: { color: token.colorBorder } },
      axisLabel: { color: token.colorTextSecondary },
      splitLine: { lineStyle: { color: token.colorBorderSecondary } },
    }),
    [token],
  );

  const statusOption = useMemo(
    () => ({
      ...common,
      tooltip: { ...common.tooltip, trigger: 'item', valueFormatter: number },
      series: [
        {
          type: 'pie',
          radius: ['40%', '68%'],
          top: 0,
          bottom: 40,
          label: {
            color: token.colorText,
            formatter: (p: { name: string; value: number }) => `${p.name}: ${number(p.value)}`,
          },
          data: dashboard.lawsuitStatusDistribution.map((s) => ({
            name: s.name ?? t('noCase'),
            value: s.count,
            ...(s.color ? { itemStyle: { color: s.color } } : {}),
          })),
        },
      ],
    }),
    [common, dashboard.lawsuitStatusDistribution, number, t, token],
  );

  const courtOption = useMemo(
    () => ({
      ...common,
      tooltip: { ...common.tooltip, trigger: 'axis', valueFormatter: number },
      // One series, named by the card's title: a legend would only cover the axis labels.
      legend: { show: false },
      grid: GRID,
      xAxis: {
        type: 'category',
        inverse: rtl,
        data: dashboard.courtTypeDistribution.map((c) =>
          c.courtType ? te(`courts.values.courtType.${c.courtType}`) : t('noCourt'),
        ),
        ...axis,
        axisLabel: {
          ...axis.axisLabel,
          interval: 0,
          rotate: dashboard.courtTypeDistribution.length > 4 ? 30 : 0,
        },
      },
      yAxis: {
        type: 'value',
        minInterval: 1,
        position: rtl ? 'right' : 'left',
        ...axis,
        axisLabel: { ...axis.axisLabel, formatter: number },
      },
      series: [
        {
          type: 'bar',
          name: t('charts.lawsuits'),
          barMaxWidth: 40,
          itemStyle: { color: token.colorPrimary },
          data: dashboard.courtTypeDistribution.map((c) => c.count),
        },
      ],
    }),
    [axis, common, dashboard.courtTypeDistribution, number, rtl, t, te, token],
  );

  const trendOption = useMemo(
    () => ({
      ...common,
      tooltip: { ...common.tooltip, trigger: 'axis', valueFormatter: number },
      // One series, named by the card's title: a legend would only cover the axis labels.
      legend: { show: false },
      grid: GRID,
      xAxis: {
        type: 'category',
        inverse: rtl,
        boundaryGap: false,
        data: dashboard.monthlyLawsuitTrend.map((m) => monthLabel(m.month, lng)),
        ...axis,
      },
      yAxis: {
        type: 'value',
        minInterval: 1,
        position: rtl ? 'right' : 'left',
        ...axis,
        axisLabel: { ...axis.axisLabel, formatter: number },
      },
      series: [
        {
          type: 'line',
          name: t('charts.lawsuits'),
          smooth: true,
          areaStyle: { opacity: 0.15 },
          itemStyle: { color: token.colorPrimary },
          data: dashboard.monthlyLawsuitTrend.map((m) => m.count),
        },
      ],
    }),
    [axis, common, dashboard.monthlyLawsuitTrend, lng, number, rtl, t, token],
  );

  const chart = (option: object, label: string) => (
    // ECharts lays the chart out itself (axes mirrored above): SVG text anchors must not flip with the page.
    <div role="img" aria-label={label} dir="ltr">
      <ReactEChartsCore
        echarts={echarts}
        option={option}
        notMerge
        style={{ height: HEIGHT }}
        opts={{ renderer: 'svg' }}
      />
    </div>
  );

  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} lg={8}>
        <Card size="small" title={t('charts.status')}>
          {dashboard.lawsuitStatusDistribution.length ? (
            chart(statusOption, t('charts.status'))
          ) : (
            <Empty description={t('charts.empty')} />
          )}
        </Card>
      </Col>
      <Col xs={24} lg={8}>
        <Card size="small" title={t('charts.courtTypes')}>
          {dashboard.courtTypeDistribution.length ? (
            chart(courtOption, t('charts.courtTypes'))
          ) : (
            <Empty description={t('charts.empty')} />
          )}
        </Card>
      </Col>
      <Col xs={24} lg={8}>
        <Card size="small" title={t('charts.trend')}>
          {chart(trendOption, t('charts.trend'))}
        </Card>
      </Col>
    </Row>
  );
}
