import { ArrowLeftOutlined, ArrowRightOutlined, PrinterOutlined } from '@ant-design/icons';
import { Alert, Button, ConfigProvider, Empty, Flex, Spin } from 'antd';
import { useAtomValue } from 'jotai';
import { useContext, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { sdkStore, systemSettingsAtom } from '@mizan/sdk';
import { deadlines as deadlinesEntity, sessions } from '@mizan/contracts';
import { BatchDocumentsButton, formatHijri, localizeDigits, refLabels, type EntityRow } from '@mizan/ui';
import { hearingRoll, type HearingRow } from './hearings';

export interface HearingRollProps {
  /** The day (`YYYY-MM-DD`). */
  day: string;
  rows: HearingRow[] | undefined;
  loading: boolean;
  failed: boolean;
  /** The open deadlines falling due that day (none: the user may not see deadlines). */
  deadlines?: EntityRow[] | undefined;
  onBack: () => void;
}

/**
 * A day's hearing roll, the list a lawyer carries to court: the office's name and the day in both
 * calendars at the top, then the hearings by time with court and circuit, file and case numbers,
 * parties, session type, what is required and the lawyer; then the deadlines falling due that
 * day (what is due, the file, the legal basis, the lawyer), the last day to act. Printing shows this sheet alone
 * (`PrintCopy`, `calendar.css`).
 */
export function HearingRoll({ day, rows, loading, failed, deadlines, onBack }: HearingRollProps) {
  const { t, i18n } = useTranslation(['legal', 'entities']);
  const lng = i18n.language;
  const direction = useContext(ConfigProvider.ConfigContext).direction ?? 'rtl';
  const settings = useAtomValue(systemSettingsAtom, { store: sdkStore });
  const date = new Date(`${day}T12:00:00`);
  const gregorian = new Intl.DateTimeFormat(lng === 'ar' ? 'ar-EG' : 'en-GB', {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
  }).format(date);
  const lines = rows ? hearingRoll(rows, day) : [];
  const digits = (text: string) => localizeDigits(text, lng);
  const due = (deadlines ?? []).filter((row) => row.state === 'open');
  const refName = (row: EntityRow, field: 'lawsuitId' | 'lawyerId') =>
    refLabels(row, field, deadlinesEntity.fields[field])[0]?.name ?? '';
  const BackIcon = direction === 'rtl' ? ArrowRightOutlined : ArrowLeftOutlined;

  const sheet = (
    <section className="mizan-hearing-roll" aria-label={t('calendar.roll.title')}>
      <header className="mizan-hearing-roll-head">
        {settings?.officeName && <div className="mizan-hearing-roll-office">{settings.officeName}</div>}
        <h1>{t('calendar.roll.title')}</h1>
        {/* Two lines, not a separator: a dot between Arabic-Indic figures reads as a zero. */}
        <div className="mizan-hearing-roll-date">{gregorian}</div>
        <div className="mizan-hearing-roll-date">{formatHijri(date, lng)}</div>
      </header>
      {failed && <Alert type="error" showIcon title={t('calendar.loadError')} />}
      {loading && !rows ? (
        <Spin />
      ) : lines.length === 0 ? (
        <Empty description={t('calendar.roll.empty')} />
      ) : (
        <table className="mizan-hearing-roll-table">
          <thead>
            <tr>
              <th>#</th>
              <th>{t('entities:sessions.fields.time')}</th>
              <th>{t('calendar.roll.courtAndCircuit')}</th>
              <th>{t('entities:lawsuits.fields.fileNumber')}</th>
              <th>{t('calendar.roll.caseNumber')}</th>
              <th>{t('entities:lawsuits.fields.customerIds')}</th>
              <th>{t('entities:lawsuits.fields.opponentIds')}</th>
              <th>{t('entities:sessions.fields.sessionTypeId')}</th>
              <th>{t('entities:sessions.fields.requirements')}</th>
              <th>{t('entities:sessions.fields.lawyerId')}</th>
            </tr>
          </thead>
          <tbody>
            {lines.map((line, i) => (
              <tr key={line.id}>
                <td>{digits(String(i + 1))}</td>
                <td className="mizan-nowrap">{line.time ? digits(line.time) : t('calendar.allDay')}</td>
                <td>
                  {line.court}
                  {line.circuit && <div className="mizan-hearing-roll-sub">{line.circuit}</div>}
                </td>
                <td className="mizan-nowrap">
                  <bdi>{line.fileNumber}</bdi>
                </td>
                <td className="mizan-nowrap">
                  <bdi>{line.caseNumber}</bdi>
                </td>
                <td>{line.clients.join(t('calendar.separator'))}</td>
                <td>{line.opponents.join(t('calendar.separator'))}</td>
                <td>{line.sessionType}</td>
                <td className="mizan-prewrap">{line.requirements}</td>
                <td>{line.lawyer}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {due.length > 0 && (
        <>
          <h2 className="mizan-hearing-roll-subtitle">{t('calendar.roll.deadlines')}</h2>
          <table className="mizan-hearing-roll-table" data-testid="roll-deadlines">
            <thead>
              <tr>
                <th>#</th>
                <th>{t('entities:deadlines.fields.action')}</th>
                <th>{t('entities:lawsuits.fields.fileNumber')}</th>
                <th>{t('entities:deadlines.fields.legalBasis')}</th>
                <th>{t('entities:deadlines.fields.lawyerId')}</th>
              </tr>
            </thead>
            <tbody>
              {due.map((row, i) => (
                <tr key={row.id}>
                  <td>{digits(String(i + 1))}</td>
                  <td>{t(`entities:deadlines.values.action.${String(row.action)}`)}</td>
                  <td className="mizan-nowrap">
                    <bdi>{refName(row, 'lawsuitId')}</bdi>
                  </td>
                  <td className="mizan-prewrap">
                    {typeof row.legalBasis === 'string' ? row.legalBasis : ''}
                  </td>
                  <td>{refName(row, 'lawyerId')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );

  return (
    <div className="mizan-hearing-roll-page">
      <Flex gap="small" justify="space-between" style={{ marginBottom: 16 }}>
        <Button icon={<BackIcon />} onClick={onBack}>
          {t('calendar.roll.back')}
        </Button>
        <Flex gap="small" wrap="wrap">
          <BatchDocumentsButton entity={sessions} ids={lines.map((line) => line.id)} />
          <Button type="primary" icon={<PrinterOutlined />} onClick={() => window.print()} disabled={loading}>
            {t('calendar.roll.print')}
          </Button>
        </Flex>
      </Flex>
      {sheet}
      <PrintCopy>{sheet}</PrintCopy>
    </div>
  );
}

/**
 * What printing shows: a copy of the sheet directly under `<body>`, where the print stylesheet can
 * hide every sibling (the host's chrome, whatever it is) and show this alone. Hidden on screen and
 * from assistive technology (the sheet on screen is the one read).
 */
function PrintCopy({ children }: { children: ReactNode }) {
  return createPortal(
    <div className="mizan-print-only" aria-hidden="true">
      {children}
    </div>,
    document.body,
  );
}
