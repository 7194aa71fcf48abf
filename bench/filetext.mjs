// Search inside files' text at scale: BENCH_FILE_TEXTS files (default 100,000), each with the
// text of BENCH_FILE_TEXT_PAGES pages (default 1) as OCR would have read them: Arabic legal
// papers (memos, claims, judgments, receipts) naming clients, courts, case numbers in Arabic-Indic
// digits, amounts and dates, about BENCH_PAGE_WORDS words a page (default 180). Written straight
// into a migrated database in bulk (the files as lawsuit attachments, the pages with their folded
// text; the search index set aside and rebuilt once), then searched by one user through the API
// (`GET /api/files/text/search?q=&entity=attachments`, the content search of a list's files),
// sequentially, BENCH_FILE_TEXT_REQUESTS requests per query (default 100) after a warm-up.
// SQLite, and PostgreSQL with MIZAN_BENCH_PG_URL (the same rows, inserted by `unnest` batches).
// Called from run.mjs (BENCH_FILETEXT=0 leaves it out); on its own: `node bench/filetext.mjs`
// (built server in server/dist, or BENCH_SERVER_DIST), writing bench/results/<date>-filetext.json.
//
// Queries: a case number held by one file (typed in Western digits, stored in Arabic-Indic), a
// client's full name (a few dozen files), a word on most pages, two words that meet on some pages,
// and a word found nowhere. Target: p95 ≤ 50 ms for one user (docs/performance.md).
import { createPgDatabase, serverRequire, signIn, startServer } from './net.mjs';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FAMILY_NAMES, FIRST_NAMES, seeded, setAside } from './legalData.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const FILES = Number(process.env.BENCH_FILE_TEXTS ?? 100_000);
const PAGES = Number(process.env.BENCH_FILE_TEXT_PAGES ?? 1);
const WORDS = Number(process.env.BENCH_PAGE_WORDS ?? 180);
const REQUESTS = Number(process.env.BENCH_FILE_TEXT_REQUESTS ?? 100);
const WARMUP = 10;
const ADMIN = { email: 'filetext-bench@mizan.local', password: 'Bench-Passw0rd!' };
/** Rows per insert statement on PostgreSQL, per transaction on SQLite. */
const BATCH = 5_000;

const CITIES = [
  'القاهرة',
  'الجيزة',
  'الإسكندرية',
  'طنطا',
  'المنصورة',
  'أسيوط',
  'الزقازيق',
  'بنها',
  'دمنهور',
  'سوهاج',
];
const KINDS = ['مدني كلي', 'إيجارات', 'عمال', 'تجاري', 'أسرة', 'جنح مستأنف'];
const PAPERS = ['مذكرة بدفاع', 'صحيفة دعوى', 'حكم', 'محضر جلسة', 'إنذار على يد محضر', 'إيصال استلام'];
const SENTENCES = [
  'وحيث إن المدعي أقام دعواه بطلب فسخ عقد الإيجار المؤرخ وإخلاء العين المؤجرة وتسليمها خالية',
  'وحيث إن الثابت من الأوراق أن المدعى عليه تخلف عن سداد الأجرة المستحقة رغم إنذاره قانونًا',
  'ندفع بعدم قبول الدعوى لرفعها قبل الأوان وبسقوط الحق في المطالبة بالتقادم الخمسي',
  'وقد قدم الحاضر عن المدعي حافظة مستندات طويت على صورة ضوئية من عقد البيع الابتدائي',
  'وحيث إن المحكمة تطمئن إلى تقرير الخبير المنتدب لابتنائه على أسس سليمة',
  'لذلك نلتمس الحكم برفض الدعوى وإلزام المدعي المصروفات ومقابل أتعاب المحاماة',
  'وبجلسة اليوم حضر الطرفان وقررت المحكمة تأجيل نظر الدعوى لجلسة مقبلة للاطلاع والمذكرات',
  'حكمت المحكمة بإلزام المدعى عليه بأن يؤدي للمدعي المبلغ المطالب به والفوائد القانونية',
  'وحيث إن عقد العمل قد انتهى بالفصل التعسفي دون مبرر مشروع مما يستوجب التعويض',
  'استلمت أنا الموقع أدناه أصل المستندات المبينة بعاليه وذلك لتقديمها إلى قلم الكتاب',
  'وحيث إن الطاعن ينعى على الحكم المطعون فيه الخطأ في تطبيق القانون والقصور في التسبيب',
  'وتنبه المحكمة على الخصوم بضرورة تقديم أصول المستندات بالجلسة المحددة',
];

