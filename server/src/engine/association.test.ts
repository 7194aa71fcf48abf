import { defineEntity, referencesIn, registry, type Entity, type Fields } from '@mizan/contracts';
import { createRow, entityUrl } from '../test/fixtures';
import { createTestApp, dialects, type Session, type TestApp } from '../test/harness';
import { serveEntities } from './testEntities';

/**
 * A many-to-many link that carries data is an association entity: its own definition with two
 * `ref` fields and `uniqueTogether` over them (see `defineEntity`). This one, which judges sit in
 * which court and in what capacity, is served by the engine like any other entity.
 */
const courtJudges = defineEntity({
  name: 'courtJudges',
  path: '/admin/engine-tests/court-judges',
  remote: 'settings',
  titleField: 'capacity',
  menu: false,
  uniqueTogether: [['courtId', 'judgeId']],
  fields: {
    courtId: { type: 'ref', entity: 'courts', required: true },
    judgeId: { type: 'ref', entity: 'judges', required: true },
    capacity: { type: 'string', required: true, max: 100, search: true, sort: true },
    since: { type: 'date' },
  },
});
const ASSOCIATION = courtJudges as Entity<Fields>;

describe.each(dialects())('an association entity on %s', (dialect) => {
  let t: TestApp;
  let admin: Session;
  const url = entityUrl(ASSOCIATION);

  beforeAll(async () => {
    t = await createTestApp({ dialect, app: { entities: [ASSOCIATION] } });
    await serveEntities(t, [ASSOCIATION]);
    admin = await t.login();
  });
  afterAll(() => t.close());

  it('links two rows with data of its own, labels both sides, and refuses the same pair twice', async () => {
    const court = await createRow(t.app, admin.headers, 'courts');
    const judge = await createRow(t.app, admin.headers, 'judges');
    const created = await t.app.inject({
      method: 'POST',
      url,
      headers: admin.headers,
      payload: { courtId: court.id, judgeId: judge.id, capacity: 'رئيس الدائرة', since: '2026-01-10' },
    });
    expect(created.statusCode).toBe(201);
    expect(created.json().data).toMatchObject({
      courtId: court.id,
      court: { id: court.id, name: court.name },
      judgeId: judge.id,
      judge: { id: judge.id, name: judge.name },
      capacity: 'رئيس الدائرة',
      since: '2026-01-10',
    });

    const again = await t.app.inject({
      method: 'POST',
      url,
      headers: admin.headers,
      payload: { courtId: court.id, judgeId: judge.id, capacity: 'عضو' },
    });
    expect(again.statusCode).toBe(409);

    const list = await t.app.inject({
      method: 'GET',
      url: `${url}?courtId=${court.id}`,
      headers: admin.headers,
    });
    expect(list.json().data.items.map((r: { judgeId: number }) => r.judgeId)).toEqual([judge.id]);

    // The link holds both sides: the judge cannot be deleted while it sits in the court.
    const removeJudge = await t.app.inject({
      method: 'DELETE',
      url: `${entityUrl('judges')}/${judge.id}`,
      headers: admin.headers,
    });
    expect(removeJudge.statusCode).toBe(409);
  });

  it('is found among the references to either side', () => {
    const all = [...(registry as readonly Entity<Fields>[]), ASSOCIATION];
    expect(referencesIn('judges', all).map((r) => `${r.entity.name}.${r.field}`)).toContain(
      'courtJudges.judgeId',
    );
    expect(referencesIn('courts', all).map((r) => `${r.entity.name}.${r.field}`)).toContain(
      'courtJudges.courtId',
    );
  });
});
