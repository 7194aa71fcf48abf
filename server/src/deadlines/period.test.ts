import { HOLIDAY_SEEDS } from './migrations';
import {
  addPeriod,
  fromHijri,
  hijriMonthLength,
  OutOfCalendarError,
  plusMonths,
  toHijri,
  workingCalendar,
  type HolidayRule,
  type Period,
} from './period';

const seeded = (country: 'EG' | 'SA'): HolidayRule[] =>
  HOLIDAY_SEEDS[country].map(([name, kind, month, day, days]) => ({
    name,
    kind,
    month,
    day,
    date: null,
    days,
  }));
/** Saudi Arabia's holidays and the Friday-Saturday weekend. */
const SA = workingCalendar([5, 6], seeded('SA'));
/** No day off at all: the arithmetic alone. */
const PLAIN = workingCalendar([], []);

const days = (amount: number, shift: Period['shift'] = 'next'): Period => ({
  amount,
  unit: 'days',
  calendar: 'gregorian',
  shift,
});
const months = (amount: number, calendar: Period['calendar'], shift: Period['shift'] = 'next'): Period => ({
  amount,
  unit: 'months',
  calendar,
  shift,
});

describe('the Umm al-Qura table as the converter gives it', () => {
  it('knows the month lengths and the days of 1447', () => {
    // Ramadan 1447 has 30 days, Shawwal 29; 1 Shawwal is Friday 20 March 2026.
    expect([hijriMonthLength(1447, 9), hijriMonthLength(1447, 10)]).toEqual([30, 29]);
    expect(fromHijri({ year: 1447, month: 10, day: 1 })).toBe('2026-03-20');
    expect(fromHijri({ year: 1447, month: 10, day: 30 })).toBeNull();
    expect(toHijri('2026-05-27')).toEqual({ year: 1447, month: 12, day: 10 });
  });
});

describe('addPeriod', () => {
  it.each([
    // [case, from, period, calendar, due, dueHijri, shiftedFrom, skipped]
    ['days within a month', '2026-03-01', days(10), PLAIN, '2026-03-11', '1447-09-22', undefined, []],
    ['days across a year', '2026-12-15', days(30), SA, '2027-01-14', '1448-08-06', undefined, []],
    [
      'a due date on a weekend moves to Sunday',
      '2026-03-01',
      days(5),
      SA,
      '2026-03-08',
      '1447-09-19',
      '2026-03-06',
      [
        { date: '2026-03-06', reason: 'weekend' },
        { date: '2026-03-07', reason: 'weekend' },
      ],
    ],
    [
      'a due date on a weekend moves back to Thursday',
      '2026-03-01',
      days(5, 'previous'),
      SA,
      '2026-03-05',
      '1447-09-16',
      '2026-03-06',
      [{ date: '2026-03-06', reason: 'weekend' }],
    ],
    [
      'a weekend day kept without shift',
      '2026-03-01',
      days(5, 'none'),
      SA,
      '2026-03-06',
      '1447-09-17',
      undefined,
      [],
    ],
    [
      'a due date on Eid al-Fitr passes the three days of Eid',
      '2026-03-11',
      days(10),
      SA,
      '2026-03-23',
      '1447-10-04',
      '2026-03-21',
      [
        { date: '2026-03-21', reason: 'holiday', holiday: 'عيد الفطر' },
        { date: '2026-03-22', reason: 'holiday', holiday: 'عيد الفطر' },
      ],
    ],
    [
      'a due date on the day of Arafah passes Eid al-Adha and its weekend',
      '2026-05-16',
      days(10),
      SA,
      '2026-05-31',
      '1447-12-14',
      '2026-05-26',
      [
        { date: '2026-05-26', reason: 'holiday', holiday: 'يوم عرفة' },
        { date: '2026-05-27', reason: 'holiday', holiday: 'عيد الأضحى' },
        { date: '2026-05-28', reason: 'holiday', holiday: 'عيد الأضحى' },
        { date: '2026-05-29', reason: 'holiday', holiday: 'عيد الأضحى' },
        { date: '2026-05-30', reason: 'holiday', holiday: 'عيد الأضحى' },
      ],
    ],
    // 30 Ramadan + 1 Hijri month: Shawwal 1447 has 29 days, so its last day (a Friday).
    [
      'a Hijri month from 30 Ramadan ends on 29 Shawwal',
      '2026-03-19',
      months(1, 'hijri', 'none'),
      SA,
      '2026-04-17',
      '1447-10-29',
      undefined,
      [],
    ],
    [
      'the same, shifted off its Friday and Saturday',
      '2026-03-19',
      months(1, 'hijri'),
      SA,
      '2026-04-19',
      '1447-11-02',
      '2026-04-17',
      [
        { date: '2026-04-17', reason: 'weekend' },
        { date: '2026-04-18', reason: 'weekend' },
      ],
    ],
    // 15 Dhu al-Hijjah 1447 + 2 Hijri months: 15 Safar 1448, in the next Hijri year.
    [
      'Hijri months across the Hijri year',
      '2026-06-01',
      months(2, 'hijri'),
      SA,
      '2026-07-29',
      '1448-02-15',
      undefined,
      [],
    ],
    [
      'a Gregorian month from 31 January ends on 28 February',
      '2026-01-31',
      months(1, 'gregorian', 'none'),
      PLAIN,
      '2026-02-28',
      '1447-09-11',
      undefined,
      [],
    ],
    [
      'and on 29 February in a leap year',
      '2028-01-31',
      months(1, 'gregorian', 'none'),
      PLAIN,
      '2028-02-29',
      '1449-10-04',
      undefined,
      [],
    ],
    [
      'twelve Gregorian months across a year',
      '2026-11-10',
      months(12, 'gregorian', 'none'),
      PLAIN,
      '2027-11-10',
      '1449-06-11',
      undefined,
      [],
    ],
  ])('%s', (_case, from, period, calendar, due, dueHijri, shiftedFrom, skipped) => {
    const result = addPeriod(from, period, calendar);
    expect(result).toEqual({ due, dueHijri, ...(shiftedFrom ? { shiftedFrom } : {}), skipped });
    // The Hijri day answered is the due day's.
    expect(
      fromHijri({ year: +dueHijri.slice(0, 4), month: +dueHijri.slice(5, 7), day: +dueHijri.slice(8) }),
    ).toBe(due);
  });

  it('counts Hijri months differently from Gregorian ones', () => {
    // Twelve lunar months are eleven days short of a solar year.
    expect(plusMonths('2026-03-20', 12, 'hijri')).toBe('2027-03-09');
    expect(plusMonths('2026-03-20', 12, 'gregorian')).toBe('2027-03-20');
  });

  it('refuses a Hijri count beyond the Umm al-Qura table', () => {
    expect(() => addPeriod('2077-01-01', months(12, 'hijri'), PLAIN)).toThrow(OutOfCalendarError);
  });

  it("takes Egypt's holidays for Egypt: 23 July", () => {
    const EG = workingCalendar([5, 6], seeded('EG'));
    expect(addPeriod('2026-07-13', days(10), EG)).toEqual({
      due: '2026-07-26',
      dueHijri: expect.any(String),
      shiftedFrom: '2026-07-23',
      skipped: [
        { date: '2026-07-23', reason: 'holiday', holiday: 'عيد ثورة 23 يوليو' },
        { date: '2026-07-24', reason: 'weekend' },
        { date: '2026-07-25', reason: 'weekend' },
      ],
    });
    // Saudi Arabia works that day.
    expect(addPeriod('2026-07-13', days(10), SA).due).toBe('2026-07-23');
  });
});
