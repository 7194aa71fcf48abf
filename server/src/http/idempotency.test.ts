import FormData from 'form-data';
import { employees, roles } from '@mizan/contracts';
import { pruneAuthTables } from '../auth/prune';
import { countRows, entityUrl, nextSeq, TEST_PASSWORD } from '../test/fixtures';
import { createTestApp, dialects, type Session, type TestApp } from '../test/harness';

describe.each(dialects())('Idempotency-Key on creates (%s)', (dialect) => {
  let t: TestApp;
  let admin: Session;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    admin = await t.login();
  });
  afterAll(() => t.close());

  const count = (table: string) => countRows(t.app, table);
  const createRole = (key: string | undefined, name: string, lang = 'en') =>
    t.app.inject({
      method: 'POST',
      url: entityUrl(roles),
      headers: { ...admin.headers, 'accept-language': lang, ...(key ? { 'idempotency-key': key } : {}) },
      payload: { name, permissionIds: [] },
    });

  it('replays the first answer to a retry instead of creating twice', async () => {
    const key = `k-${nextSeq()}`;
    const before = await count('roles');
    const first = await createRole(key, `دور ${key}`);
    expect(first.statusCode).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await createRole(key, `دور ${key}`);
    expect([again.statusCode, again.headers['idempotent-replayed']]).toEqual([201, 'true']);
    expect(again.json()).toEqual(first.json());
    expect(await count('roles')).toBe(before + 1);
    // Without a key, or with another, a create is a create.
    expect((await createRole(undefined, `دور ${key} 2`)).statusCode).toBe(201);
    expect((await createRole(`${key}-b`, `دور ${key} 3`)).statusCode).toBe(201);
    expect(await count('roles')).toBe(before + 3);
  });

  it('answers 422 in the request language to the same key with another body, and changes nothing', async () => {
    const key = `k-${nextSeq()}`;
    expect((await createRole(key, `أول ${key}`)).statusCode).toBe(201);
    const before = await count('roles');
    const en = await createRole(key, `ثان ${key}`, 'en');
    expect([en.statusCode, en.json().message]).toEqual([
      422,
      'This Idempotency-Key was already used for a different request: send a new key for a new submission',
    ]);
    const ar = await createRole(key, `ثان ${key}`, 'ar');
    expect([ar.statusCode, ar.json().message]).toEqual([
      422,
      'استُخدم مفتاح Idempotency-Key هذا لطلب مختلف: أرسل مفتاحاً جديداً لكل إرسال جديد',
    ]);
    expect(await count('roles')).toBe(before);
  });

  it('lets one of two concurrent requests with one key create; the other waits its turn (409) or gets its answer', async () => {
    const key = `k-${nextSeq()}`;
    const before = await count('roles');
    const answers = await Promise.all([createRole(key, `معاً ${key}`), createRole(key, `معاً ${key}`)]);
    const statuses = answers.map((a) => a.statusCode).sort();
    expect([
      [201, 201],
      [201, 409],
    ]).toContainEqual(statuses);
    const busy = answers.find((a) => a.statusCode === 409);
    if (busy) expect(busy.json().message).toMatch(/still being processed/);
    expect(await count('roles')).toBe(before + 1);
  });

  it('keys are refused when malformed, forgotten after a day and pruned', async () => {
    const key = `k-${nextSeq()}`;
    const malformed = await createRole('x'.repeat(256), `طويل ${key}`);
    expect(malformed.statusCode).toBe(422);
    const bad = await createRole('مفتاح', `عربي ${key}`);
    expect(bad.statusCode).toBe(422);

    expect((await createRole(key, `يوم ${key}`)).statusCode).toBe(201);
    const dayAgo = new Date(Date.now() - 25 * 3_600_000).toISOString();
    await t.app.db
      .updateTable('idempotency_keys')
      .set({ created_at: dayAgo })
      .where('key', '=', key)
      .execute();
    // Past its day the key starts afresh: the retry creates (and the first body need not match).
    const later = await createRole(key, `يوم آخر ${key}`);
    expect([later.statusCode, later.headers['idempotent-replayed']]).toEqual([201, undefined]);
    await t.app.db
      .updateTable('idempotency_keys')
      .set({ created_at: dayAgo })
      .where('key', '=', key)
      .execute();
    const pruned = await pruneAuthTables(t.app.db);
    expect(pruned.idempotencyKeys).toBeGreaterThanOrEqual(1);
    expect(
      await t.app.db.selectFrom('idempotency_keys').select('key').where('key', '=', key).execute(),
    ).toEqual([]);
  });

  it('a retried multipart create keeps one row and one copy of its file', async () => {
    const key = `k-${nextSeq()}`;
    const seq = nextSeq();
    const send = () => {
      const body = new FormData();
      body.append('name', `موظف ${seq}`);
      body.append('email', `idem${seq}@mizan.test`);
      body.append('username', `idem${seq}`);
      body.append('password', TEST_PASSWORD);
      body.append('files', Buffer.from('%PDF-1.7\n%%EOF\n'), {
        filename: 'a.pdf',
        contentType: 'application/pdf',
      });
      return t.app.inject({
        method: 'POST',
        url: entityUrl(employees),
        headers: { ...admin.headers, ...body.getHeaders(), 'idempotency-key': key },
        payload: body.getBuffer(),
      });
    };
    const before = { employees: await count('employees'), files: await count('files') };
    const first = await send();
    expect(first.statusCode).toBe(201);
    const again = await send();
    expect([again.statusCode, again.headers['idempotent-replayed']]).toEqual([201, 'true']);
    expect(again.json().data.id).toBe(first.json().data.id);
    expect({ employees: await count('employees'), files: await count('files') }).toEqual({
      employees: before.employees + 1,
      files: before.files + 1,
    });
  });
});
