import { Secret, TOTP } from 'otpauth';
import { AUTH_ROUTES, PEOPLE_ROUTES, pathOf } from '@mizan/contracts';
import { createUserWith } from '../test/fixtures';
import { createTestApp, dialects, type TestApp } from '../test/harness';

/** The codes an authenticator app holding `secret` shows, `steps` 30-second steps from now. */
const codeAt = (secret: string, steps = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({
    timestamp: Date.now() + steps * 30_000,
  });

const device = (n: string) => ({ 'x-fingerprint-session': `2fa-${n}`, 'x-fingerprint': 'test-device' });

describe.each(dialects())('two-factor sign-in on %s', (dialect) => {
  let t: TestApp;
  let admin: Awaited<ReturnType<TestApp['login']>>;
  beforeAll(async () => {
    t = await createTestApp({ dialect });
    admin = await t.login();
  });
  afterAll(() => t.close());
  // Every request comes from one address: each case starts with fresh sign-in counters.
  const clearLimits = () => {
    for (const limiter of Object.values(t.app.auth.limiters)) limiter.windows.clear();
  };
  beforeEach(clearLimits);

  const call = (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    headers: Record<string, string>,
    payload?: unknown,
  ) => t.app.inject({ method, url: `/api${url}`, headers: { 'accept-language': 'en', ...headers }, payload });

  const login = (email: string, password: string, fingerprint = 'a') =>
    call('POST', AUTH_ROUTES.login.path, device(fingerprint), { email, password });

  /** A member who turned two-factor sign-in on from the profile; answers the secret and codes. */
  async function enrolled() {
    const member = await createUserWith(t.app, admin.headers, ['courts.view']);
    const session = await t.login(member.email, member.password);
    const setup = await call('POST', AUTH_ROUTES.twoFactorSetup.path, session.headers);
    expect(setup.statusCode).toBe(200);
    const { uri, qr, secret } = setup.json().data;
    expect(uri).toMatch(/^otpauth:\/\/totp\/.+\?.*secret=/);
    expect(new URL(uri).searchParams.get('secret')).toBe(secret);
    expect(qr).toMatch(/^data:image\/png;base64,/);
    // A wrong first code: 422 on the field (a 401 would sign the employee out), nothing enabled.
    const wrong = await call('POST', AUTH_ROUTES.twoFactorEnable.path, session.headers, { code: '000000' });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().errors.code).toEqual(['The code is wrong or was already used']);
    const on = await call('POST', AUTH_ROUTES.twoFactorEnable.path, session.headers, {
      code: codeAt(secret),
    });
    expect(on.statusCode).toBe(200);
    const { recoveryCodes } = on.json().data as { recoveryCodes: string[] };
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    for (const code of recoveryCodes) expect(code).toMatch(/^[a-z0-9]{4}-[a-z0-9]{4}-[a-z0-9]{4}$/);
    // Stored hashed: no recovery code appears in the table.
    const stored = await t.app.db
      .selectFrom('two_factor_recovery_codes')
      .select('code_hash')
      .where('employee_id', '=', member.employeeId)
      .execute();
    expect(stored).toHaveLength(10);
    for (const row of stored) expect(recoveryCodes.join()).not.toContain(row.code_hash);
    const status = await call('GET', AUTH_ROUTES.twoFactorStatus.path, session.headers);
    expect(status.json().data).toEqual({ enabled: true, required: false, recoveryCodesLeft: 10 });
    return { member, secret, recoveryCodes, session };
  }

  it('asks for a code after the password, accepts each code once, and a challenge once', async () => {
    const { member, secret } = await enrolled();
    const first = await login(member.email, member.password);
    expect(first.statusCode).toBe(200);
    const answer = first.json().data;
    expect(answer).toEqual({
      twoFactorRequired: true,
      challenge: expect.any(String),
      expiresAt: expect.any(String),
    });
    expect(answer.token).toBeUndefined();
    const expires = Date.parse(answer.expiresAt) - Date.now();
    expect(expires).toBeGreaterThan(4 * 60_000);
    expect(expires).toBeLessThanOrEqual(5 * 60_000);

    // The code that enabled it was accepted for this step already: a replay is refused.
    const replay = await call('POST', AUTH_ROUTES.twoFactorVerify.path, device('a'), {
      challenge: answer.challenge,
      code: codeAt(secret),
    });
    expect(replay.statusCode).toBe(401);
    expect(replay.json().message).toBe('The code is wrong or was already used');
    // The next step's code (clocks drift by one step either way) completes the sign-in.
    const next = codeAt(secret, 1);
    const ok = await call('POST', AUTH_ROUTES.twoFactorVerify.path, device('a'), {
      challenge: answer.challenge,
      code: next,
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data).toEqual(
      expect.objectContaining({ token: expect.any(String), passwordChangeRequired: false }),
    );
    expect(ok.json().data.user.email).toBe(member.email);
    // The challenge was spent; the same code on a new challenge is a replay.
    const again = await call('POST', AUTH_ROUTES.twoFactorVerify.path, device('a'), {
      challenge: answer.challenge,
      code: next,
    });
    expect([again.statusCode, again.json().message]).toEqual([
      401,
      'This sign-in step has ended, please sign in again',
    ]);
    const fresh = (await login(member.email, member.password)).json().data.challenge;
    const replayed = await call('POST', AUTH_ROUTES.twoFactorVerify.path, device('a'), {
      challenge: fresh,
      code: next,
    });
    expect(replayed.statusCode).toBe(401);
    // Another device cannot use the challenge.
    const stolen = await call('POST', AUTH_ROUTES.twoFactorVerify.path, device('b'), {
      challenge: fresh,
      code: codeAt(secret, -1),
    });
    expect(stolen.statusCode).toBe(401);
    // Arabic by default.
    const arabic = await t.app.inject({
      method: 'POST',
      url: `/api${AUTH_ROUTES.twoFactorVerify.path}`,
      headers: device('a'),
      payload: { challenge: fresh, code: '123456' },
    });
    expect(arabic.json().message).toBe('الرمز غير صحيح أو سبق استخدامه');
    // The history keeps the results.
    const history = await t.app.db
      .selectFrom('login_history')
      .select(['success', 'reason'])
      .where('employee_id', '=', member.employeeId)
      .orderBy('id')
      .execute();
    expect(history.map((h) => [Boolean(h.success), h.reason])).toEqual(
      expect.arrayContaining([
        [true, 'two_factor'],
        [false, 'wrong_code'],
      ]),
    );
  });

  it('takes each recovery code once', async () => {
    const { member, recoveryCodes } = await enrolled();
    const challenge = async () =>
      (await login(member.email, member.password)).json().data.challenge as string;
    const used = recoveryCodes[3]!.toUpperCase();
    const ok = await call('POST', AUTH_ROUTES.twoFactorVerify.path, device('a'), {
      challenge: await challenge(),
      recoveryCode: used,
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data.token).toEqual(expect.any(String));
    const gone = await call('POST', AUTH_ROUTES.twoFactorVerify.path, device('a'), {
      challenge: await challenge(),
      recoveryCode: used,
    });
    expect([gone.statusCode, gone.json().message]).toEqual([401, 'The code is wrong or was already used']);
    const session = await t.app.inject({
      method: 'POST',
      url: `/api${AUTH_ROUTES.twoFactorVerify.path}`,
      headers: device('a'),
      payload: { challenge: await challenge(), recoveryCode: recoveryCodes[4] },
    });
    const headers = { ...device('a'), authorization: `Bearer ${session.json().data.token}` };
    expect((await call('GET', AUTH_ROUTES.twoFactorStatus.path, headers)).json().data.recoveryCodesLeft).toBe(
      8,
    );
    // A malformed code is a 422 naming the field; neither code: 422.
    const bad = await call('POST', AUTH_ROUTES.twoFactorVerify.path, device('a'), {
      challenge: 'x',
      code: '12ab',
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.code).toBeDefined();
    expect(
      (await call('POST', AUTH_ROUTES.twoFactorVerify.path, device('a'), { challenge: 'x' })).statusCode,
    ).toBe(422);
  });

  it('counts wrong codes toward the account limit, and refuses an expired challenge', async () => {
    const { member, secret } = await enrolled();
    // Enrolling counted one wrong code: start this account's count afresh.
    clearLimits();
    const { challenge } = (await login(member.email, member.password)).json().data;
    for (let i = 0; i < 5; i++)
      expect(
        (await call('POST', AUTH_ROUTES.twoFactorVerify.path, device('a'), { challenge, code: '000000' }))
          .statusCode,
      ).toBe(401);
    const locked = await call('POST', AUTH_ROUTES.twoFactorVerify.path, device('a'), {
      challenge,
      code: codeAt(secret, 1),
    });
    expect(locked.statusCode).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    clearLimits();

    const late = (await login(member.email, member.password)).json().data.challenge;
    await t.app.db
      .updateTable('two_factor_challenges')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('employee_id', '=', member.employeeId)
      .execute();
    expect(
      (
        await call('POST', AUTH_ROUTES.twoFactorVerify.path, device('a'), {
          challenge: late,
          code: codeAt(secret, 1),
        })
      ).statusCode,
    ).toBe(401);
  });

  it('turns off with the password or a code, and an administrator can reset it (audited)', async () => {
    const { member, secret, session } = await enrolled();
    const wrong = await call('DELETE', AUTH_ROUTES.twoFactorStatus.path, session.headers, {
      password: 'nope-nope-1',
    });
    expect(wrong.statusCode).toBe(422);
    expect(
      (await call('DELETE', AUTH_ROUTES.twoFactorStatus.path, session.headers, { code: codeAt(secret, 1) }))
        .statusCode,
    ).toBe(200);
    expect((await call('GET', AUTH_ROUTES.twoFactorStatus.path, session.headers)).json().data.enabled).toBe(
      false,
    );
    // Straight in without a code now.
    expect((await login(member.email, member.password)).json().data.token).toEqual(expect.any(String));

    clearLimits();
    const second = await enrolled();
    const reset = await call(
      'DELETE',
      `${pathOf(PEOPLE_ROUTES.resetTwoFactor.path, { id: second.member.employeeId })}`,
      admin.headers,
    );
    expect(reset.statusCode).toBe(200);
    expect((await login(second.member.email, second.member.password)).json().data.token).toEqual(
      expect.any(String),
    );
    const audit = await t.app.db
      .selectFrom('audit_log')
      .select(['action', 'employee_id'])
      .where('entity', '=', 'employees')
      .where('entity_id', '=', second.member.employeeId)
      .where('action', '=', 'resetTwoFactor')
      .execute();
    expect(audit).toEqual([{ action: 'resetTwoFactor', employee_id: admin.user.id }]);
    // Not for employees without the permission.
    const other = await t.login(member.email, member.password);
    expect(
      (
        await call(
          'DELETE',
          `${pathOf(PEOPLE_ROUTES.resetTwoFactor.path, { id: second.member.employeeId })}`,
          other.headers,
        )
      ).statusCode,
    ).toBe(403);
  });

  it('makes the members of chosen roles enrol at their next sign-in', async () => {
    const member = await createUserWith(t.app, admin.headers, ['courts.view']);
    const signedIn = (await login(member.email, member.password)).json().data;
    const roleIds = (signedIn.user.Roles as { id: number }[]).map((r) => r.id);
    const set = await call('PUT', AUTH_ROUTES.twoFactorRoles.path, admin.headers, { roleIds });
    expect([set.statusCode, set.json().data]).toEqual([200, { roleIds: [...roleIds].sort((a, b) => a - b) }]);
    expect(
      (await call('PUT', AUTH_ROUTES.twoFactorRoles.path, admin.headers, { roleIds: [999_999] })).statusCode,
    ).toBe(422);

    const first = (await login(member.email, member.password)).json().data;
    expect(first).toEqual({
      twoFactorEnrolmentRequired: true,
      challenge: expect.any(String),
      expiresAt: expect.any(String),
    });
    const setup = await call('POST', AUTH_ROUTES.twoFactorSetup.path, device('a'), {
      challenge: first.challenge,
    });
    expect(setup.statusCode).toBe(200);
    const { secret } = setup.json().data;
    const done = await call('POST', AUTH_ROUTES.twoFactorEnable.path, device('a'), {
      challenge: first.challenge,
      code: codeAt(secret),
    });
    expect(done.statusCode).toBe(200);
    expect(done.json().data.recoveryCodes).toHaveLength(10);
    const headers = { ...device('a'), authorization: `Bearer ${done.json().data.login.token}` };
    expect((await call('GET', AUTH_ROUTES.twoFactorStatus.path, headers)).json().data).toEqual({
      enabled: true,
      required: true,
      recoveryCodesLeft: 10,
    });
    // Required by the role: it cannot be turned off by the employee.
    expect(
      (await call('DELETE', AUTH_ROUTES.twoFactorStatus.path, headers, { code: codeAt(secret, 1) }))
        .statusCode,
    ).toBe(403);
    // The next sign-in asks for a code.
    expect((await login(member.email, member.password)).json().data.twoFactorRequired).toBe(true);
    await call('PUT', AUTH_ROUTES.twoFactorRoles.path, admin.headers, { roleIds: [] });
  });
});
