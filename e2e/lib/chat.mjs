// The chat screen in a real browser: helpers of specs/chat.spec.mjs.
import { allPermissions, createReadyEmployee } from './app.mjs';
import { t } from './i18n.mjs';

export const CHATS = '/admin/chats';

/**
 * An employee who may chat (and see the dashboard, where sign-in lands), with the first sign-in's
 * password change done through the API. Returns their id, e-mail and current password.
 */
export async function createChatter(sys, adminApi, tag) {
  const wanted = new Set(['chat.use', 'dashboard.view']);
  const permissions = (await allPermissions(adminApi)).filter((p) => wanted.has(p.key));
  const role = await adminApi.post('/employees/roles', {
    name: `محادثة ${tag}`,
    permissionIds: permissions.map((p) => p.id),
  });
  return createReadyEmployee(sys, adminApi, { roleIds: [role.id], name: `زميل المحادثة ${tag}` });
}

/** The header's chat icon; its `data-unread` is the badge's count. */
export const chatBadge = (page) => page.getByTestId('chat-badge');

/** The composer's box and sending with Enter. */
export async function sendMessage(page, lng, text) {
  const box = page.getByRole('textbox', { name: t(lng, 'chat:composer.label') });
  await box.fill(text);
  await box.press('Enter');
}

/** The texts of the stored messages shown, top to bottom. */
export async function shownTexts(page) {
  return page.getByTestId('message').getByTestId('message-text').allInnerTexts();
}

/** The tick status of the stored message with this text (sent, delivered, read); null before it is stored. */
export async function statusOf(page, text) {
  const ticks = page.getByTestId('message').filter({ hasText: text }).locator('[data-status]');
  return (await ticks.count()) ? ticks.first().getAttribute('data-status') : null;
}
