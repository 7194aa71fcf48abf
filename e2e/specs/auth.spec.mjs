// Sign-in in Arabic, the forced password change of a new employee, the redirect parameter and
// sign-out.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, useSystem } from '../lib/harness.mjs';
import {
  chooseUserMenuItem,
  createEmployee,
  expectDirection,
  hasArabic,
  signIn,
  signInToDashboard,
  toast,
  waitForApp,
} from '../lib/app.mjs';
import { snap } from '../lib/browser.mjs';
import { t, tx } from '../lib/i18n.mjs';

const sys = useSystem();

describe('sign-in', () => {
  test('the login page is Arabic and right-to-left by default, with the office name', () =>
    sys.with('login-page', async (open) => {
      const { page } = await open();
      // The office-name spec renames the office on this server for a while: the page shows the
      // name current when it loaded, read here before and after.
      const officeName = async () => (await sys.api().get('/auth/systemSettings')).officeName;
      const before = await officeName();
      await page.goto('/login');
      await expectDirection(page, 'rtl', 'ar');
      const shown = page.getByTestId('office-name');
      let name = '';
      await eventually(
        async () => {
          name = (await shown.innerText()).trim();
          if (![before, await officeName()].includes(name)) throw new Error(`shown "${name}"`);
          return true;
        },
        { message: 'the office name', timeout: 15_000 },
      );
      await page.getByRole('heading', { name: tx('ar', 'auth:login.title') }).waitFor();
      await page.getByLabel(tx('ar', 'auth:login.email')).waitFor();
      await page.getByLabel(tx('ar', 'auth:login.password')).waitFor();
      await page.getByRole('button', { name: tx('ar', 'auth:login.submit') }).waitFor();
      const text = await page.locator('body').innerText();
      assert.ok(hasArabic(text), `Arabic text on the page: ${text.slice(0, 200)}`);
      assert.equal(await page.title(), name);
      await snap(page, 'ar/login');
    }));

  test('a wrong password shows the server message and stays signed out', () =>
    sys.with('login-wrong', async (open) => {
      const { page } = await open();
      await page.goto('/login');
      await page.getByLabel(tx('ar', 'auth:login.email')).fill(sys.admin.email);
      await page.getByLabel(tx('ar', 'auth:login.password')).fill('not-the-password-1');
      await page.getByRole('button', { name: tx('ar', 'auth:login.submit') }).click();
      const message = await toast(page);
      assert.ok(hasArabic(message), `an Arabic error toast, got "${message}"`);
      assert.match(new URL(page.url()).pathname, /^\/login/);
      await page.goto('/admin/dashboard');
      await page.waitForURL(/\/login/);
    }));

  test('a new employee must change the password, then reaches the dashboard', () =>
    sys.with('forced-change', async (open) => {
      const admin = await sys.adminApi();
      const person = await createEmployee(admin, { roleNames: ['محامٍ'] });
      const { page } = await open();
      await signIn(page, person.email, person.password);
      await page.waitForURL('**/auth/change-password');
      // The warning shows on the page (and as a toast, outside the app root).
      await page
        .locator('#root')
        .getByRole('alert')
        .filter({ hasText: t('ar', 'auth:changePassword.required') })
        .waitFor();
      // Leaving for the admin area is refused until the password is changed.
      await page.goto('/admin/dashboard');
      await page.waitForURL('**/auth/change-password');

      const newPassword = `${person.password}-New2`;
      await page.getByLabel(tx('ar', 'auth:changePassword.current')).fill(person.password);
      await page.getByLabel(tx('ar', 'auth:changePassword.new')).fill(newPassword);
      await page.getByLabel(tx('ar', 'auth:changePassword.confirm')).fill(newPassword);
      await page.getByRole('button', { name: tx('ar', 'auth:changePassword.submit') }).click();
      await page.waitForURL('**/admin/dashboard');
      await waitForApp(page);
      // The main view is the person's own: their name in the header.
      await page.getByRole('button', { name: person.employee.name }).waitFor();

      const again = sys.api();
      const login = await again.login(person.email, newPassword);
      assert.equal(login.passwordChangeRequired, false);
      const old = await sys
        .api()
        .raw('POST', '/auth/login', { email: person.email, password: person.password });
      assert.equal(old.status, 401);
    }));

  test('the redirect parameter brings the person back to where they were going', () =>
    sys.with('redirect', async (open) => {
      const { page } = await open();
      await page.goto('/admin/profile');
      await page.waitForURL(/\/login\?redirect=/);
      await page.getByLabel(tx('ar', 'auth:login.email')).fill(sys.admin.email);
      await page.getByLabel(tx('ar', 'auth:login.password')).fill(sys.admin.password);
      await page.getByRole('button', { name: tx('ar', 'auth:login.submit') }).click();
      await page.waitForURL('**/admin/profile');
      await toast(page, t('ar', 'errors:session.welcomeBack'));
    }));

  test('sign-out clears the session and goes home with its message', () =>
    sys.with('sign-out', async (open) => {
      const { page } = await open();
      await signInToDashboard(page, sys.admin.email, sys.admin.password);
      const user = await sys.adminApi().then((api) => api.get('/employees/employees/profile'));
      await chooseUserMenuItem(page, user.name, 'layout:user.signOut', () =>
        page.waitForURL((url) => !url.pathname.startsWith('/admin'), { timeout: 5_000 }),
      );
      await toast(page, t('ar', 'errors:session.signedOut'));
      await eventually(() => !new URL(page.url()).pathname.startsWith('/admin'), { message: 'left /admin' });
      await page.reload();
      await page.goto('/admin/dashboard');
      await page.waitForURL(/\/login/);
    }));
});
