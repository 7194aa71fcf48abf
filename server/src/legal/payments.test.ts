import { API_BASE, MONEY_MAX, lawsuitPayments, type LawsuitFees, LEGAL_ROUTES } from '@mizan/contracts';
import { countRows, createRow, createUserWith, entityUrl } from '../test/fixtures';
import { createTestApp, dialects, type Session, type TestApp } from '../test/harness';

type Row = Record<string, unknown> & { id: number; updatedAt: string };

const url = entityUrl(lawsuitPayments);
const feesUrl = (id: number | string) => API_BASE + LEGAL_ROUTES.lawsuitFees.path.replace(':id', String(id));

describe.each(dialects())('lawsuit fees and payments on %s', (dialect) => {
  let t: TestApp;
  let admin: Session;
  let client: number;

  const h = (lang = 'en') => ({ ...admin.headers, 'accept-language': lang });
  const count = (table: string) => countRows(t.app, table);
  /** A lawsuit with this agreed fee (minor units; null: none recorded). */
  const lawsuit = async (agreedFee: number | null) => {
    const res = await t.app.inject({
      method: 'POST',
      url: entityUrl('lawsuits'),
      headers: h(),
      payload: { customerIds: [client], agreedFee },
    });
    expect([res.statusCode, res.json().errors]).toEqual([201, undefined]);
    return res.json().data.id as number;
  };
  const pay = (lawsuitId: number, amount: unknown, extra: Record<string, unknown> = {}, lang = 'en') =>
    t.app.inject({
      method: 'POST',
      url,
      headers: h(lang),
      payload: { lawsuitId, amount, paidOn: '2026-03-01', method: 'cash', ...extra },
    });
  const paid = async (lawsuitId: number, amount: number, extra: Record<string, unknown> = {}) => {
    const res = await pay(lawsuitId, amount, extra);
    expect([res.statusCode, res.json().errors]).toEqual([201, undefined]);
    return res.json().data as Row;
  };
  const fees = async (lawsuitId: number, headers = h()) => {
    const res = await t.app.inject({ method: 'GET', url: feesUrl(lawsuitId), headers });
    expect(res.statusCode).toBe(200);
    return res.json().data as LawsuitFees;
  };

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    admin = await t.login();
    client = (await createRow(t.app, admin.headers, 'customers')).id;
  });
  afterAll(() => t.close());

  it('paid, pending and collection rate are exact integers of minor units', async () => {
    const id = await lawsuit(100_000); // 1,000.00
    expect(await fees(id)).toEqual({
      agreedFee: 100_000,
      paid: 0,
      pending: 100_000,
      overpaid: 0,
      collectionRate: 0,
    });
    const first = await paid(id, 33_333, { receiptNumber: '٤٥٦', method: 'bankTransfer' });
    expect(first).toMatchObject({
      amount: 33_333,
      receiptNumber: '456',
      method: 'bankTransfer',
      overpayment: false,
    });
    expect(await fees(id)).toEqual({
      agreedFee: 100_000,
      paid: 33_333,
      pending: 66_667,
      overpaid: 0,
      collectionRate: 33,
    });
    await paid(id, 12_500);
    // 45.833% → 46 (to the nearest percent)
    expect(await fees(id)).toMatchObject({ paid: 45_833, pending: 54_167, collectionRate: 46 });
    await paid(id, 53_667);
    // 99.5% is still not all: 99, with 500 pending
    expect(await fees(id)).toMatchObject({ paid: 99_500, pending: 500, collectionRate: 99 });
    await paid(id, 500);
    expect(await fees(id)).toEqual({
      agreedFee: 100_000,
      paid: 100_000,
      pending: 0,
      overpaid: 0,
      collectionRate: 100,
    });

    // Ten-piastre and twenty-piastre payments sum exactly (no 0.1 + 0.2 float drift).
    const small = await lawsuit(30);
    await paid(small, 10);
    await paid(small, 20);
    expect(await fees(small)).toEqual({
      agreedFee: 30,
      paid: 30,
      pending: 0,
      overpaid: 0,
      collectionRate: 100,
    });
    // The largest amounts stay exact.
    const big = await lawsuit(MONEY_MAX);
    await paid(big, MONEY_MAX - 1);
    expect(await fees(big)).toMatchObject({ paid: MONEY_MAX - 1, pending: 1, collectionRate: 99 });
    await paid(big, 1);
    expect(await fees(big)).toMatchObject({ paid: MONEY_MAX, pending: 0, collectionRate: 100 });
  });

  it('an amount of zero, a fraction of the smallest unit or text is 422 on amount', async () => {
    const id = await lawsuit(100_000);
    const before = await count('lawsuit_payments');
    for (const amount of [0, -5, 12.5, 'abc', null]) {
      const res = await pay(id, amount);
      expect([amount, res.statusCode, Object.keys(res.json().errors ?? {})]).toEqual([
        amount,
        422,
        ['amount'],
      ]);
    }
    expect(await count('lawsuit_payments')).toBe(before);
  });

  it('a payment beyond the agreed fee is 422 on amount unless marked as an overpayment', async () => {
    const id = await lawsuit(100_000);
    await paid(id, 80_000);
    const audit = await count('audit_log');
    const res = await pay(id, 20_001);
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({
      amount: [
        'This payment would make the paid total exceed the agreed fee (1000.00; paid so far 800.00, remaining 200.00): lower Amount or mark it as an overpayment',
      ],
    });
    const ar = await pay(id, 20_001, {}, 'ar');
    expect(ar.json().errors.amount[0]).toContain('200.00');
    expect(await count('audit_log')).toBe(audit);
    expect(await fees(id)).toMatchObject({ paid: 80_000, pending: 20_000 });

    const over = await paid(id, 30_000, { overpayment: true });
    expect(over.overpayment).toBe(true);
    expect(await fees(id)).toEqual({
      agreedFee: 100_000,
      paid: 110_000,
      pending: 0,
      overpaid: 10_000,
      collectionRate: 110,
    });

    // A lawsuit without an agreed fee takes overpayments only.
    const none = await lawsuit(null);
    const refused = await pay(none, 100);
    expect([refused.statusCode, refused.json().errors.amount[0]]).toEqual([
      422,
      'The lawsuit has no agreed fee recorded: record the fee first, or mark this payment as an overpayment',
    ]);
    await paid(none, 100, { overpayment: true });
    expect(await fees(none)).toEqual({
      agreedFee: 0,
      paid: 100,
      pending: 0,
      overpaid: 100,
      collectionRate: null,
    });
  });

  it('on update the payment itself is left out of the total; raising it past the fee is 422', async () => {
    const id = await lawsuit(100_000);
    await paid(id, 40_000);
    const row = await paid(id, 60_000);
    const patch = (payload: Record<string, unknown>, current: Row) =>
      t.app.inject({
        method: 'PATCH',
        url: `${url}/${current.id}`,
        headers: h(),
        payload: { ...payload, updatedAt: current.updatedAt },
      });
    const same = await patch({ amount: 60_000, note: 'تصحيح' }, row);
    expect(same.statusCode).toBe(200);
    const current = same.json().data as Row;
    const raised = await patch({ amount: 60_001 }, current);
    expect([raised.statusCode, Object.keys(raised.json().errors)]).toEqual([422, ['amount']]);
    expect(await fees(id)).toMatchObject({ paid: 100_000 });
    const marked = await patch({ amount: 60_001, overpayment: true }, current);
    expect(marked.statusCode).toBe(200);
    // Unmarking it again while it exceeds: 422.
    const unmarked = await patch({ overpayment: false }, marked.json().data as Row);
    expect([unmarked.statusCode, Object.keys(unmarked.json().errors)]).toEqual([422, ['amount']]);
  });

  it('lowering the agreed fee below what was paid within it is 422 on agreedFee', async () => {
    const id = await lawsuit(100_000);
    await paid(id, 70_000);
    const row = (
      await t.app.inject({ method: 'GET', url: `${entityUrl('lawsuits')}/${id}`, headers: h() })
    ).json().data as Row;
    const lower = (agreedFee: number | null, updatedAt: string) =>
      t.app.inject({
        method: 'PATCH',
        url: `${entityUrl('lawsuits')}/${id}`,
        headers: h(),
        payload: { agreedFee, updatedAt },
      });
    const res = await lower(69_999, row.updatedAt);
    expect([res.statusCode, res.json().errors]).toEqual([
      422,
      { agreedFee: [expect.stringContaining('700.00')] },
    ]);
    expect((await lower(null, row.updatedAt)).statusCode).toBe(422);
    const ok = await lower(70_000, row.updatedAt);
    expect(ok.statusCode).toBe(200);
    expect(await fees(id)).toMatchObject({ agreedFee: 70_000, pending: 0, collectionRate: 100 });
  });

  it('lawsuit rows carry their fee figures for readers of payments, and only for them', async () => {
    const a = await lawsuit(200_000);
    const b = await lawsuit(null);
    await paid(a, 50_000);
    const list = await t.app.inject({
      method: 'GET',
      url: `${entityUrl('lawsuits')}?pageSize=100`,
      headers: h(),
    });
    const items = list.json().data.items as (Row & { fees: LawsuitFees })[];
    expect(items.find((r) => r.id === a)!.fees).toEqual({
      agreedFee: 200_000,
      paid: 50_000,
      pending: 150_000,
      overpaid: 0,
      collectionRate: 25,
    });
    expect(items.find((r) => r.id === b)!.fees).toMatchObject({
      agreedFee: 0,
      paid: 0,
      collectionRate: null,
    });

    const reader = await createUserWith(t.app, admin.headers, ['lawsuits.view']);
    const session = await t.login(reader.email, reader.password);
    const one = await t.app.inject({
      method: 'GET',
      url: `${entityUrl('lawsuits')}/${a}`,
      headers: session.headers,
    });
    expect(one.statusCode).toBe(200);
    expect(one.json().data.fees).toBeUndefined();
    expect(
      (await t.app.inject({ method: 'GET', url: feesUrl(a), headers: session.headers })).statusCode,
    ).toBe(403);
    for (const bad of ['999999', 'x'])
      expect((await t.app.inject({ method: 'GET', url: feesUrl(bad), headers: h() })).statusCode).toBe(404);
  });

  it('payments written at the same moment cannot together exceed the agreed fee', async () => {
    for (let round = 0; round < 5; round++) {
      const id = await lawsuit(100_000);
      const answers = await Promise.all([pay(id, 60_000), pay(id, 60_000), pay(id, 30_000)]);
      const codes = answers.map((r) => r.statusCode).sort();
      // The 30,000 always fits with one 60,000, never with both.
      expect(codes).toEqual([201, 201, 422]);
      const figures = await fees(id);
      expect(figures.paid).toBe(90_000);
      expect(figures.paid).toBeLessThanOrEqual(figures.agreedFee);
    }
  });
});
