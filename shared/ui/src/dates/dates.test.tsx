import { act, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App, ConfigProvider, Form } from 'antd';
import arEG from 'antd/locale/ar_EG';
import { i18n } from '@mizan/i18n';
import { sdkStore, systemSettingsAtom, type SystemSettings } from '@mizan/sdk';
import type { Dayjs } from 'dayjs';
import { DateInput, isUnreadableDate } from './DateInput';
import { parseTypedDate, typedDateFormats } from './typedDate';
import { DualDate } from './DualDate';
import { dayjs, parseDateValue, toDateValue } from './dayjs';
import { exportDate, formatDateParts, formatDateText, localizeDigits } from './format';
import { formatHijri, fromHijri, hijriMonthLength, hijriMonthNames, toHijri } from './hijri';

const settings = (calendar: 'hijri' | 'gregorian') => ({ calendar }) as SystemSettings;

afterEach(async () => {
  act(() => sdkStore.set(systemSettingsAtom, null));
  await act(() => i18n.changeLanguage('ar'));
});

describe('Hijri calendar', () => {
  it('writes the Umm al-Qura date in Arabic with Arabic-Indic digits, and in English in English', () => {
    expect(formatHijri(new Date(2024, 4, 1, 12), 'ar')).toBe('٢٢ شوال ١٤٤٥ هـ');
    expect(formatHijri(new Date(2025, 2, 1, 12), 'ar')).toBe('١ رمضان ١٤٤٦ هـ');
    expect(formatHijri(new Date(2026, 10, 23, 12), 'en')).toBe('13 Jumada II 1448 AH');
    expect(formatHijri(new Date(2024, 4, 1, 12), 'en')).toBe('22 Shawwal 1445 AH');
  });

  it('converts both ways with the Umm al-Qura table (the same days Intl names)', () => {
    expect(toHijri(new Date(2024, 4, 1))).toEqual({ year: 1445, month: 10, day: 22 });
    expect(fromHijri({ year: 1448, month: 6, day: 13 })).toEqual(new Date(2026, 10, 23));
    expect(fromHijri({ year: 1445, month: 10, day: 30 })).toBeNull();
    expect(hijriMonthLength(1445, 10)).toBe(29);
    expect(hijriMonthLength(1445, 9)).toBe(30);
    for (const day of [new Date(2024, 0, 1), new Date(2025, 6, 15), new Date(2030, 11, 31)]) {
      const back = fromHijri(toHijri(day))!;
      expect(back).toEqual(day);
    }
    expect(hijriMonthNames('en')[5]).toBe('Jumada II');
    expect(hijriMonthNames('ar')[8]).toBe('رمضان');
  });
});