const ARABIC_DIGITS = '٠١٢٣٤٥٦٧٨٩';
const arabicDigits = (n) => String(n).replace(/\d/g, (d) => ARABIC_DIGITS[Number(d)]);

/**
 * The generated papers, one per file: its name, the text of each page, and what the queries look
 * for (a case number held by one file, a client named on a few dozen). The same seed, the same rows.
 */
function* papers(random) {
  const pick = (list) => list[Math.floor(random() * list.length)];
  for (let file = 1; file <= FILES; file++) {
    // Case numbers are unique to a file: `file * 7 + 100000` never repeats and is five or six digits.
    const number = file * 7 + 100_000;
    const year = 2010 + (file % 16);
    const client = `${pick(FIRST_NAMES)} ${pick(FIRST_NAMES)} ${pick(FAMILY_NAMES)}`;
    const paper = pick(PAPERS);
    const pages = [];
    for (let page = 1; page <= PAGES; page++) {
      const lines = [
        'بسم الله الرحمن الرحيم',
        `${paper} في الدعوى رقم ${arabicDigits(number)} لسنة ${arabicDigits(year)} ${pick(KINDS)}`,
        `المقدمة إلى محكمة ${pick(CITIES)} الابتدائية، الدائرة ${arabicDigits(1 + (file % 30))}`,
        `لصالح السيد/ ${client} ضد السيد/ ${pick(FIRST_NAMES)} ${pick(FAMILY_NAMES)}`,
      ];
      let words = lines.join(' ').split(' ').length;
      while (words < WORDS) {
        const sentence =
          random() < 0.15
            ? `بمبلغ وقدره ${arabicDigits(1000 + Math.floor(random() * 900_000))} جنيه بتاريخ ${arabicDigits(1 + Math.floor(random() * 28))}/${arabicDigits(1 + Math.floor(random() * 12))}/${arabicDigits(year)}`
            : pick(SENTENCES);
        lines.push(sentence);
        words += sentence.split(' ').length;
      }
      pages.push(lines.join('\n'));
    }
    yield { file, name: `${paper} ${arabicDigits(number)}.pdf`, number, client, pages };
  }
}

/**
 * The rows of one paper: its `files` row, its `file_texts` row, its pages' rows; ids after `base`
 * (the rows the server wrote at its first start, such as the starter templates' files, are kept).
 */
function rowsOf(paper, fold, at, base) {
  const id = base.file + paper.file;
  const stored = `bench-${String(paper.file).padStart(7, '0')}.pdf`;
  return {
    file: [id, 'attachments', paper.file, 'files', stored, paper.name, 'application/pdf', 50_000, at],
    text: [id, stored, 'done', PAGES, PAGES, at],
    pages: paper.pages.map((text, i) => [
      base.page + (paper.file - 1) * PAGES + i + 1,
      id,
      i + 1,
      text,
      fold(text),
    ]),
  };
}

const FILE_COLUMNS = 'id, entity, owner_id, field, stored_name, original_name, mime_type, size, created_at';
const TEXT_COLUMNS = 'file_id, stored_name, state, pages_done, pages_total, updated_at';
const PAGE_COLUMNS = 'id, file_id, page, text, search_text';

/** Writes the papers into the migrated SQLite database `file`; what the queries look for. */
function seedSqlite(file) {
  const Database = serverRequire('better-sqlite3');
  const { foldArabic } = serverRequire('@mizan/contracts');
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  db.pragma('cache_size = -1000000');
  const restore = setAside(db, ['files', 'file_texts', 'file_text_pages']);
  const insert = (table, columns) =>
    db.prepare(
      `insert into ${table} (${columns}) values (${columns
        .split(', ')
        .map(() => '?')
        .join(', ')})`,
    );
  const files = insert('files', FILE_COLUMNS);
  const texts = insert('file_texts', TEXT_COLUMNS);
  const pages = insert('file_text_pages', PAGE_COLUMNS);
  const at = new Date().toISOString();
  const max = (table) => Number(db.prepare(`select coalesce(max(id), 0) as n from ${table}`).get().n);
  const base = { file: max('files'), page: max('file_text_pages') };
  const targets = { numbers: [], clients: new Map() };
  const t0 = Date.now();
  let batch = [];
  const flush = db.transaction((rows) => {
    for (const r of rows) {
      files.run(r.file);
      texts.run(r.text);
      for (const p of r.pages) pages.run(p);
    }
  });
  for (const paper of papers(seeded(2026))) {
    if (paper.file % 997 === 0) targets.numbers.push(paper.number);
    targets.clients.set(paper.client, (targets.clients.get(paper.client) ?? 0) + 1);
    batch.push(rowsOf(paper, foldArabic, at, base));
    if (batch.length >= BATCH) {
      flush(batch);
      batch = [];
    }
  }
  flush(batch);
  const rows = (Date.now() - t0) / 1000;
  const rebuilt = restore(['file_text_pages']);
  db.exec('analyze');
  db.close();
  return { targets, seconds: { rows, ...rebuilt } };
}

