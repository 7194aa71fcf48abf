import { decoyHash, hashPassword, passwordProblem, verifyPassword } from './password';
import { generateCode, generateToken, hashToken, sameHash } from './tokens';

describe('password', () => {
  it('hashes with argon2id and the configured cost, and verifies', async () => {
    const stored = await hashPassword('Secret-123');
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(stored, 'Secret-123')).toBe(true);
    expect(await verifyPassword(stored, 'secret-123')).toBe(false);
  });

  it('never accepts a value that is not an argon2 hash', async () => {
    expect(await verifyPassword('Secret-123', 'Secret-123')).toBe(false);
    expect(await verifyPassword(null, 'x')).toBe(false);
    expect(await verifyPassword('$argon2id$broken', 'x')).toBe(false);
    expect(await verifyPassword(await decoyHash(), 'x')).toBe(false);
  });

  it.each([
    ['short1!', 'at least 8'],
    ['12345678', 'weak'],
    ['password', 'weak'],
    ['aaaaaaa1', 'weak'],
    ['x'.repeat(120) + '123456789', 'at most 128'],
  ])('refuses %s', (pw, text) => {
    expect(passwordProblem(pw, 'en')).toContain(text);
  });

  it('accepts reasonable passwords, Arabic letters included, and answers in Arabic by default', () => {
    expect(passwordProblem('pass1234', 'en')).toBeNull();
    expect(passwordProblem('كلمةسر2024', 'en')).toBeNull();
    expect(passwordProblem('correct horse battery!', 'en')).toBeNull();
    expect(passwordProblem(undefined, 'ar')).toBe('يجب ألا تقل كلمة المرور عن ٨ أحرف');
    expect(
      passwordProblem('a1b2c3d4e5f', 'ar', {
        passwordMinLength: 12,
        passwordRequireDigits: false,
        passwordRequireSymbols: false,
      }),
    ).toBe('يجب ألا تقل كلمة المرور عن ١٢ حرفًا');
  });
});

describe('tokens', () => {
  it('are 32 random bytes in base64url, stored as SHA-256 hex', () => {
    const a = generateToken();
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(generateToken()).not.toBe(a);
    expect(hashToken(a)).toMatch(/^[0-9a-f]{64}$/);
    expect(sameHash(hashToken(a), hashToken(a))).toBe(true);
    expect(sameHash(hashToken(a), hashToken('b'))).toBe(false);
  });

  it('codes are six digits', () => {
    for (let i = 0; i < 50; i++) expect(generateCode()).toMatch(/^\d{6}$/);
  });
});

describe('password rules of the system settings', () => {
  const rules = (
    over: Partial<{
      passwordMinLength: number;
      passwordRequireDigits: boolean;
      passwordRequireSymbols: boolean;
    }>,
  ) => ({
    passwordMinLength: 8,
    passwordRequireDigits: false,
    passwordRequireSymbols: false,
    ...over,
  });

  it('raises the minimum length but never lowers it below 8', () => {
    expect(passwordProblem('pass1234', 'en', rules({ passwordMinLength: 12 }))).toBe(
      'The password must be at least 12 characters',
    );
    expect(passwordProblem('pass12345678', 'en', rules({ passwordMinLength: 12 }))).toBeNull();
    expect(passwordProblem('pass123', 'en', rules({ passwordMinLength: 4 }))).toContain('at least 8');
  });

  it('requires a digit or a symbol when asked', () => {
    expect(passwordProblem('pass-word', 'en', rules({ passwordRequireDigits: true }))).toBe(
      'The password must contain at least one digit',
    );
    expect(passwordProblem('password1', 'en', rules({ passwordRequireSymbols: true }))).toContain(
      'at least one symbol',
    );
    expect(
      passwordProblem(
        'pass-word1',
        'en',
        rules({ passwordRequireDigits: true, passwordRequireSymbols: true }),
      ),
    ).toBeNull();
  });
});
