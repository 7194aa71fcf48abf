import { mailText, startTestSmtp } from '../mail/testSmtp';
import type { FastifyInstance } from 'fastify';
import { countRows } from '../test/fixtures';
import { createTestApp, dialects, type TestApp } from '../test/harness';
import { headers, insertEmployee, signIn } from './testing/fixtures';

type Smtp = Awaited<ReturnType<typeof startTestSmtp>>;

/**
 * The link's token and the code from a reset mail: a raw MIME message as the SMTP server got it,
 * or (`plain`) the text kept in the outbox, which must not go through quoted-printable decoding
 * (a token starting with `=` + two hex digits would be mangled).
 */
function readResetMail(raw: string, plain = false) {
  const text = plain ? raw : mailText(raw);
  const link = /https?:\/\/[^\s"<>]+\/auth\/reset-password\?token=([A-Za-z0-9_-]+)&email=([^\s"<>&]+)/.exec(
    text,
  );
  const code = /(?:Code|الرمز): (\d{6})/.exec(text);
  if (!link || !code) throw new Error(`no link or code in the mail:\n${text}`);
  return { link: link[0], token: link[1]!, email: decodeURIComponent(link[2]!), code: code[1]!, text };
}

describe.each(dialects())('password reset (%s)', (dialect) => {
  let t: TestApp;
  let smtp: Smtp;
  let db: FastifyInstance['db'];
  const forgot = (email: string, lang = 'en', ip?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/forgotPassword',
      headers: headers(undefined, { 'accept-language': lang }),
      payload: { email },
      ...(ip ? { remoteAddress: ip } : {}),
    });
  const reset = (payload: Record<string, string>) =>
    t.app.inject({ method: 'PUT', url: '/api/auth/resetPassword', headers: headers(), payload });

  beforeAll(async () => {
    smtp = await startTestSmtp();
    t = await createTestApp({ dialect, env: { SMTP_URL: smtp.url } });
    db = t.app.db;
    await insertEmployee(db, { name: 'سارة', email: 'sara@law.test', username: 'sara', roles: ['Lawyer'] });
    await insertEmployee(db, { email: 'omar@law.test', username: 'omar', roles: ['Lawyer'] });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });
  beforeEach(() => {
    for (const limiter of Object.values(t.app.auth.limiters))
      (limiter as unknown as { windows: Map<string, unknown> }).windows.clear();
  });

  it('resets by link: mail through SMTP, token checked, password changed, sessions revoked, token spent', async () => {
    const session = await signIn(t.app, 'sara');
    const res = await forgot('Sara@Law.test');
    expect(res.statusCode).toBe(200);
    expect(res.json().data.message).toContain('If this email is registered');
    const mail = await smtp.next();
    expect(mail.to).toEqual(['sara@law.test']);
    const { token, email, link } = readResetMail(mail.raw);
    expect(email).toBe('sara@law.test');
    expect(link).toMatch(/^http:\/\/localhost(:\d+)?\/auth\/reset-password\?token=/);

    const verify = await t.app.inject({
      method: 'GET',
      url: `/api/auth/verifyResetToken?token=${token}&email=${encodeURIComponent(email)}`,
      headers: headers(),
    });
    expect(verify.statusCode).toBe(200);
    expect(verify.json().data).toMatchObject({ valid: true, email: 'sara@law.test' });
    const wrongEmail = await t.app.inject({
      method: 'GET',
      url: `/api/auth/verifyResetToken?token=${token}&email=omar@law.test`,
      headers: headers(),
    });
    expect(wrongEmail.statusCode).toBe(422);

    const weak = await reset({ token, email, password: '12345678' });
    expect(weak.statusCode).toBe(422);
    expect(weak.json().errors.password[0]).toContain('weak');

    const done = await reset({ token, email, password: 'New-pass-2024' });
    expect(done.statusCode).toBe(200);
    expect(done.json().data.message).toBe('Your password has been changed, you can sign in now');
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/auth/check', headers: headers(session) })).statusCode,
    ).toBe(401);
    await signIn(t.app, 'sara', 'New-pass-2024');

    const again = await reset({ token, email, password: 'Other-pass-2024' });
    expect(again.statusCode).toBe(422);
    expect(again.json().errors.token[0]).toBe('The reset link or code is invalid or has expired');
    await signIn(t.app, 'sara', 'New-pass-2024');
  });

  it('resets by code: the code buys a token once; the mail is in Arabic for an Arabic request', async () => {
    await forgot('omar@law.test', 'ar');
    const mail = readResetMail((await smtp.next()).raw);
    expect(mail.text).toContain('مرحباً omar،');
    expect(mail.text).toContain('الرمز: ');

    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/auth/verifyResetCode',
      headers: headers(),
      payload: { email: 'omar@law.test', code: mail.code === '000000' ? '000001' : '000000' },
    });
    expect(wrong.statusCode).toBe(422);
    const right = await t.app.inject({
      method: 'POST',
      url: '/api/auth/verifyResetCode',
      headers: headers(),
      payload: { email: 'omar@law.test', code: mail.code },
    });
    expect(right.statusCode).toBe(200);
    const { token } = right.json().data;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const reused = await t.app.inject({
      method: 'POST',
      url: '/api/auth/verifyResetCode',
      headers: headers(),
      payload: { email: 'omar@law.test', code: mail.code },
    });
    expect(reused.statusCode).toBe(422);
    // The link's token was replaced by the code's.
    expect(
      (await reset({ token: mail.token, email: 'omar@law.test', password: 'Omar-pass-77' })).statusCode,
    ).toBe(422);
    expect((await reset({ token, email: 'omar@law.test', password: 'Omar-pass-77' })).statusCode).toBe(200);
    await signIn(t.app, 'omar', 'Omar-pass-77');
  });

  it('allows 5 wrong codes, then the code is dead even when right', async () => {
    await forgot('omar@law.test');
    const { code } = readResetMail((await smtp.next()).raw);
    const wrongCode = code === '111111' ? '222222' : '111111';
    const answers: number[] = [];
    const messages: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/verifyResetCode',
        headers: headers(undefined, { 'x-test': String(i) }),
        payload: { email: 'omar@law.test', code: wrongCode },
      });
      answers.push(res.statusCode);
      messages.push(res.json().errors.code[0]);
    }
    expect(answers).toEqual([422, 422, 422, 422, 422]);
    expect(messages[4]).toBe('Too many attempts for this code, please request a new one');
    const right = await t.app.inject({
      method: 'POST',
      url: '/api/auth/verifyResetCode',
      headers: headers(),
      payload: { email: 'omar@law.test', code },
    });
    expect(right.statusCode).toBe(422);
    expect(right.json().errors.code[0]).toBe('Too many attempts for this code, please request a new one');
  });

  it('refuses an expired reset, and a new request replaces the previous one', async () => {
    await forgot('sara@law.test');
    const first = readResetMail((await smtp.next()).raw);
    await forgot('sara@law.test');
    const second = readResetMail((await smtp.next()).raw);
    expect(second.token).not.toBe(first.token);
    const check = (token: string) =>
      t.app.inject({
        method: 'GET',
        url: `/api/auth/verifyResetToken?token=${token}&email=sara@law.test`,
        headers: headers(),
      });
    expect((await check(first.token)).statusCode).toBe(422);
    expect((await check(second.token)).statusCode).toBe(200);
    await db
      .updateTable('password_resets')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('used_at', 'is', null)
      .execute();
    expect((await check(second.token)).statusCode).toBe(422);
    expect(
      (await reset({ token: second.token, email: 'sara@law.test', password: 'Another-pass-9' })).statusCode,
    ).toBe(422);
    const code = await t.app.inject({
      method: 'POST',
      url: '/api/auth/verifyResetCode',
      headers: headers(),
      payload: { email: 'sara@law.test', code: second.code },
    });
    expect(code.statusCode).toBe(422);
  });

  it('answers an unknown email exactly like a known one, and sends nothing', async () => {
    const before = await countRows(t.app, 'outbox');
    const unknown = await forgot('nobody@law.test');
    const known = await forgot('omar@law.test');
    expect(unknown.statusCode).toBe(200);
    expect(unknown.json()).toEqual(known.json());
    const mail = await smtp.next();
    expect(mail.to).toEqual(['omar@law.test']);
    expect((await countRows(t.app, 'outbox')) - before).toBe(1);
  });

  it('refuses a malformed email with 422 and limits requests per email and per IP with 429', async () => {
    const bad = await forgot('not-an-email');
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.email).toHaveLength(1);
    for (let i = 0; i < 3; i++)
      expect((await forgot('ghost@law.test', 'en', `10.3.0.${i}`)).statusCode).toBe(200);
    const perEmail = await forgot('ghost@law.test', 'en', '10.3.0.9');
    expect(perEmail.statusCode).toBe(429);
    expect(perEmail.headers['retry-after']).toBeDefined();
    for (let i = 0; i < 5; i++) await forgot(`ghost${i}@law.test`, 'en', '10.4.0.1');
    expect((await forgot('ghost9@law.test', 'en', '10.4.0.1')).statusCode).toBe(429);
  });

  it('limits code checks per IP', async () => {
    const codes = Array.from({ length: 10 }, () =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/verifyResetCode',
        headers: headers(),
        payload: { email: 'nobody@law.test', code: '123456' },
        remoteAddress: '10.5.0.1',
      }),
    );
    expect((await Promise.all(codes)).map((r) => r.statusCode)).toEqual(Array(10).fill(422));
    const limited = await t.app.inject({
      method: 'POST',
      url: '/api/auth/verifyResetCode',
      headers: headers(),
      payload: { email: 'nobody@law.test', code: '123456' },
      remoteAddress: '10.5.0.1',
    });
    expect(limited.statusCode).toBe(429);
  });
});

