import FormData from 'form-data';
import { API_BASE, permissionKey, taskComments, tasks } from '@mizan/contracts';
import type { AuthUser } from '../auth/types';
import { createRow, createUserWith, entityUrl } from '../test/fixtures';
import type { Session, TestApp } from '../test/harness';

/** What lawyers and the secretary hold for tasks (seeded roles), without moderating. */
export const TASK_WRITER = [
  ...['view', 'create', 'update', 'status', 'updateText'].map((a) => permissionKey(tasks.name, a)),
  ...['view', 'create', 'update', 'delete'].map((a) => permissionKey(taskComments.name, a)),
];

export const TASKS_URL = entityUrl(tasks);
export const COMMENTS_URL = entityUrl(taskComments);
export const PDF = Buffer.from('%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
/** A Windows program named like a PDF. */
export const EXE = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(300, 0)]);

export type Row = Record<string, unknown> & { id: number; updatedAt: string };

/** A signed-in employee holding `permissions`, with their employee id. */
export interface Member {
  session: Session;
  id: number;
  headers: (lang?: string) => Record<string, string>;
}

export async function member(t: TestApp, admin: Session, permissions = TASK_WRITER): Promise<Member> {
  const { email, password, employeeId } = await createUserWith(t.app, admin.headers, permissions);
  const session = await t.login(email, password);
  return {
    session,
    id: employeeId,
    headers: (lang = 'en') => ({ ...session.headers, 'accept-language': lang }),
  };
}

/** The hub's view of a member, for channel guard checks. */
export const authUser = (m: Member, permissions = TASK_WRITER): AuthUser => ({
  id: m.id,
  name: 'x',
  email: 'x',
  username: 'x',
  permissions: new Set(permissions),
  roleIds: [],
  sessionId: 0,
  passwordChangeRequired: false,
  gender: null,
});

/** An instant `days` from now, ISO. */
export const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

/** Creates a task as `as` through the API; throws with the answer when refused. */
export async function createTask(t: TestApp, as: Member, body: Record<string, unknown>): Promise<Row> {
  const res = await t.app.inject({
    method: 'POST',
    url: TASKS_URL,
    headers: as.headers(),
    payload: { title: 'مراجعة صحيفة الدعوى', priority: 'high', dueAt: inDays(3), ...body },
  });
  if (res.statusCode !== 201) throw new Error(`create task: ${res.statusCode} ${res.body}`);
  return res.json().data;
}

/** A multipart body: plain fields and files (`files` parts). */
export function multipart(
  fields: Record<string, string | number>,
  files: { data: Buffer; filename: string; type: string }[] = [],
): { payload: Buffer; headers: Record<string, string> } {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, String(value));
  for (const file of files)
    form.append('files', file.data, { filename: file.filename, contentType: file.type });
  return { payload: form.getBuffer(), headers: form.getHeaders() as Record<string, string> };
}

/** An employee made inactive or banned directly (the rules read the stored flags). */
export async function blockedEmployee(t: TestApp, admin: Session, flag: 'status' | 'baned'): Promise<number> {
  const id = (await createRow(t.app, admin.headers, 'employees')).id;
  const pg = t.dialect === 'postgres';
  await t.app.db
    .updateTable('employees')
    .set(flag === 'status' ? { status: pg ? false : 0 } : { baned: pg ? true : 1 })
    .where('id', '=', id)
    .execute();
  return id;
}

/** Notifications stored for `employeeId`, as `kind` list (oldest first). */
export async function notificationsOf(t: TestApp, employeeId: number): Promise<string[]> {
  const rows = await t.app.db
    .selectFrom('notifications')
    .select('kind')
    .where('employee_id', '=', employeeId)
    .orderBy('id')
    .execute();
  return rows.map((r) => String(r.kind));
}

export const taskUrl = (id: number, rest = '') => `${TASKS_URL}/${id}${rest}`;
export const fileUrl = (id: number) => `${API_BASE}/files/${id}`;
