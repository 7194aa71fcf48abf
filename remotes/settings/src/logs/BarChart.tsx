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
  /** Show every n-th bucket label (narrow screens cannot show 24). */
  labelEvery?: number;
}

/**
 * A grouped bar chart drawn with CSS boxes: the logs screen needs one simple chart, not a chart
 * library, and boxes stay sharp and readable at any width (an SVG scaled to the width would
 * stretch its text). Every bar carries a `title` with the exact number.
 */
export function BarChart({ buckets, series, title, height = 180, labelEvery = 3 }: BarChartProps) {
  const { token } = theme.useToken();
  const max = Math.max(1, ...buckets.flatMap((b) => series.map((s) => b.values[s.key] ?? 0)));
  return (
    <figure style={{ margin: 0 }}>
      <div
        role="img"
        aria-label={title}
        // Hours run left to right in both directions, as on a clock face.
        style={{ direction: 'ltr', display: 'flex', gap: 8 }}
      >
        <div
          aria-hidden
          style={{
            display: 'flex',
            flexDirection: 'column',
            justifyContent: 'space-between',
            height,
            fontSize: 11,
            color: token.colorTextSecondary,
            textAlign: 'end',
          }}
        >
          <span>{max}</span>
          <span>0</span>
        </div>
        <div style={{ flex: 1, minWidth: 0 }}>
          <div
            style={{
              display: 'flex',
              alignItems: 'flex-end',
              height,
              borderBottom: `1px solid ${token.colorBorder}`,
            }}
          >
            {buckets.map((bucket) => (
              <div
                key={bucket.label}
                style={{
                  flex: 1,
                  display: 'flex',
                  alignItems: 'flex-end',
                  justifyContent: 'center',
                  gap: 1,
                  height: '100%',
                }}
              >
                {series.map((s) => {
                  const value = bucket.values[s.key] ?? 0;
                  return (
                    <div
                      key={s.key}
                      data-testid={`bar-${s.key}-${bucket.label}`}
                      title={`${bucket.label} · ${s.label}: ${value}`}
                      style={{
                        width: `${Math.floor(70 / series.length)}%`,
                        height: `${(value / max) * 100}%`,
                        minHeight: value > 0 ? 2 : 0,
                        background: s.color,
                        borderRadius: '2px 2px 0 0',
                      }}
                    />
                  );
                })}
              </div>
            ))}
          </div>
          <div aria-hidden style={{ display: 'flex', fontSize: 11, color: token.colorTextSecondary }}>
            {buckets.map((bucket, i) => (
              <span
                key={bucket.label}
                style={{ flex: 1, textAlign: 'center', overflow: 'visible', whiteSpace: 'nowrap' }}
              >
                {i % labelEvery === 0 ? bucket.label : ''}
              </span>
            ))}
          </div>
        </div>
      </div>
      <figcaption style={{ display: 'flex', gap: 16, justifyContent: 'center', fontSize: 12, marginTop: 8 }}>
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
