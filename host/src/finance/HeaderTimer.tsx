import {
  ClockCircleOutlined,
  PauseOutlined,
  CaretRightOutlined,
  CheckOutlined,
  DeleteOutlined,
} from '@ant-design/icons';
import {
  TIMER_ROUTES,
  formatDuration,
  notificationChannel,
  permissionKey,
  timeEntries,
  timerSeconds,
  type TimerState,
} from '@mizan/contracts';
import { api, entityKeys, useAuth, wsClient, type WsClient } from '@mizan/sdk';
import { RefSelect, localizeDigits, recordEditPath } from '@mizan/ui';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Flex, Popover, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';

const TIMER_KEY = ['finance', 'timer'] as const;

/** The timer as answered, with the local instant it arrived (so it ticks by the server's clock). */
interface Received {
  state: TimerState | null;
  at: number;
}

/** `h:mm:ss` of a count of seconds. */
export function clockText(seconds: number): string {
  return `${formatDuration(Math.floor(seconds / 60))}:${String(seconds % 60).padStart(2, '0')}`;
}

/** The counted seconds of a received timer now, by the server's clock at its answer. */
export function secondsNow({ state, at }: Received, localNow = Date.now()): number {
  if (!state) return 0;
  return timerSeconds(state, Date.parse(state.now) + (localNow - at));
}

const timerApi = {
  get: () => api.call(TIMER_ROUTES.get, {}, { silent: true }),
  start: (lawsuitId?: number) => api.call(TIMER_ROUTES.start, { body: lawsuitId ? { lawsuitId } : {} }),
  pause: () => api.call(TIMER_ROUTES.pause),
  stop: () => api.call(TIMER_ROUTES.stop, { body: {} }),
  discard: () => api.call(TIMER_ROUTES.discard),
};

/**
 * The header's timer: time on a lawsuit, kept on the server per employee (so a reload, a sign-out
 * or another device finds it running), following the employee's channel so every tab shows the
 * same. Start on a lawsuit chosen in the popover, pause, resume, discard; stop makes a time entry
 * and opens it to be completed (a description). Shown to those who may record time.
 */
export function HeaderTimer({
  color,
  compact = false,
  client = wsClient,
}: {
  color?: string;
  /** Narrow screens: the icon only (the time shows in the popover). */
  compact?: boolean;
  client?: WsClient;
}) {
  const { t, i18n } = useTranslation('layout');
  const { user, can } = useAuth();
  const allowed = user !== null && can(permissionKey(timeEntries, 'create'));
  const queries = useQueryClient();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [lawsuitId, setLawsuitId] = useState<number | null>(null);
  const [, tick] = useState(0);

  const timer = useQuery<Received>({
    queryKey: TIMER_KEY,
    queryFn: async () => ({ state: await timerApi.get(), at: Date.now() }),
    enabled: allowed,
  });
  const received = timer.data;
  const state = received?.state ?? null;
  const running = Boolean(state?.runningSince);

  useEffect(() => {
    if (!allowed || !user) return undefined;
    return client.subscribe(notificationChannel(user.id), (message) => {
      if (message.type === 'timer')
        queries.setQueryData<Received>(TIMER_KEY, { state: message.data, at: Date.now() });
    });
  }, [allowed, client, queries, user]);

  useEffect(() => {
    if (!running) return undefined;
    const handle = window.setInterval(() => tick((n) => n + 1), 1000);
    return () => window.clearInterval(handle);
  }, [running]);

  const settle = (next: TimerState | null) =>
    queries.setQueryData<Received>(TIMER_KEY, { state: next, at: Date.now() });
  const start = useMutation({
    mutationFn: () => timerApi.start(state ? undefined : (lawsuitId ?? undefined)),
    onSuccess: settle,
  });
  const pause = useMutation({ mutationFn: timerApi.pause, onSuccess: settle });
  const discard = useMutation({ mutationFn: timerApi.discard, onSuccess: () => settle(null) });
  const stop = useMutation({
    mutationFn: timerApi.stop,
    onSuccess: (entry) => {
      settle(null);
      setOpen(false);
      setLawsuitId(null);
      void queries.invalidateQueries({ queryKey: entityKeys.all(timeEntries.name) });
      navigate(recordEditPath(timeEntries, entry.id));
    },
  });

  if (!allowed) return null;
  const busy = start.isPending || pause.isPending || stop.isPending || discard.isPending;
  const shown = received && state ? localizeDigits(clockText(secondsNow(received)), i18n.language) : null;

  const content = (
    <Flex vertical gap={12} style={{ width: 280, maxWidth: '80vw' }}>
      <RefSelect
        entity="lawsuits"
        field={{ entity: timeEntries.name, name: 'lawsuitId' }}
        aria-label={t('timer.lawsuit')}
        placeholder={t('timer.lawsuit')}
        value={state?.lawsuitId ?? lawsuitId}
        onChange={(v) => setLawsuitId(typeof v === 'number' ? v : null)}
        disabled={state !== null}
        style={{ width: '100%' }}
      />
      {shown ? (
        <Typography.Text strong style={{ fontSize: 20, textAlign: 'center' }}>
          <bdi dir="ltr">{shown}</bdi>
          {running ? null : <Typography.Text type="secondary"> ({t('timer.paused')})</Typography.Text>}
        </Typography.Text>
      ) : null}
      <Space wrap>
        {running ? (
          <Button
            icon={<PauseOutlined />}
            loading={pause.isPending}
            disabled={busy}
            onClick={() => pause.mutate()}
          >
            {t('timer.pause')}
          </Button>
        ) : (
          <Button
            type="primary"
            icon={<CaretRightOutlined />}
            loading={start.isPending}
            disabled={busy || (!state && lawsuitId === null)}
            onClick={() => start.mutate()}
          >
            {state ? t('timer.resume') : t('timer.start')}
          </Button>
        )}
        {state ? (
          <>
            <Button
              type="primary"
              icon={<CheckOutlined />}
              loading={stop.isPending}
              disabled={busy}
              onClick={() => stop.mutate()}
            >
              {t('timer.stop')}
            </Button>
            <Button
              danger
              type="text"
              icon={<DeleteOutlined />}
              disabled={busy}
              onClick={() => discard.mutate()}
            >
              {t('timer.discard')}
            </Button>
          </>
        ) : null}
      </Space>
    </Flex>
  );

  return (
    <Popover trigger="click" open={open} onOpenChange={setOpen} content={content} title={t('timer.title')}>
      <Button
        type="text"
        style={{ color }}
        aria-label={shown ? t('timer.runningLabel', { time: shown }) : t('timer.title')}
        data-testid="header-timer"
        icon={<ClockCircleOutlined style={running ? { color: '#52c41a' } : undefined} />}
      >
        {shown && !compact ? <bdi dir="ltr">{shown}</bdi> : null}
      </Button>
    </Popover>
  );
}
