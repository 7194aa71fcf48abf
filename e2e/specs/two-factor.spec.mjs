// Two-factor sign-in in Chromium: an employee enrols from the profile by scanning the QR code (read
// here from the image, as a phone would), signs out, signs in with a code from the authenticator,
// then with a recovery code; the profile lists where they are signed in.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import jsQR from 'jsqr';
import { Secret, TOTP } from 'otpauth';
import { PNG } from 'pngjs';
import { useSystem } from '../lib/harness.mjs';
import {
  chooseUserMenuItem,
  createReadyEmployee,
  signInToDashboard,
  toast,
  waitForApp,
} from '../lib/app.mjs';
import { t, tx } from '../lib/i18n.mjs';

const sys = useSystem();

/** The `otpauth://` URI a QR code image (a PNG `data:` URL) holds. */
function readQr(dataUrl) {
  const png = PNG.sync.read(Buffer.from(dataUrl.replace(/^data:image\/png;base64,/, ''), 'base64'));
  const found = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
  assert.ok(found, 'the QR code is readable');
  return found.data;
}

/** What an authenticator app holding `uri`'s secret shows, `steps` periods from now. */
const codeOf = (uri, steps = 0) => {
  const secret = new URL(uri).searchParams.get('secret');
  return new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({
    timestamp: Date.now() + steps * 30_000,
  });
};

async function signOut(page, name) {
  await chooseUserMenuItem(page, name, 'layout:user.signOut', () =>
    page.waitForURL((url) => !url.pathname.startsWith('/admin'), { timeout: 5_000 }),
  );
}

async function submitPassword(page, email, password) {
  await page.goto('/login');
  await page.getByLabel(tx('ar', 'auth:login.email')).fill(email);
  await page.getByLabel(tx('ar', 'auth:login.password')).fill(password);
  await page.getByRole('button', { name: tx('ar', 'auth:login.submit') }).click();
  await page.getByRole('heading', { name: tx('ar', 'auth:twoFactor.verifyTitle') }).waitFor();
}

describe('two-factor sign-in', () => {
  test('enrol from the QR code, then sign in with a code and with a recovery code', () =>
    sys.with('two-factor', async (open) => {
      const admin = await sys.adminApi();
      const person = await createReadyEmployee(sys, admin, { roleNames: ['محامٍ'] });
      const { page } = await open();
      await signInToDashboard(page, person.email, person.password);
      await page.goto('/admin/profile');
      await waitForApp(page);

      await page.getByRole('button', { name: tx('ar', 'auth:twoFactor.setUp') }).click();
      const qr = page.getByRole('img', { name: tx('ar', 'auth:twoFactor.qrAlt') });
      const uri = readQr(await qr.getAttribute('src'));
      assert.match(uri, /^otpauth:\/\/totp\//);
      await page.getByLabel(tx('ar', 'auth:twoFactor.code')).fill(codeOf(uri));
      await page.getByRole('button', { name: tx('ar', 'auth:twoFactor.enable') }).click();
      await page.getByRole('heading', { name: tx('ar', 'auth:twoFactor.recoveryTitle') }).waitFor();
      const recoveryCodes = (await page.locator('.recovery-code').allInnerTexts()).map((c) => c.trim());
      assert.equal(recoveryCodes.length, 10);
      await page.getByRole('button', { name: tx('ar', 'auth:twoFactor.saved') }).click();
      await page.getByText(t('ar', 'auth:twoFactor.on'), { exact: true }).waitFor();
      await signOut(page, person.name);

      // Password, then a code: the one used to enrol cannot be used again, the next one works.
      await submitPassword(page, person.email, person.password);
      await page.getByLabel(tx('ar', 'auth:twoFactor.code')).fill(codeOf(uri, 1));
      await page.getByRole('button', { name: tx('ar', 'auth:twoFactor.verify') }).click();
      await page.waitForURL('**/admin/dashboard', { timeout: 20_000 });
      await waitForApp(page);
      await signOut(page, person.name);

      // Password, then a recovery code; the same recovery code a second time is refused.
      await submitPassword(page, person.email, person.password);
      await page.getByRole('button', { name: tx('ar', 'auth:twoFactor.useRecovery') }).click();
      await page.getByLabel(tx('ar', 'auth:twoFactor.recoveryCode')).fill(recoveryCodes[0]);
      await page.getByRole('button', { name: tx('ar', 'auth:twoFactor.verify') }).click();
      await page.waitForURL('**/admin/dashboard', { timeout: 20_000 });
      await waitForApp(page);

      // The profile lists this session as this device, and the codes left.
      await page.goto('/admin/profile');
      await waitForApp(page);
      await page.getByText(t('ar', 'auth:sessions.current'), { exact: true }).first().waitFor();
      await page.getByText(t('ar', 'auth:twoFactor.codesLeft', { count: 9 })).waitFor();
      await signOut(page, person.name);

      await submitPassword(page, person.email, person.password);
      await page.getByRole('button', { name: tx('ar', 'auth:twoFactor.useRecovery') }).click();
      await page.getByLabel(tx('ar', 'auth:twoFactor.recoveryCode')).fill(recoveryCodes[0]);
      await page.getByRole('button', { name: tx('ar', 'auth:twoFactor.verify') }).click();
      await toast(page, 'الرمز غير صحيح أو سبق استخدامه');
      assert.match(new URL(page.url()).pathname, /^\/login/);
    }));
});