describe.each(dialects())('password reset without SMTP (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    process.env.MIZAN_PUBLIC_URL = 'https://office.example.test/';
    t = await createTestApp({ dialect });
    await insertEmployee(t.app.db, { email: 'sara@law.test', username: 'sara' });
  });
  afterAll(async () => {
    delete process.env.MIZAN_PUBLIC_URL;
    await t.close();
  });

  it('keeps the mail in the outbox with a link on MIZAN_PUBLIC_URL', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/forgotPassword',
      headers: headers(),
      payload: { email: 'sara@law.test' },
    });
    expect(res.statusCode).toBe(200);
    // The mail leaves in the background: wait for its row.
    let row: Record<string, unknown> | undefined;
    for (let i = 0; i < 50 && !row; i++) {
      row = await t.app.db.selectFrom('outbox').selectAll().executeTakeFirst();
      if (!row) await new Promise((r) => setTimeout(r, 20));
    }
    expect(row).toMatchObject({ to: 'sara@law.test', sent_at: null });
    const { token, link } = readResetMail(String(row!.text), true);
    expect(link.startsWith('https://office.example.test/auth/reset-password?token=')).toBe(true);
    expect(String(row!.html)).toContain('dir="ltr"');
    const done = await t.app.inject({
      method: 'PUT',
      url: '/api/auth/resetPassword',
      headers: headers(),
      payload: { token, email: 'sara@law.test', password: 'Fresh-pass-11' },
    });
    expect(done.statusCode).toBe(200);
    await signIn(t.app, 'sara@law.test', 'Fresh-pass-11');
  });
});
