import { render, screen } from '@testing-library/react';
import { DualDate } from './DualDate';
import { dayjs, parseDateValue, toDateValue } from './dayjs';
import { formatHijri } from './hijri';
import { formatDateText } from './format';

describe('dates', () => {
  it('writes the Umm al-Qura Hijri date in Arabic', () => {
    expect(formatHijri(new Date(2024, 4, 1, 12))).toBe('٢٢ شوال ١٤٤٥ هـ');
    expect(formatHijri(new Date(2025, 2, 1, 12))).toBe('١ رمضان ١٤٤٦ هـ');
  });

  it('shows a date field as M/D/YYYY with the Hijri date beside it', () => {
    render(<DualDate value="2024-05-01" />);
    expect(screen.getByText('5/1/2024')).toBeInTheDocument();
    expect(screen.getByText('٢٢ شوال ١٤٤٥ هـ')).toBeInTheDocument();
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

  it('exports both calendars as text', () => {
    expect(formatDateText('2024-05-01', 'date')).toBe('5/1/2024 (٢٢ شوال ١٤٤٥ هـ)');
    expect(formatDateText('', 'date')).toBe('');
  });
});
