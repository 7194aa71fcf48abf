import { collectionRate, lawsuitFeeFigures } from './legal';

describe('collection rate', () => {
  it('is paid as a whole percentage of the agreed fee, halves up', () => {
    expect(collectionRate(1, 3)).toBe(33);
    expect(collectionRate(2, 3)).toBe(67);
    expect(collectionRate(1, 8)).toBe(13); // 12.5
    expect(collectionRate(3, 8)).toBe(38); // 37.5
    expect(collectionRate(1249, 10_000)).toBe(12); // 12.49
    expect(collectionRate(0, 100)).toBe(0);
    expect(collectionRate(100, 100)).toBe(100);
  });

  it('reads 100 only when nothing is pending and 0 only when nothing is paid', () => {
    expect(collectionRate(995, 1000)).toBe(99); // 99.5
    expect(collectionRate(999_999, 1_000_000)).toBe(99);
    expect(collectionRate(4, 1000)).toBe(1); // 0.4
    expect(collectionRate(1, 999_999_999_999_999)).toBe(1);
  });

  it('goes above 100 when overpaid and is null without an agreed fee', () => {
    expect(collectionRate(1100, 1000)).toBe(110);
    expect(collectionRate(1001, 1000)).toBe(100);
    expect(collectionRate(50, 0)).toBeNull();
  });

  it('is exact for the largest amounts (no float on the way)', () => {
    const max = 999_999_999_999_999;
    expect(collectionRate(max - 1, max)).toBe(99);
    expect(collectionRate(Math.floor(max / 2) + 1, max)).toBe(50);
  });
});

describe('lawsuit fee figures', () => {
  it('pending and overpaid never go below zero; no fee recorded counts as zero', () => {
    expect(lawsuitFeeFigures(100_000, 33_333)).toEqual({
      agreedFee: 100_000,
      paid: 33_333,
      pending: 66_667,
      overpaid: 0,
      collectionRate: 33,
    });
    expect(lawsuitFeeFigures(100, 150)).toEqual({
      agreedFee: 100,
      paid: 150,
      pending: 0,
      overpaid: 50,
      collectionRate: 150,
    });
    expect(lawsuitFeeFigures(null, 0)).toEqual({
      agreedFee: 0,
      paid: 0,
      pending: 0,
      overpaid: 0,
      collectionRate: null,
    });
  });
});