/** The same papers into the migrated PostgreSQL database `url` (the trigram index set aside meanwhile). */
async function seedPostgres(url) {
  const { Client } = serverRequire('pg');
  const { foldArabic } = serverRequire('@mizan/contracts');
  const pg = new Client({ connectionString: url });
  await pg.connect();
  const t0 = Date.now();
  try {
    const indexes = (
      await pg.query(
        `select indexname, indexdef from pg_indexes where schemaname = current_schema()
         and tablename = 'file_text_pages' and indexdef like '%gin%'`,
      )
    ).rows;
    for (const { indexname } of indexes) await pg.query(`drop index "${indexname}"`);
    const types = {
      files: ['int', 'text', 'int', 'text', 'text', 'text', 'text', 'int', 'timestamptz'],
      file_texts: ['int', 'text', 'text', 'int', 'int', 'timestamptz'],
      file_text_pages: ['int', 'int', 'int', 'text', 'text'],
    };
    const send = async (table, columns, rows) => {
      if (!rows.length) return;
      const arrays = types[table].map((_, c) => rows.map((r) => r[c]));
      const params = types[table].map((t, c) => `$${c + 1}::${t}[]`).join(', ');
      await pg.query(`insert into ${table} (${columns}) select * from unnest(${params})`, arrays);
    };
    const at = new Date().toISOString();
    const max = async (table) =>
      Number((await pg.query(`select coalesce(max(id), 0) as n from ${table}`)).rows[0].n);
    const base = { file: await max('files'), page: await max('file_text_pages') };
    let batch = [];
    const flush = async () => {
      await send(
        'files',
        FILE_COLUMNS,
        batch.map((r) => r.file),
      );
      await send(
        'file_texts',
        TEXT_COLUMNS,
        batch.map((r) => r.text),
      );
      await send(
        'file_text_pages',
        PAGE_COLUMNS,
        batch.flatMap((r) => r.pages),
      );
      batch = [];
    };
    await pg.query('begin');
    for (const paper of papers(seeded(2026))) {
      batch.push(rowsOf(paper, foldArabic, at, base));
      if (batch.length >= BATCH) await flush();
    }
    await flush();
    await pg.query('commit');
    const rows = (Date.now() - t0) / 1000;
    const t1 = Date.now();
    for (const { indexdef } of indexes) await pg.query(indexdef);
    await pg.query('select setval(pg_get_serial_sequence($1, $2), (select max(id) from files))', [
      'files',
      'id',
    ]);
    await pg.query('select setval(pg_get_serial_sequence($1, $2), (select max(id) from file_text_pages))', [
      'file_text_pages',
      'id',
    ]);
    await pg.query('analyze files; analyze file_texts; analyze file_text_pages');
    return { rows, searchIndex: (Date.now() - t1) / 1000 };
  } finally {
    await pg.end();
  }
}

/** One user's requests of `q`, one after the other: latency percentiles (ms) and what was found. */
async function searchCase(api, headers, q) {
  const url = `${api}/files/text/search?entity=attachments&q=${encodeURIComponent(q)}`;
  const once = async () => {
    const started = process.hrtime.bigint();
    const res = await fetch(url, { headers });
    const body = await res.json();
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    if (!res.ok) throw new Error(`${q}: ${res.status} ${JSON.stringify(body)}`);
    return { ms, total: body.data.total, totalCapped: body.data.totalCapped, items: body.data.items.length };
  };
  for (let i = 0; i < WARMUP; i++) await once();
  const latencies = [];
  let last;
  for (let i = 0; i < REQUESTS; i++) {
    last = await once();
    latencies.push(last.ms);
  }
  latencies.sort((a, b) => a - b);
  const pct = (p) =>
    +latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))].toFixed(1);
  return {
    q,
    total: last.total,
    totalCapped: last.totalCapped,
    items: last.items,
    p50: pct(50),
    p95: pct(95),
    p99: pct(99),
    max: +latencies.at(-1).toFixed(1),
  };
}