describe('date presentation', () => {
  it('puts the office calendar first, with the digits of the language', () => {
    expect(formatDateParts('2024-05-01', 'date', { lng: 'ar', calendar: 'hijri' })).toEqual({
      primary: '٢٢ شوال ١٤٤٥ هـ',
      secondary: '٥/١/٢٠٢٤',
      calendar: 'hijri',
    });
    expect(formatDateParts('2024-05-01', 'date', { lng: 'en', calendar: 'gregorian' })).toEqual({
      primary: '5/1/2024',
      secondary: '22 Shawwal 1445 AH',
      calendar: 'gregorian',
    });
    const instant = new Date(2024, 4, 1, 9, 30).toISOString();
    expect(formatDateParts(instant, 'datetime', { lng: 'ar', calendar: 'gregorian' })?.primary).toBe(
      '٥/١/٢٠٢٤ ٠٩:٣٠',
    );
    expect(formatDateParts(instant, 'datetime', { lng: 'en', calendar: 'hijri' })?.primary).toBe(
      '22 Shawwal 1445 AH 09:30',
    );
    expect(localizeDigits('M/D 10:45', 'en')).toBe('M/D 10:45');
  });

  it('shows a date field in both calendars, following the system setting and the language', async () => {
    const { rerender } = render(<DualDate value="2024-05-01" />);
    // Before the settings arrive: the server's default, Hijri first.
    expect(screen.getByText('٢٢ شوال ١٤٤٥ هـ')).toBeInTheDocument();
    expect(screen.getByText('٥/١/٢٠٢٤')).toBeInTheDocument();
    expect(document.querySelector('.mizan-dual-date')!.textContent).toBe('٢٢ شوال ١٤٤٥ هـ٥/١/٢٠٢٤');

    act(() => sdkStore.set(systemSettingsAtom, settings('gregorian')));
    expect(document.querySelector('.mizan-dual-date')!.textContent).toBe('٥/١/٢٠٢٤٢٢ شوال ١٤٤٥ هـ');

    await act(() => i18n.changeLanguage('en'));
    rerender(<DualDate value="2024-05-01" primaryOnly />);
    expect(screen.getByText('5/1/2024')).toBeInTheDocument();
    expect(screen.queryByText('22 Shawwal 1445 AH')).not.toBeInTheDocument();
    expect(document.querySelector('.mizan-dual-date')).toHaveAttribute('title', '22 Shawwal 1445 AH');
  });

  it('renders nothing for an empty or malformed value', () => {
    const { container } = render(
      <>
        <DualDate value={null} />
        <DualDate value="2024-13-45" />
      </>,
    );
    expect(container).toBeEmptyDOMElement();
  });

  it('keeps a date field a calendar day (no time-zone shift) through the picker', () => {
    const picked = parseDateValue('2024-12-31', 'date');
    expect(picked?.date()).toBe(31);
    expect(toDateValue(picked, 'date')).toBe('2024-12-31');
    expect(toDateValue(parseDateValue('2024-05-01T09:30:00.000Z', 'datetime'), 'datetime')).toBe(
      '2024-05-01T09:30:00.000Z',
    );
  });

  it('starts weeks on Sunday in Arabic and English, with Latin digits in the picker', () => {
    expect(dayjs().locale('ar').localeData().firstDayOfWeek()).toBe(0);
    expect(dayjs().locale('en').localeData().firstDayOfWeek()).toBe(0);
    expect(dayjs('2024-05-01').locale('ar').format('M/D/YYYY')).toBe('5/1/2024');
  });

  it('exports the text of the screen and a real date for spreadsheets', () => {
    expect(formatDateText('2024-05-01', 'date', { lng: 'ar', calendar: 'hijri' })).toBe(
      '٢٢ شوال ١٤٤٥ هـ (٥/١/٢٠٢٤)',
    );
    expect(formatDateText('', 'date')).toBe('');
    act(() => sdkStore.set(systemSettingsAtom, settings('gregorian')));
    const cell = exportDate('2024-05-01', 'date');
    expect(cell).toEqual({
      kind: 'date',
      type: 'date',
      value: new Date(Date.UTC(2024, 4, 1)),
      text: '٥/١/٢٠٢٤ (٢٢ شوال ١٤٤٥ هـ)',
    });
    expect(exportDate(null, 'datetime')).toBe('');
  });
});

function PickerForm({ onValue }: { onValue: (v: Dayjs | null) => void }) {
  return (
    <ConfigProvider direction="rtl" locale={arEG} virtual={false} wave={{ disabled: true }}>
      <App>
        <Form onValuesChange={(_, all: { day?: Dayjs | null }) => onValue(all.day ?? null)}>
          <Form.Item name="day" label="اليوم">
            <DateInput aria-label="تاريخ الجلسة" />
          </Form.Item>
        </Form>
      </App>
    </ConfigProvider>
  );
}

