import { theme } from 'antd';

export interface BarSeries {
  key: string;
  label: string;
  color: string;
}

export interface BarChartProps {
  /** One bar group per bucket (hour of the day), each with one value per series. */
  buckets: { label: string; values: Record<string, number> }[];
  series: BarSeries[];
  /** Accessible name of the chart. */
  title: string;
  height?: number;
}

const BAR_GAP = 2;
const AXIS = 28;

/**
 * A grouped bar chart drawn as SVG: the logs screen needs one simple chart, not a chart library.
 * Every bar carries a `<title>` (hover text and screen readers read the exact number).
 */
export function BarChart({ buckets, series, title, height = 180 }: BarChartProps) {
  const { token } = theme.useToken();
  const max = Math.max(1, ...buckets.flatMap((b) => series.map((s) => b.values[s.key] ?? 0)));
  const groupWidth = 24;
  const barWidth = (groupWidth - BAR_GAP * (series.length + 1)) / series.length;
  const width = AXIS + buckets.length * groupWidth;
  const plot = height - 20;
  const y = (v: number) => plot - (v / max) * (plot - 8);

  return (
    <figure style={{ margin: 0 }}>
      <svg
        role="img"
        aria-label={title}
        viewBox={`0 0 ${width} ${height}`}
        width="100%"
        height={height}
        preserveAspectRatio="none"
        // Hours run left to right in both directions, as on a clock face.
        style={{ direction: 'ltr', display: 'block' }}
      >
        <line x1={AXIS} x2={width} y1={plot} y2={plot} stroke={token.colorBorder} />
        <text x={AXIS - 4} y={12} fontSize={9} textAnchor="end" fill={token.colorTextSecondary}>
          {max}
        </text>
        <text x={AXIS - 4} y={plot} fontSize={9} textAnchor="end" fill={token.colorTextSecondary}>
          0
        </text>
        {buckets.map((bucket, i) => (
          <g key={bucket.label} transform={`translate(${AXIS + i * groupWidth},0)`}>
            {series.map((s, j) => {
              const value = bucket.values[s.key] ?? 0;
              return (
                <rect
                  key={s.key}
                  data-testid={`bar-${s.key}-${bucket.label}`}
                  x={BAR_GAP + j * (barWidth + BAR_GAP)}
                  y={y(value)}
                  width={barWidth}
                  height={plot - y(value)}
                  fill={s.color}
                  rx={1}
                >
                  <title>{`${bucket.label} · ${s.label}: ${value}`}</title>
                </rect>
              );
            })}
            {i % 3 === 0 && (
              <text
                x={groupWidth / 2}
                y={height - 6}
                fontSize={9}
                textAnchor="middle"
                fill={token.colorTextSecondary}
              >
                {bucket.label}
              </text>
            )}
          </g>
        ))}
      </svg>
      <figcaption style={{ display: 'flex', gap: 16, justifyContent: 'center', fontSize: 12 }}>
        {series.map((s) => (
          <span key={s.key}>
            <span
              aria-hidden
              style={{
                display: 'inline-block',
                width: 10,
                height: 10,
                background: s.color,
                marginInlineEnd: 6,
              }}
            />
            {s.label}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}