/** The queries, from what the seed wrote. */
function queriesOf(targets) {
  const number = targets.numbers[Math.floor(targets.numbers.length / 2)];
  // A client named on a few files: the first name met between 5 and 50 times.
  const client =
    [...targets.clients].find(([, n]) => n >= 5 && n <= 50)?.[0] ?? [...targets.clients.keys()][0];
  return {
    caseNumber: String(number),
    clientName: client,
    commonWord: 'الدعوى',
    twoWords: 'الخبير الفوائد',
    nowhere: 'كمبيالة',
  };
}

async function measure(serverDist, databaseUrl, dataDir, queries) {
  const server = await startServer(serverDist, { dataDir, databaseUrl, admin: ADMIN });
  try {
    const { headers } = await signIn(server.api, ADMIN, 'filetext-bench');
    const cases = {};
    for (const [name, q] of Object.entries(queries)) cases[name] = await searchCase(server.api, headers, q);
    if (cases.caseNumber.total !== 1)
      throw new Error(`the case number found ${cases.caseNumber.total} files, not 1`);
    return cases;
  } finally {
    await server.stop();
  }
}

/** The case on SQLite, and on PostgreSQL when `pgUrl` is given. */
export async function measureFileTextSearch({
  serverDist = path.join(root, 'server', 'dist'),
  pgUrl = process.env.MIZAN_BENCH_PG_URL || null,
} = {}) {
  const results = {
    files: FILES,
    pagesPerFile: PAGES,
    wordsPerPage: WORDS,
    requestsPerQuery: REQUESTS,
    cpus: os.cpus().length,
    loadAverage: os.loadavg().map((l) => +l.toFixed(2)),
  };
  // BENCH_FILE_TEXT_DIR keeps the data (SQLite file, server folders) there after the run, to look into.
  const kept = process.env.BENCH_FILE_TEXT_DIR ? path.resolve(process.env.BENCH_FILE_TEXT_DIR) : null;
  if (kept) mkdirSync(kept, { recursive: true });
  const dataDir = kept ?? mkdtempSync(path.join(os.tmpdir(), 'mizan-filetext-bench-'));
  try {
    const databaseUrl = `sqlite:${path.join(dataDir, 'filetext.db')}`;
    // The schema: the server migrates the empty database at its first start.
    await (await startServer(serverDist, { dataDir, databaseUrl, admin: ADMIN })).stop();
    const seeded = seedSqlite(databaseUrl.slice('sqlite:'.length));
    results.queries = queriesOf(seeded.targets);
    results.sqlite = {
      seedSeconds: seeded.seconds,
      ...(await measure(serverDist, databaseUrl, dataDir, results.queries)),
    };
    if (pgUrl) {
      const database = await createPgDatabase(pgUrl, 'mizan_filetext_bench');
      try {
        await (await startServer(serverDist, { dataDir, databaseUrl: database.url, admin: ADMIN })).stop();
        const seedSeconds = await seedPostgres(database.url);
        results.postgres = {
          seedSeconds,
          ...(await measure(serverDist, database.url, dataDir, results.queries)),
        };
      } finally {
        await database.drop();
      }
    }
  } finally {
    if (!kept) rmSync(dataDir, { recursive: true, force: true });
  }
  results.loadAverageAtEnd = os.loadavg().map((l) => +l.toFixed(2));
  return results;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const serverDist = path.resolve(root, process.env.BENCH_SERVER_DIST ?? 'server/dist');
  measureFileTextSearch({ serverDist }).then(
    (results) => {
      const text = `${JSON.stringify(results, null, 2)}\n`;
      const out = path.join(
        root,
        'bench/results',
        `${new Date().toISOString().slice(0, 19).replace(/:/g, '-')}-filetext.json`,
      );
      mkdirSync(path.dirname(out), { recursive: true });
      writeFileSync(out, text);
      console.log(text);
      console.log(`written ${path.relative(root, out)}`);
    },
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
