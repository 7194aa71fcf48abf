// The chat screen in a real browser (issue 13): helpers of specs/chat.spec.mjs.
import { createEmployee } from './app.mjs';
import { t } from './i18n.mjs';

export const CHATS = '/admin/chats';

/** Every permission row (id and key), all pages. */
async function allPermissions(api) {
  const rows = [];
  for (let page = 1; ; page++) {
    const res = await api.get(`/employees/permissions?page=${page}&pageSize=100`);
    rows.push(...res.items);
    if (rows.length >= res.total || res.items.length === 0) return rows;
  }
}

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
  const person = await createEmployee(adminApi, { roleIds: [role.id], name: `زميل المحادثة ${tag}` });
  const own = sys.api();
  await own.login(person.email, person.password);
  const password = `${person.password}-2`;
  await own.put('/employees/employees/changePassword', {
    currentPassword: person.password,
    newPassword: password,
  });
  return { id: person.employee.id, name: person.employee.name, email: person.email, password };
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
