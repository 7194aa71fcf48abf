// The office's daily work at scale, written into a migrated Mizan SQLite database that already
// holds the legal data set (legalData.mjs): tasks on the lawsuits with their assignees and
// comments, and the internal chat's conversations and messages. `npm run bench` uses it.
//
//   import { seedWork, workCounts } from './workData.mjs';
//   const set = seedWork('data/bench.db', workCounts(), { adminEmail }); // BENCH_TASKS, BENCH_MESSAGES
//
// What it writes: task types; tasks over the same ten years (new, in progress, waiting, done,
// cancelled; the older the likelier closed), each on a lawsuit, with one to three assignees among
// the employees and a comment on about half; one-to-one chats between employees, group chats of
// sections, and messages in Arabic and English, most in a few busy chats (one with the bench's
// administrator holds about a tenth of them), with each member's read and delivered cursors near
// the end. The same seed gives the same rows.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { seeded, setAside } from './legalData.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const serverRequire = createRequire(path.join(root, 'server', 'package.json'));

/**
 * Row counts from the environment: `BENCH_TASKS` (default 300,000) and `BENCH_MESSAGES` (default
 * 1,000,000 chat messages).
 */
export function workCounts(env = process.env) {
  const tasks = Number(env.BENCH_TASKS ?? 300_000);
  const messages = Number(env.BENCH_MESSAGES ?? 1_000_000);
  if (!(tasks >= 0) || !(messages >= 0)) throw new Error('BENCH_TASKS and BENCH_MESSAGES must be ≥ 0');
  return { tasks, messages };
}

/** The chat tables the chat module's migration creates (not entities of @mizan/contracts). */
export const CHAT_TABLES = ['chats', 'chat_members', 'chat_messages'];

const TASK_TYPES = [
  'إعداد مذكرة',
  'حضور جلسة',
  'استخراج مستندات',
  'متابعة تنفيذ',
  'مراجعة عقد',
  'اتصال بموكل',
];
const TASK_TITLES = [
  'إعداد مذكرة دفاع في الدعوى',
  'استخراج صورة رسمية من الحكم',
  'إعلان الخصم بصحيفة الدعوى',
  'متابعة تقرير الخبير',
  'تقديم حافظة مستندات',
  'الاتصال بالموكل لإحضار أصل العقد',
  'Prepare the appeal brief',
  'Follow up the expert report',
  'مراجعة محضر الجلسة',
  'سداد رسوم الدعوى',
];
const COMMENTS = [
  'تم التواصل مع الموكل وسيحضر المستندات غدًا',
  'الخبير طلب مهلة أسبوعين',
  'Draft uploaded, please review',
  'تم تقديم المذكرة في الجلسة',
  'برجاء المراجعة قبل الجلسة القادمة',
];
const MESSAGES = [
  'صباح الخير، هل صدر الحكم في الدعوى؟',
  'تم تأجيل الجلسة للاطلاع',
  'أرسلت لك صورة المحضر',
  'Please send me the file number',
  'الموكل اتصل ويسأل عن موعد الجلسة القادمة',
  'تمام، سأراجع المذكرة الليلة',
  'هل الخبير حدد موعد المعاينة؟',
  'The hearing moved to next Tuesday',
  'برجاء إحضار أصل التوكيل',
  'تم سداد الرسوم',
  'إن شاء الله نحضر الجلسة مبكرًا',
  'Meeting with the client at 3 pm',
];
const PRIORITIES = ['low', 'normal', 'normal', 'normal', 'high', 'urgent'];
const DAY_MS = 86_400_000;
const isoAt = (ms) => new Date(ms).toISOString();
/** Rows per transaction, as legalData.mjs. */
const BATCH = 100_000;

/**
 * Writes tasks and chats into the SQLite database `file` (migrated, legal data set written) and
 * returns what it wrote: ids the benchmark cases ask for (an assignee, the administrator's busy
 * chat and its first message id) and the seconds each part took. `adminEmail`: the bench's
 * signing-in administrator, made a member of the busiest chat.
 */
