import { NATIONAL_ID_LENGTH } from '@mizan/contracts';
import { readCount } from '../db/counts';
import { readFilterCount } from '../db/migrations';
import { countRows } from '../test/fixtures';
import { createTestApp, dialects, type Session, type TestApp } from '../test/harness';
import { statementsOf } from '../test/statements';
import { keptAndRecounted } from '../test/stats';

// A project's `testTimeout` is ignored when Jest runs several projects: set it here (app start-up on a busy machine).
jest.setTimeout(90_000);

// What a lawsuit's create writes inside its transaction (docs/performance.md, "Writes under load"):
// under load every statement there is time the next create waits for (SQLite runs one write at a
// time; on PostgreSQL the kept totals' rows written before the commit are held until it).

let serial = 0;
const nationalId = () => `2900101${String(++serial).padStart(NATIONAL_ID_LENGTH - 7, '0')}`;

describe.each(dialects())('a lawsuit create under load on %s', (dialect) => {
  let t: TestApp;
  let admin: Session;
  const ids: Record<string, number> = {};
  const create = async (path: string, body: object) => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api${path}`,
      headers: admin.headers,
      payload: body,
    });
    if (res.statusCode !== 201) throw new Error(`${path}: ${res.statusCode} ${res.body}`);
    return res.json().data as { id: number } & Record<string, unknown>;
  };
  const lawsuit = (n: number) => ({
    customerIds: [ids.customer],
    lawyerIds: [admin.user.id],
    courtId: ids.court,
    branchId: ids.branch,
    agreedFee: 100_000 + n,
    filingDate: `2026-0${1 + (n % 9)}-10`,
    subject: `مطالبة ${n}`,
  });

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    admin = await t.login();
    ids.court = (await create('/admin/settings/courts/courts', { name: 'محكمة الحمل' })).id;
    ids.branch = (await create('/admin/settings/offices/branches', { name: 'فرع الحمل' })).id;
    ids.customer = (await create('/admin/customers', { name: 'موكل الحمل', nationalId: nationalId() })).id;
    await create('/admin/lawsuits', lawsuit(0));
  });
  afterAll(() => t?.close());

  it('sends few statements: the aggregates in one, links written with the row and not read back, the row total once, references in one', async () => {
    const statements = await statementsOf(() => create('/admin/lawsuits', lawsuit(1)));
    /** The statements that write `table` (alone or as a part of a statement). */
    const writing = (table: string) =>
      statements.filter((s) => new RegExp(`(insert into|update|delete from) "${table}"[ (]`).test(s));
    // About twenty aggregate rows (month, year and all time; the branch and every branch; the
    // lawsuit, its court, its lawyer): one upsert, not one per row.
    expect(writing('dashboard_stats')).toHaveLength(1);
    // A new row has no links to replace, and its links are known without reading them.
    expect(statements.filter((s) => /delete from "lawsuits_/.test(s))).toEqual([]);
    expect(statements.filter((s) => /as "field", "owner_id", "ref_id"/.test(s))).toEqual([]);
    expect(writing('lawsuits_customer_ids')).toHaveLength(1);
    expect(writing('lawsuits_lawyer_ids')).toHaveLength(1);
    expect(writing('entity_counts')).toHaveLength(1);
    // The settings (the power-of-attorney check, the office's year) are those kept at the version
    // read with the session: the create before this one read them.
    expect(statements.filter((s) => /from "system_settings"/.test(s))).toEqual([]);
    // The court, branch, client and lawyer it names are checked in one statement, which reads the
    // titles that name them in the answer: nothing reads them again.
    const referenceChecks = statements.filter((s) =>
      /as "target", "id", cast\("name" as text\) as "title" from "/.test(s),
    );
    expect(referenceChecks).toHaveLength(1);
    for (const table of ['courts', 'branches', 'customers', 'employees']) {
      expect(referenceChecks[0]).toContain(`from "${table}"`);
      expect(statements.filter((s) => s.includes(`from "${table}"`))).toHaveLength(1);
    }
    // A new lawsuit has no payments: its fees are answered without reading them.
    expect(statements.filter((s) => /from "payments"/.test(s))).toEqual([]);
    // The file number: the year's counter (SQLite's row, PostgreSQL's sequence) and one look-up,
    // no reading of the largest number.
    const numbers = statements.filter((s) => /^insert into "number_counters"|mizan_take_numbers\(/.test(s));
    expect(numbers).toHaveLength(1);
    expect(statements.filter((s) => /order by length\("file_number"\)/.test(s))).toEqual([]);
    if (dialect === 'postgres') {
      // Each round trip is a turn of the server's thread and of a backend: the number with its
      // look-up, the row with its links, and the audit entry with the kept totals go as one
      // statement each: with the session and the reference check, five besides begin and commit.
      expect(numbers[0]).toMatch(/exists \(select 1 from "lawsuits" where "file_number"/);
      expect(statements.filter((s) => /"file_number" in \(/.test(s))).toEqual([]);
      expect(writing('lawsuits')[0]).toBe(writing('lawsuits_customer_ids')[0]);
      expect(writing('lawsuits')[0]).toBe(writing('lawsuits_lawyer_ids')[0]);
      expect(writing('dashboard_stats')[0]).toBe(writing('audit_log')[0]);
      expect(writing('dashboard_stats')[0]).toBe(writing('entity_counts')[0]);
      expect(statements.length).toBeLessThanOrEqual(5);
    }
  });

  it('keeps every total exact through concurrent creates', async () => {
    const before = Number(await readCount(t.app.db, 'lawsuits'));
    const answers = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        t.app.inject({
          method: 'POST',
          url: '/api/admin/lawsuits',
          headers: admin.headers,
          payload: lawsuit(10 + i),
        }),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(answers.map(() => 201));
    const fileNumbers = answers.map((a) => a.json().data.fileNumber as string);
    expect(new Set(fileNumbers).size).toBe(24);

    const table = await countRows(t.app, 'lawsuits');
    expect(table).toBe(before + 24);
    expect(await readCount(t.app.db, 'lawsuits')).toBe(table);
    expect(await readFilterCount(t.app.db, 'lawsuits', ['courtId', 'state'], [ids.court, 'active'])).toBe(
      table,
    );
    const { kept, recounted } = await keptAndRecounted(t.app.db, t.dialect);
    expect(kept).toEqual(recounted);
  });

  it('hands out no number twice while typed numbers raise the counter among concurrent creates', async () => {
    const post = (body: object) =>
      t.app.inject({ method: 'POST', url: '/api/admin/lawsuits', headers: admin.headers, payload: body });
    const first = (await post(lawsuit(40))).json().data.fileNumber as string;
    const [year, digits] = first.split('/') as [string, string];
    const typed = (ahead: number) => `${year}/${String(Number(digits) + ahead).padStart(digits.length, '0')}`;
    // Typed numbers a few ahead of the counter, among creates taking the next ones.
    const answers = await Promise.all([
      ...Array.from({ length: 12 }, (_, i) => post(lawsuit(41 + i))),
      post({ ...lawsuit(60), fileNumber: typed(4) }),
      post({ ...lawsuit(61), fileNumber: typed(9) }),
    ]);
    // A typed number a generated one took first is refused as taken; nothing else fails.
    answers.forEach((a, i) => expect(i < 12 ? [201] : [201, 409]).toContain(a.statusCode));
    const stored = answers.filter((a) => a.statusCode === 201).map((a) => a.json().data.fileNumber as string);
    expect(new Set(stored).size).toBe(stored.length);
    // The next generated number comes after every number stored.
    const next = (await post(lawsuit(62))).json().data.fileNumber as string;
    const n = (fileNumber: string) => Number(fileNumber.split('/')[1]);
    expect(n(next)).toBeGreaterThan(Math.max(...stored.map(n)));
  });
});
