import { amountForMinutes, formatDuration, parseDuration } from './duration';

describe('parseDuration: h:mm or decimal hours as typed → minutes, exactly', () => {
  it.each([
    ['1:30', 90],
    ['0:05', 5],
    ['12:00', 720],
    ['24:00', 1440],
    ['١:٣٠', 90],
    ['۲:۱۵', 135],
    ['1.5', 90],
    ['1,5', 90],
    ['١٫٥', 90],
    ['0.25', 15],
    ['.5', 30],
    ['0.1', 6],
    ['2', 120],
    [' 0.75 ', 45],
    ['1.50', 90],
  ])('%j → %s', (text, minutes) => {
    expect(parseDuration(text)).toBe(minutes);
  });

  it.each([['1:60'], ['1:5'], [':30'], ['0.01'], ['1.333'], ['abc'], [''], ['-1'], ['1:30:00'], ['1e2']])(
    'refuses %j',
    (text) => {
      expect(parseDuration(text)).toBeNull();
    },
  );
});

describe('formatDuration and amountForMinutes', () => {
  it.each([
    [90, '1:30'],
    [5, '0:05'],
    [1440, '24:00'],
    [0, '0:00'],
  ])('%s minutes read %s', (minutes, text) => {
    expect(formatDuration(minutes)).toBe(text);
  });

  it.each([
    [90, 20_000, 30_000],
    [45, 50_000, 37_500],
    [90, 10_001, 15_002], // 150.015 → 150.02 (half up)
    [1, 100, 2], // 1.666… → 2
    [1, 89, 1], // 1.483… → 1
    [60, 0, 0],
  ])('%s minutes at %s an hour come to %s', (minutes, rate, amount) => {
    expect(amountForMinutes(minutes, rate)).toBe(amount);
  });
});