export function seedWork(file, counts = workCounts(), options = {}) {
  const Database = serverRequire('better-sqlite3');
  const { getEntity, snakeCase, foldArabic } = serverRequire('@mizan/contracts');
  const serverDist = options.serverDist ?? path.join(root, 'server/dist');
  const { searchText, hasSearch } = serverRequire(path.join(serverDist, 'db/migrations/searchColumn.js'));
  const random = seeded(options.seed ?? 7);
  const pick = (list) => list[Math.floor(random() * list.length)];
  const between = (low, high) => low + Math.floor(random() * (high - low + 1));
  const today = Date.parse(`${new Date(options.now ?? Date.now()).toISOString().slice(0, 10)}T00:00:00Z`);
  const since = today - 3650 * DAY_MS;
  const started = Date.now();
  const timings = {};

  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  db.pragma('cache_size = -1000000');
  const inBatches = (label, n, write) => {
    const t0 = Date.now();
    const batch = db.transaction((from, to) => {
      for (let i = from; i < to; i += 1) write(i);
    });
    for (let from = 0; from < n; from += BATCH) batch(from, Math.min(n, from + BATCH));
    timings[label] = (Date.now() - t0) / 1000;
  };
  const nextId = (table) =>
    Number(db.prepare(`select coalesce(max(id), 0) + 1 as id from ${table}`).get().id);
  const employees = db
    .prepare(`select id from employees where email like 'bench.staff%' order by id`)
    .all()
    .map((r) => Number(r.id));
  const admin = Number(db.prepare('select id from employees where email = ?').get(options.adminEmail)?.id);
  if (!employees.length || !admin) throw new Error('seedWork needs the legal data set and the administrator');
  const lawsuits = db.prepare('select min(id) as low, max(id) as high from lawsuits').get();

  // Tasks: the engine's columns by the definition, as legalData's inserter; search text folded.
  const tasks = getEntity('tasks');
  const taskTypes = getEntity('taskTypes');
  const insertType = db.prepare(
    `insert or ignore into ${taskTypes.table} (name, created_at, updated_at) values (?, ?, ?)`,
  );
  for (const name of TASK_TYPES) insertType.run(name, isoAt(since), isoAt(since));
  const typeIds = db
    .prepare(`select id from ${taskTypes.table}`)
    .all()
    .map((r) => Number(r.id));
  const taskKeys = [
    'title',
    'description',
    'typeId',
    'priority',
    'state',
    'createdById',
    'dueAt',
    'lawsuitId',
  ];
  const taskKeysClosed = ['stateChangedAt', 'stateChangedById'];
  const taskColumns = ['id', ...[...taskKeys, ...taskKeysClosed].map(snakeCase), 'created_at', 'updated_at'];
  if (hasSearch(tasks)) taskColumns.push('search_text');
  const insertTask = db.prepare(
    `insert into ${tasks.table} (${taskColumns.map((c) => `"${c}"`).join(', ')}) values (${taskColumns.map(() => '?').join(', ')})`,
  );
  const assign = db.prepare(
    `insert or ignore into ${tasks.table}_assignee_ids (owner_id, ref_id) values (?, ?)`,
  );
  const comments = getEntity('taskComments');
  const insertComment = db.prepare(
    `insert into ${comments.table} (task_id, body, author_id, created_at, updated_at) values (?, ?, ?, ?, ?)`,
  );
  const restore = setAside(db, [tasks.table, `${tasks.table}_assignee_ids`, comments.table, 'chat_messages']);
  const firstTask = nextId(tasks.table);
  const written = { assignees: 0, comments: 0, open: 0 };
  const someone = employees[3];
  inBatches('tasks', counts.tasks, (i) => {
    const id = firstTask + i;
    const createdAt = since + Math.floor((i / Math.max(1, counts.tasks)) * (today - since));
    const dueAt = createdAt + between(1, 45) * DAY_MS + between(8, 17) * 3_600_000;
    const age = (today - createdAt) / (3650 * DAY_MS);
    const closed = dueAt < today && random() < 0.75 + 0.24 * age;
    const state = closed
      ? random() < 0.9
        ? 'done'
        : 'cancelled'
      : pick(['new', 'inProgress', 'inProgress', 'waiting']);
    if (!closed) written.open += 1;
    const creator = pick(employees);
    const values = {
      title: pick(TASK_TITLES),
      description: random() < 0.4 ? pick(COMMENTS) : null,
      typeId: pick(typeIds),
      priority: pick(PRIORITIES),
      state,
      createdById: creator,
      dueAt: isoAt(dueAt),
      lawsuitId: between(Number(lawsuits.low), Number(lawsuits.high)),
      stateChangedAt: closed ? isoAt(Math.min(today, dueAt - between(0, 3) * DAY_MS)) : null,
      stateChangedById: closed ? creator : null,
    };
    const at = isoAt(createdAt);
    const row = [id, ...[...taskKeys, ...taskKeysClosed].map((k) => values[k] ?? null), at, at];
    if (hasSearch(tasks)) row.push(searchText(tasks, values));
    insertTask.run(row);
    // The probe's assignee has a steady share of the work, as a busy lawyer would.
    const assignees = new Set([random() < 0.05 ? someone : pick(employees)]);
    for (let n = between(0, 2); n > 0; n -= 1) assignees.add(pick(employees));
    for (const employee of assignees) assign.run(id, employee);
    written.assignees += assignees.size;
    if (random() < 0.5) {
      insertComment.run(id, pick(COMMENTS), pick([...assignees]), at, at);
      written.comments += 1;
    }
  });

  // Chats: one-to-one between employees (the administrator with some), section groups, and one
  // busy group of the administrator.
  const t0 = Date.now();
  const insertChat = db.prepare(
    `insert into chats (id, kind, name, direct_key, created_by, created_at, last_activity_at, last_message_id)
     values (?, ?, ?, ?, ?, ?, ?, 0)`,
  );
  const insertMember = db.prepare(
    `insert into chat_members (chat_id, employee_id, admin, archived, last_delivered_id, last_read_id, joined_at)
     values (?, ?, ?, 0, 0, 0, ?)`,
  );
  const chats = [];
  let chatId = nextId('chats');
  const makeChat = (kind, name, members) => {
    const id = chatId++;
    const key = kind === 'direct' ? [...members].sort((a, b) => a - b).join(':') : null;
    insertChat.run(id, kind, name, key, members[0], isoAt(since), isoAt(since));
    for (const [n, member] of members.entries()) insertMember.run(id, member, Number(n === 0), isoAt(since));
    chats.push({ id, members });
    return id;
  };
  db.transaction(() => {
    makeChat('group', 'مجموعة المكتب', [admin, ...employees]);
    for (let a = 0; a < employees.length; a += 1)
      for (let b = a + 1; b < employees.length; b += 1)
        if (random() < 0.25) makeChat('direct', null, [employees[a], employees[b]]);
    for (const other of employees.slice(0, 20)) makeChat('direct', null, [admin, other]);
    for (let g = 0; g < 30; g += 1) {
      const members = new Set([pick(employees)]);
      for (let n = between(2, 12); n > 0; n -= 1) members.add(pick(employees));
      makeChat('group', `فريق ${g + 1}`, [...members]);
    }
  })();
  timings.chats = (Date.now() - t0) / 1000;

  // Messages: a tenth in the administrator's office group, the rest skewed towards a few chats
  // (the square of a uniform number picks low indexes more often); oldest first, so ids grow
  // with time within every chat as the server writes them.
  const insertMessage = db.prepare(
    `insert into chat_messages (id, chat_id, sender_id, client_id, text, search_text, reply_to_id, mentions, created_at)
     values (?, ?, ?, ?, ?, ?, ?, '[]', ?)`,
  );
  const last = new Map();
  const firstMessage = nextId('chat_messages');
  const busy = chats[0];
  inBatches('messages', counts.messages, (i) => {
    const id = firstMessage + i;
    const chat = random() < 0.1 ? busy : chats[Math.floor(random() ** 2 * chats.length)];
    const sender = pick(chat.members);
    const text = `${pick(MESSAGES)}${random() < 0.2 ? ` ${between(1, 9999)}/${between(2016, 2026)}` : ''}`;
    const at = isoAt(since + Math.floor((i / Math.max(1, counts.messages)) * (today - since)));
    const previous = last.get(chat.id);
    insertMessage.run(
      id,
      chat.id,
      sender,
      `bench-${id}`,
      text,
      foldArabic(text),
      previous && random() < 0.05 ? previous.id : null,
      at,
    );
    last.set(chat.id, { id, at });
  });
  // Each chat's last message and activity; members have received everything and read up to a
  // little before the end (some far behind, as an employee back from leave).
  const t1 = Date.now();
  const closeChat = db.prepare('update chats set last_message_id = ?, last_activity_at = ? where id = ?');
  const cursor = db.prepare(
    'update chat_members set last_delivered_id = ?, last_read_id = ? where chat_id = ? and employee_id = ?',
  );
  db.transaction(() => {
    for (const chat of chats) {
      const end = last.get(chat.id);
      if (!end) continue;
      closeChat.run(end.id, end.at, chat.id);
      for (const member of chat.members) {
        const behind = random() < 0.05 ? between(200, 5000) : between(0, 20);
        cursor.run(end.id, Math.max(0, end.id - behind), chat.id, member);
      }
    }
  })();
  timings.cursors = (Date.now() - t1) / 1000;
  Object.assign(timings, restore([tasks.table, comments.table]));
  const busyMessages = Number(
    db.prepare('select count(*) as n from chat_messages where chat_id = ?').get(busy.id).n,
  );
  const busyFirst = Number(
    db.prepare('select min(id) as id from chat_messages where chat_id = ?').get(busy.id).id,
  );
  const busyLast = last.get(busy.id)?.id ?? busyFirst;
  db.close();

  return {
    ...counts,
    ...written,
    chats: chats.length,
    busyChat: { id: busy.id, messages: busyMessages, firstMessageId: busyFirst, lastMessageId: busyLast },
    assignee: someone,
    seconds: +((Date.now() - started) / 1000).toFixed(1),
    timings,
  };
}
