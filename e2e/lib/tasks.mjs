// Tasks in a real browser: helpers of specs/tasks.spec.mjs.
import { createReadyEmployee } from './app.mjs';
import { escapeRegExp, t } from './i18n.mjs';

export const TASKS = '/admin/lawsuits/tasks';
export const BOARD = `${TASKS}/board`;
export const LAWSUITS = '/admin/lawsuits';

/**
 * An employee of the seeded lawyer role (tasks, comments and the dashboard where sign-in lands),
 * with the first sign-in's password change done through the API. Returns their id, name, e-mail
 * and current password.
 */
export async function createLawyer(sys, adminApi, tag) {
  return createReadyEmployee(sys, adminApi, { roleNames: ['محامٍ'], name: `محامي المهام ${tag}` });
}

/** The header's bell of `page`, found by its label with `count` unread. */
export const bell = (page, lng, count) =>
  page.locator('header').getByRole('button', { name: t(lng, 'notifications:bell', { count }), exact: true });

/** The task page's state select (antd), whose shown value is the state's name. */
export const stateSelect = (page, lng) =>
  page
    .locator('.ant-select')
    .filter({ has: page.getByRole('combobox', { name: t(lng, 'tasks:state.label') }) })
    .first();

/** A state's name as the screens show it. */
export const stateName = (lng, state) => t(lng, `entities:tasks.values.state.${state}`);

/** The board's column of `state` and the card of task `id`. */
export const boardColumn = (page, state) => page.locator(`[data-board-column="${state}"]`);
export const boardCard = (page, id) => page.locator(`[data-task-card="${id}"]`);

/** Resolves after the page has drawn two more frames. */
const nextFrames = (page) =>
  page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));

/**
 * Moves a card on the board from the keyboard, as the board's instructions say: its handle picks
 * it up (space), the arrows carry it one column at a time towards the end of the reading order
 * (left in Arabic, right in English) through the states of `path`, space drops it over the last.
 * Each arrow waits for the board's announcement that the card is over that column (as a screen
 * reader hears it): the next arrow measures from where the card landed, which takes an animation
 * frame, longer on a busy machine.
 */
export async function moveCard(page, lng, title, path) {
  const handle = page.getByRole('button', { name: t(lng, 'tasks:board.handle', { title }) });
  await handle.focus();
  const announced = page.locator('[id^="DndLiveRegion"]');
  await page.keyboard.press('Space');
  // Once the board's keyboard sensor holds the card it announces the pick-up, then, the card
  // measured, that it is over its own column; an arrow pressed before that moves nothing.
  const [before, after] = t(lng, 'tasks:board.announce.over', { title, column: '\u0000' }).split('\u0000');
  const overAny = new RegExp(`${escapeRegExp(before)}.+${escapeRegExp(after)}`);
  await announced.filter({ hasText: overAny }).waitFor({ state: 'attached' });
  await nextFrames(page);
  const arrow = lng === 'ar' ? 'ArrowLeft' : 'ArrowRight';
  for (const state of path) {
    await page.keyboard.press(arrow);
    const over = t(lng, 'tasks:board.announce.over', { title, column: stateName(lng, state) });
    await announced.filter({ hasText: over }).waitFor({ state: 'attached' });
    await nextFrames(page);
  }
  await page.keyboard.press('Space');
}

/**
 * Gives the administrator `count` unread notifications: a lawyer assigns them tasks. The header's
 * bell then shows its badge, as on an ordinary day.
 */
export async function notifyAdmin(sys, count) {
  const adminApi = await sys.adminApi();
  const admin = await adminApi.get('/employees/employees/profile');
  const lawyer = await createLawyer(sys, adminApi, `bell-${Date.now()}`);
  const api = sys.api();
  await api.login(lawyer.email, lawyer.password);
  for (let i = 1; i <= count; i++)
    await api.post(TASKS, { title: `مراجعة الملف ${i}`, priority: 'normal', assigneeIds: [admin.id] });
}