describe('DateInput', () => {
  it('shows one-letter weekday headers, weeks from Sunday, in the Arabic picker', async () => {
    render(<PickerForm onValue={() => undefined} />);
    fireEvent.mouseDown(screen.getByLabelText('تاريخ الجلسة'));
    fireEvent.click(screen.getByLabelText('تاريخ الجلسة'));
    const headers = [...document.querySelectorAll('.ant-picker-content thead th')].map(
      (th) => th.textContent,
    );
    expect(headers).toEqual(['ح', 'ن', 'ث', 'ر', 'خ', 'ج', 'س']);
  });

  it('takes a Hijri date and stores its Gregorian day', async () => {
    const user = userEvent.setup({ delay: null });
    let value: Dayjs | null = null;
    render(<PickerForm onValue={(v) => (value = v)} />);
    await user.click(screen.getByText('هجري'));
    await user.type(screen.getByLabelText('السنة'), '١٤٤٨');
    await user.click(screen.getByLabelText('الشهر'));
    await user.click(await screen.findByTitle('جمادى الآخرة'));
    await user.click(screen.getByLabelText('اليوم'));
    await user.click(await screen.findByTitle('13'));
    expect(value).not.toBeNull();
    expect(value!.format('YYYY-MM-DD')).toBe('2026-11-23');
    // The other calendar is shown as a check of what was typed.
    expect(screen.getByText('يوافق: ١١/٢٣/٢٠٢٦')).toBeInTheDocument();
  });

  it.each([
    ['11/01/2026', '2026-11-01'],
    ['١١/٠١/٢٠٢٦', '2026-11-01'],
    ['2026-11-01', '2026-11-01'],
    ['25.12.2026', '2026-12-25'],
  ])('reads %j typed and left as the day %s, never clearing it', async (typed, day) => {
    const user = userEvent.setup({ delay: null });
    let value: Dayjs | null = null;
    render(<PickerForm onValue={(v) => (value = v)} />);
    const input = screen.getByLabelText('تاريخ الجلسة');
    await user.click(input);
    await user.type(input, typed);
    await user.keyboard('{Enter}');
    await user.click(document.body);
    expect(value).not.toBeNull();
    expect(value!.format('YYYY-MM-DD')).toBe(day);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('keeps text that is no date, says so, and hands the form a value it refuses', async () => {
    const user = userEvent.setup({ delay: null });
    let value: Dayjs | null = null;
    render(<PickerForm onValue={(v) => (value = v)} />);
    const input = screen.getByLabelText('تاريخ الجلسة');
    await user.click(input);
    await user.type(input, '13/32/2026');
    await user.click(document.body);
    expect(await screen.findByRole('alert')).toHaveTextContent('لم يُقرأ «13/32/2026» تاريخًا');
    expect(input).toHaveValue('13/32/2026');
    expect(isUnreadableDate(value)).toBe(true);
    // Corrected: read, the message gone.
    await user.clear(input);
    await user.type(input, '12/31/2026');
    await user.click(document.body);
    expect(value!.format('YYYY-MM-DD')).toBe('2026-12-31');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});

describe('a date as typed', () => {
  it.each([
    // the picker's order, month/day/year, one or two digits
    ['11/1/2026', '2026-11-01'],
    ['11/01/2026', '2026-11-01'],
    ['1/11/2026', '2026-01-11'],
    ['01/11/2026', '2026-01-11'],
    // other separators
    ['11-01-2026', '2026-11-01'],
    ['11.01.2026', '2026-11-01'],
    // year first
    ['2026-11-01', '2026-11-01'],
    ['2026/1/5', '2026-01-05'],
    // a first number over 12 is a day
    ['25/12/2026', '2026-12-25'],
    ['31.1.2026', '2026-01-31'],
    // Arabic-Indic and Persian digits, the Arabic date separator, spaces around
    ['١١/٠١/٢٠٢٦', '2026-11-01'],
    ['۲۰۲۶-۱۱-۰۱', '2026-11-01'],
    [' 11/1/2026 ', '2026-11-01'],
  ])('%j → %s', (typed, day) => {
    const read = parseTypedDate(typed);
    expect(read.kind).toBe('date');
    expect(read.kind === 'date' && read.value.format('YYYY-MM-DD')).toBe(day);
  });

  it.each(['2/30/2026', '13/13/2026', '11/1/26', '2026-13-01', 'غدًا', '11/1/2026 10:00', '1/1/2026/1'])(
    '%j is unreadable, with the text as typed',
    (typed) => {
      expect(parseTypedDate(typed)).toEqual({ kind: 'unreadable', text: typed });
    },
  );

  it('gives the picker every layout, month first before day first', () => {
    const formats = typedDateFormats('M/D/YYYY', 'date');
    expect(formats[0]).toBe('M/D/YYYY');
    for (const [text, day] of [
      ['01/11/2026', '2026-01-11'],
      ['11/01/2026', '2026-11-01'],
      ['25-12-2026', '2026-12-25'],
    ]) {
      const format = formats.find((f) => dayjs(text, f, true).isValid());
      expect(dayjs(text, format, true).format('YYYY-MM-DD')).toBe(day);
    }
  });

  it('is empty when nothing is typed, and takes a time on a datetime', () => {
    expect(parseTypedDate('  ')).toEqual({ kind: 'empty' });
    const read = parseTypedDate('١١/١/٢٠٢٦ ٠٩:٣٠', 'datetime');
    expect(read.kind === 'date' && read.value.format('YYYY-MM-DD HH:mm')).toBe('2026-11-01 09:30');
    expect(parseTypedDate('11/1/2026 25:00', 'datetime').kind).toBe('unreadable');
  });
});
