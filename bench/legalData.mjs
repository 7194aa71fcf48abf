// A law office's legal data at scale, written straight into a migrated Mizan SQLite database: the
// lawsuits and hearings benchmarks (`npm run bench`) and the dashboard's use it.
//
//   import { legalCounts, seedLegal } from './legalData.mjs';
//   const stats = seedLegal('data/bench.db', legalCounts()); // BENCH_LAWSUITS, BENCH_SESSIONS
//
// The schema must exist (start the built server once on the empty data directory, stop it); the
// server's next start recounts the totals. Tables and columns come from the definitions in
// @mizan/contracts, and each row's folded search text from the server's own `searchText`, so the
// FTS triggers index exactly what the engine would have written. The same seed gives the same rows.
//
// What it writes: courts of twenty Egyptian cities with their circuits (numbered per court) and
// judges (of those circuits), settings lists, ~50 employees of which 40 lawyers, clients and
// opponents with Arabic names (hamza written or not, as typed), lawsuits over ten years with file
// numbers `<year>/<seq>`, on a court, a circuit of that court and a judge of that circuit, 1-6
// hearings each as a postponement chain (`previous_id`, decision and next date on each postponed
// one), and fee payments for about a third of them.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const serverRequire = createRequire(path.join(root, 'server', 'package.json'));

export const DEFAULT_LAWSUITS = 1_000_000;
export const DEFAULT_SESSIONS = 3_000_000;

/**
 * Row counts from the environment: `BENCH_LAWSUITS` (default 1,000,000) and `BENCH_SESSIONS`
 * (default 3,000,000, between one and six per lawsuit); clients and opponents follow the lawsuits.
 */
export function legalCounts(env = process.env) {
  const lawsuits = Number(env.BENCH_LAWSUITS ?? DEFAULT_LAWSUITS);
  const sessions = Number(env.BENCH_SESSIONS ?? DEFAULT_SESSIONS);
  if (!(lawsuits > 0) || sessions < lawsuits || sessions > 6 * lawsuits)
    throw new Error(
      `BENCH_SESSIONS must be between BENCH_LAWSUITS and six times it (${lawsuits}, ${sessions})`,
    );
  return {
    lawsuits,
    sessions,
    customers: Math.max(10, Math.round(lawsuits / 4)),
    opponents: Math.max(10, Math.round(lawsuits / 3)),
  };
}

/** A repeatable pseudo-random sequence in [0, 1), so every run seeds the same rows. */
export function seeded(seed) {
  let state = seed >>> 0;
  return () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

/** First names, some with and some without their hamza or ta marbuta, as typed in practice. */
export const FIRST_NAMES = [
  ...['محمد', 'أحمد', 'احمد', 'محمود', 'مصطفى', 'إبراهيم', 'ابراهيم', 'علي', 'عليّ', 'حسن', 'حسين'],
  ...['عبد الله', 'عبد الرحمن', 'يوسف', 'خالد', 'عمرو', 'طارق', 'سامح', 'هشام', 'وائل', 'أيمن', 'ايمن'],
  ...['إسلام', 'اسلام', 'كريم', 'شريف', 'ياسر', 'أسامة', 'اسامه', 'مؤمن', 'رؤوف', 'عادل', 'سعيد', 'جمال'],
  ...['فاطمة', 'فاطمه', 'مريم', 'آية', 'اية', 'نورا', 'هدى', 'سارة', 'ساره', 'منى', 'إيمان', 'ايمان'],
  ...['رحاب', 'دعاء', 'أسماء', 'اسماء', 'زينب', 'هبة', 'هبه', 'ياسمين', 'رضوى', 'شيماء', 'سلمى', 'نهى'],
];
/** Fathers' and grandfathers' names: men's names only. */
const MALE_NAMES = FIRST_NAMES.slice(0, 35);
export const FAMILY_NAMES = [
  ...['السيد', 'الشناوي', 'عبد الفتاح', 'المصري', 'الشافعي', 'النجار', 'الحداد', 'عبد العزيز', 'الجندي'],
  ...['البنا', 'الشربيني', 'القاضي', 'الفقي', 'الدسوقي', 'العطار', 'البدوي', 'الزيات', 'الخولي'],
  ...['الصعيدي', 'عثمان', 'سليمان', 'رمضان', 'منصور', 'عبد الحميد', 'الأنصاري', 'الانصاري', 'الإمام'],
];
const COMPANY_KINDS = ['شركة', 'مؤسسة', 'مجموعة', 'مصنع'];
const ACTIVITIES = [
  'للمقاولات',
  'للاستيراد والتصدير',
  'للتجارة والتوزيع',
  'للاستثمار العقاري',
  'للصناعات الغذائية',
  'للنقل والشحن',
  'للأدوية',
  'للحديد والصلب',
  'للسياحة',
  'للتطوير العقاري',
];
/** Cities with the weight of their share of the office's work. */
const CITIES = [
  ['القاهرة', 10],
  ['الجيزة', 7],
  ['الإسكندرية', 6],
  ['المنصورة', 3],
  ['طنطا', 3],
  ['الزقازيق', 3],
  ['بنها', 2],
  ['شبين الكوم', 2],
  ['دمنهور', 2],
  ['كفر الشيخ', 1],
  ['دمياط', 1],
  ['بورسعيد', 1],
  ['الإسماعيلية', 1],
  ['السويس', 1],
  ['الفيوم', 1],
  ['بني سويف', 1],
  ['المنيا', 1],
  ['أسيوط', 2],
  ['سوهاج', 1],
  ['قنا', 1],
];
/**
 * Courts of each city by kind (`courtType` of the definition), the specialities of their circuits
 * and the lawsuit types they hear; appeal courts sit in the first cities only.
 */
const COURT_KINDS = [
  {
    name: (c) => `محكمة ${c} الابتدائية`,
    type: 'general',
    circuits: ['مدني كلي', 'إيجارات', 'تعويضات', 'مدني'],
    lawsuitTypes: ['مدني', 'إيجارات', 'تعويضات'],
    share: 5,
  },
  {
    name: (c) => `محكمة ${c} الاقتصادية`,
    type: 'commercial',
    circuits: ['اقتصادي', 'تجاري'],
    lawsuitTypes: ['تجاري', 'شيكات'],
    share: 2,
  },
  {
    name: (c) => `محكمة الأسرة ب${c}`,
    type: 'personalStatus',
    circuits: ['أسرة', 'نفقات', 'ولاية على النفس'],
    lawsuitTypes: ['أحوال شخصية'],
    share: 3,
  },
  {
    name: (c) => `محكمة ${c} العمالية`,
    type: 'labour',
    circuits: ['عمال'],
    lawsuitTypes: ['عمالي'],
    share: 1,
  },
  {
    name: (c) => `محكمة جنح ${c}`,
    type: 'criminal',
    circuits: ['جنح', 'جنح مستأنف'],
    lawsuitTypes: ['جنائي', 'شيكات'],
    share: 2,
  },
  {
    name: (c) => `محكمة استئناف ${c}`,
    type: 'appeal',
    circuits: ['استئناف مدني', 'استئناف تجاري', 'استئناف أسرة'],
    lawsuitTypes: ['مدني', 'تجاري', 'أحوال شخصية'],
    share: 1,
    cities: 6,
  },
];
const LAWSUIT_TYPES = ['مدني', 'إيجارات', 'تعويضات', 'تجاري', 'شيكات', 'أحوال شخصية', 'عمالي', 'جنائي'];
const SUBJECTS = {
  مدني: ['صحة ونفاذ عقد بيع', 'إلزام بتحرير عقد بيع نهائي', 'طرد للغصب', 'فرز وتجنيب حصة في عقار'],
  إيجارات: ['فسخ عقد إيجار وإخلاء عين مؤجرة', 'إخلاء لعدم سداد الأجرة', 'إثبات علاقة إيجارية'],
  تعويضات: ['تعويض عن أضرار مادية وأدبية', 'تعويض عن حادث سيارة', 'تعويض عن إخلال بعقد'],
  تجاري: ['مطالبة بقيمة فواتير توريد', 'فسخ عقد توريد', 'إشهار إفلاس', 'مطالبة بقيمة كمبيالات'],
  شيكات: ['مطالبة بقيمة شيكات بدون رصيد', 'إصدار شيك بدون رصيد'],
  'أحوال شخصية': ['نفقة زوجية ونفقة صغار', 'حضانة ورؤية', 'خلع', 'تطليق للضرر', 'أجر مسكن'],
  عمالي: ['مستحقات عمالية ومكافأة نهاية خدمة', 'تعويض عن فصل تعسفي', 'أجور متأخرة'],
  جنائي: ['خيانة أمانة', 'تبديد منقولات', 'سب وقذف', 'نصب'],
};
const OWNER_TYPES = ['مدعي', 'مدعى عليه', 'مستأنف', 'مستأنف ضده', 'مجني عليه', 'متهم'];
/** Stages: `ongoing` while the lawsuit runs, the final ones when it closes. */
const CASES = [
  ['قيد النظر', 'ongoing'],
  ['محجوزة للحكم', 'ongoing'],
  ['بالخبراء', 'ongoing'],
  ['حكم لصالح الموكل', 'won'],
  ['صلح', 'won'],
  ['حكم ضد الموكل', 'lost'],
  ['شطب', 'lost'],
];
const SESSION_TYPES = ['أولى', 'مرافعة', 'تحضير', 'خبراء', 'تحقيق', 'نطق بالحكم'];
const ATTENDANCES = ['حضور شخصي', 'بتوكيل', 'عن بعد'];
const RANKS = ['رئيس محكمة', 'مستشار', 'قاضٍ', 'رئيس بالمحكمة'];
const BRANCHES = ['الفرع الرئيسي - القاهرة', 'فرع الإسكندرية', 'فرع المنصورة'];
const SECTIONS = ['القسم المدني', 'القسم التجاري', 'القسم الجنائي', 'قسم الأحوال الشخصية'];
const POSTPONEMENTS = [
  'تأجيل للاطلاع',
  'تأجيل لتقديم مستندات',
  'تأجيل لإعلان الخصوم',
  'تأجيل لضم مفردات',
  'إحالة إلى الخبراء',
  'تأجيل للمذكرات',
  'تأجيل لحضور الموكل',
  'حجز للحكم',
];
const TIMES = ['09:00', '09:30', '10:00', '10:30', '11:00', '11:30', '12:00', null];
const REQUIREMENTS = ['تقديم أصل العقد', 'إعلان الخصم', 'مذكرة دفاع', 'حافظة مستندات', null, null, null];
const PAYMENT_METHODS = ['cash', 'cash', 'bankTransfer', 'cheque', 'card'];

const DAY_MS = 86_400_000;
const isoDay = (ms) => new Date(ms).toISOString().slice(0, 10);
const isoAt = (ms) => new Date(ms).toISOString();

/** The dashboard module's table of maintained aggregates (its migration creates it). */
const DASHBOARD_STATS = 'dashboard_stats';

/** Empties the dashboard's aggregates of a SQLite database, if it has them (see `seedLegal`). */
function clearDashboardStats(db) {
  if (db.prepare("select 1 from sqlite_master where type = 'table' and name = ?").get(DASHBOARD_STATS))
    db.exec(`delete from ${DASHBOARD_STATS}`);
}

/**
 * Sets aside the indexes and triggers (search, write versions) of `tables` of the SQLite database
 * `db` while rows go in: an index built once over sorted rows, and one FTS rebuild, cost a fraction
 * of keeping them in step row by row (the triggers alone are nine tenths of the time). Returns the
 * function that restores them and rebuilds the search index of `searched` tables, answering the
 * seconds each took.
 */
export function setAside(db, tables) {
  const kept = db
    .prepare(
      `select type, name, sql from sqlite_master where type in ('index', 'trigger') and sql is not null
       and tbl_name in (${tables.map(() => '?').join(', ')})`,
    )
    .all(...tables);
  for (const { type, name } of kept) db.exec(`drop ${type} "${name}"`);
  return (searched) => {
    const t0 = Date.now();
    for (const { type, sql } of kept) if (type === 'index') db.exec(sql);
    const indexes = (Date.now() - t0) / 1000;
    const t1 = Date.now();
    for (const { type, sql } of kept) if (type === 'trigger') db.exec(sql);
    for (const table of searched) {
      const fts = `${table}_search_fts`;
      if (db.prepare("select 1 from sqlite_master where type = 'table' and name = ?").get(fts))
        db.exec(`insert into "${fts}"("${fts}") values ('rebuild')`);
    }
    return { indexes, searchIndex: (Date.now() - t1) / 1000 };
  };
}

/** Rows per transaction: big enough to be fast, small enough to keep the WAL short. */
const BATCH = 100_000;

/**
 * Writes the legal data set into the SQLite database `file` (migrated, legal tables empty) and
 * returns what it wrote and how long each part took. `counts` as `legalCounts()` gives them;
 * `serverDist` is the built server whose `searchText` folds the rows (default `server/dist`).
 */
export function seedLegal(file, counts = legalCounts(), options = {}) {
  const Database = serverRequire('better-sqlite3');
  const { getEntity, snakeCase } = serverRequire('@mizan/contracts');
  const serverDist = options.serverDist ?? path.join(root, 'server/dist');
  const { searchText, hasSearch } = serverRequire(path.join(serverDist, 'db/migrations/searchColumn.js'));
  const random = seeded(options.seed ?? 2026);
  const pick = (list) => list[Math.floor(random() * list.length)];
  const between = (low, high) => low + Math.floor(random() * (high - low + 1));
  const today = Date.parse(`${isoDay(options.now ?? Date.now())}T00:00:00Z`);
  const started = Date.now();
  const timings = {};

  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  db.pragma('cache_size = -1000000');
  db.pragma('temp_store = MEMORY');

  /**
   * A prepared insert of entity rows given by field name (columns by the definitions' naming),
   * `id` explicit, `created_at`/`updated_at` last, plus the folded search text when the entity has
   * search fields. Returns `(id, values, createdAt)`.
   */
  function inserter(name, keys, { orIgnore = false } = {}) {
    const entity = getEntity(name);
    const search = hasSearch(entity);
    const columns = [
      'id',
      ...keys.map(snakeCase),
      'created_at',
      'updated_at',
      ...(search ? ['search_text'] : []),
    ];
    const statement = db.prepare(
      `insert ${orIgnore ? 'or ignore ' : ''}into ${entity.table} (${columns.map((c) => `"${c}"`).join(', ')}) values (${columns.map(() => '?').join(', ')})`,
    );
    return (id, values, at) => {
      const row = [
        id,
        ...keys.map((k) => (typeof values[k] === 'boolean' ? Number(values[k]) : (values[k] ?? null))),
      ];
      row.push(at, at);
      if (search) row.push(searchText(entity, values));
      return statement.run(row);
    };
  }
  /** `(owner_id, ref_id)` rows of a `refs` field's join table. */
  function linker(name, field) {
    const statement = db.prepare(
      `insert or ignore into ${getEntity(name).table}_${snakeCase(field)} (owner_id, ref_id) values (?, ?)`,
    );
    return (owner, ref) => statement.run(owner, ref);
  }
  const nextId = (name) =>
    Number(db.prepare(`select coalesce(max(id), 0) + 1 as id from ${getEntity(name).table}`).get().id);
  /** Ids by name of a settings list (rows already there, as the server may have seeded, are kept). */
  function namedList(name, rows) {
    const insert = inserter(name, Object.keys(rows[0]), { orIgnore: true });
    const table = getEntity(name).table;
    const at = isoAt(today - 3700 * DAY_MS);
    let id = nextId(name);
    for (const row of rows) if (insert(id, row, at).changes) id += 1;
    const ids = new Map(
      db
        .prepare(`select id, name from ${table}`)
        .all()
        .map((r) => [r.name, Number(r.id)]),
    );
    return rows.map((r) => ids.get(r.name));
  }
  /** Runs `write(i)` for i in [0, n) in transactions of `BATCH`, timing it under `label`. */
  function inBatches(label, n, write) {
    const t0 = Date.now();
    const batch = db.transaction((from, to) => {
      for (let i = from; i < to; i += 1) write(i);
    });
    for (let from = 0; from < n; from += BATCH) batch(from, Math.min(n, from + BATCH));
    timings[label] = (Date.now() - t0) / 1000;
  }
  const personName = () =>
    `${pick(FIRST_NAMES)} ${pick(MALE_NAMES)} ${pick(MALE_NAMES)} ${pick(FAMILY_NAMES)}`;
  const mobile = () => `01${pick(['0', '1', '2', '5'])}${String(between(0, 99_999_999)).padStart(8, '0')}`;

  // Settings lists, courts with their circuits and judges.
  const t0 = Date.now();
  const setup = db.transaction(() => {
    const lawsuitTypes = new Map(
      namedList(
        'lawsuitTypes',
        LAWSUIT_TYPES.map((name) => ({ name })),
      ).map((id, i) => [LAWSUIT_TYPES[i], id]),
    );
    const owners = namedList(
      'lawsuitOwners',
      OWNER_TYPES.map((name) => ({ name })),
    );
    const caseIds = namedList(
      'lawsuitCases',
      CASES.map(([name, outcome]) => ({ name, outcome })),
    );
    const cases = {
      ongoing: caseIds.filter((_, i) => CASES[i][1] === 'ongoing'),
      final: caseIds.filter((_, i) => CASES[i][1] !== 'ongoing'),
    };
    const sessionTypes = namedList(
      'sessionTypes',
      SESSION_TYPES.map((name) => ({ name })),
    );
    const attendances = namedList(
      'sessionAttendances',
      ATTENDANCES.map((name) => ({ name })),
    );
    const ranks = namedList(
      'judicialRanks',
      RANKS.map((name, order) => ({ name, order })),
    );
    const branches = namedList(
      'branches',
      BRANCHES.map((name) => ({ name })),
    );
    const sections = namedList(
      'administrativeSections',
      SECTIONS.map((name, i) => ({ name, branchId: branches[i % branches.length] })),
    );

    const at = isoAt(today - 3700 * DAY_MS);
    const insertCourt = inserter('courts', ['name', 'courtType']);
    const insertCircuit = inserter('circuits', ['name', 'number', 'courtId']);
    const insertJudge = inserter('judges', ['name', 'circuitId', 'judicialRankId']);
    let courtId = nextId('courts');
    let circuitId = nextId('circuits');
    let judgeId = nextId('judges');
    const courts = [];
    for (const kind of COURT_KINDS)
      for (const [city, weight] of CITIES.slice(0, kind.cities ?? CITIES.length)) {
        insertCourt(courtId, { name: kind.name(city), courtType: kind.type }, at);
        const circuits = [];
        const count = between(3, 8);
        for (let n = 1; n <= count; n += 1) {
          insertCircuit(
            circuitId,
            { name: `الدائرة ${n} ${kind.circuits[(n - 1) % kind.circuits.length]}`, number: n, courtId },
            at,
          );
          const judges = [];
          for (let j = between(1, 2); j > 0; j -= 1) {
            const title = kind.type === 'appeal' ? 'المستشار' : 'القاضي';
            insertJudge(
              judgeId,
              {
                name: `${title} ${pick(MALE_NAMES)} ${pick(MALE_NAMES)} ${pick(FAMILY_NAMES)}`,
                circuitId,
                judicialRankId: pick(ranks),
              },
              at,
            );
            judges.push(judgeId);
            judgeId += 1;
          }
          circuits.push({ id: circuitId, judges });
          circuitId += 1;
        }
        courts.push({ id: courtId, kind, weight: weight * kind.share, circuits });
        courtId += 1;
      }

    // About fifty employees: forty lawyers, the rest office staff. They cannot sign in (no hash).
    const insertEmployee = inserter('employees', [
      'name',
      'email',
      'username',
      'phone',
      'jobTitle',
      'password',
      'branchId',
      'administrativeSectionId',
      'hireDate',
    ]);
    let employeeId = nextId('employees');
    const lawyers = [];
    for (let i = 0; i < 50; i += 1) {
      const lawyer = i < 40;
      insertEmployee(
        employeeId,
        {
          name: personName(),
          email: `bench.staff${i}@mizan.local`,
          username: `bench_staff_${i}`,
          phone: mobile(),
          jobTitle: lawyer
            ? pick(['محامٍ', 'محامٍ أول', 'شريك', 'محامٍ تحت التمرين'])
            : pick(['سكرتارية', 'محاسب', 'مندوب محاكم']),
          password: '!',
          branchId: branches[i % branches.length],
          administrativeSectionId: sections[i % sections.length],
          hireDate: isoDay(today - between(100, 4000) * DAY_MS),
        },
        at,
      );
      if (lawyer) lawyers.push(employeeId);
      employeeId += 1;
    }
    return { lawsuitTypes, owners, cases, sessionTypes, attendances, branches, sections, courts, lawyers };
  });
  const lists = setup();
  timings.settings = (Date.now() - t0) / 1000;
  const { courts, lawyers } = lists;
  const totalWeight = courts.reduce((sum, c) => sum + c.weight, 0);
  const pickCourt = () => {
    let r = random() * totalWeight;
    for (const court of courts) if ((r -= court.weight) < 0) return court;
    return courts[courts.length - 1];
  };

  // The bulk tables' indexes and triggers, as the server created them, are set aside while rows
  // go in and restored after (`setAside`).
  const bulk = ['customers', 'opponents', 'lawsuits', 'sessions', 'lawsuitPayments'].map(
    (n) => getEntity(n).table,
  );
  const bulkTables = [
    ...bulk,
    ...['customerIds', 'opponentIds', 'lawyerIds'].map((f) => `lawsuits_${snakeCase(f)}`),
  ];
  const restore = setAside(db, bulkTables);

  // Clients and opponents: people (most) and companies.
  const since = today - 3650 * DAY_MS;
  const firstCustomer = nextId('customers');
  const insertCustomer = inserter('customers', [
    'name',
    'kind',
    'nationalId',
    'commercialRegister',
    'phone',
    'mobile',
    'lawyerId',
  ]);
  inBatches('customers', counts.customers, (i) => {
    const company = random() < 0.15;
    insertCustomer(
      firstCustomer + i,
      {
        name: company ? `${pick(COMPANY_KINDS)} ${pick(FAMILY_NAMES)} ${pick(ACTIVITIES)}` : personName(),
        kind: company ? 'company' : 'person',
        // Other ranges than the search benchmark's clients: national IDs are unique.
        nationalId: company ? null : String(27_000_000_000_000 + i * 7919),
        commercialRegister: company ? String(100_000 + i) : null,
        phone: random() < 0.3 ? `02${String(between(0, 99_999_999)).padStart(8, '0')}` : null,
        mobile: mobile(),
        lawyerId: pick(lawyers),
      },
      isoAt(since + i * ((today - since) / counts.customers)),
    );
  });
  const firstOpponent = nextId('opponents');
  const insertOpponent = inserter('opponents', ['name', 'kind', 'nationalId', 'mobile', 'lawyerName']);
  inBatches('opponents', counts.opponents, (i) => {
    const company = random() < 0.2;
    insertOpponent(
      firstOpponent + i,
      {
        name: company ? `${pick(COMPANY_KINDS)} ${pick(FAMILY_NAMES)} ${pick(ACTIVITIES)}` : personName(),
        kind: company ? 'company' : 'person',
        // The office often does not know an opponent's ID.
        nationalId: !company && random() < 0.4 ? String(26_000_000_000_000 + i * 7919) : null,
        mobile: random() < 0.5 ? mobile() : null,
        lawyerName: random() < 0.4 ? `الأستاذ ${pick(MALE_NAMES)} ${pick(FAMILY_NAMES)}` : null,
      },
      isoAt(since + i * ((today - since) / counts.opponents)),
    );
  });

  // Lawsuits in filing order over ten years, each with its parties, lawyers and hearings.
  const insertLawsuit = inserter('lawsuits', [
    'fileNumber',
    'caseNumber',
    'caseYear',
    'lawsuitTypeId',
    'lawsuitCaseId',
    'courtId',
    'circuitId',
    'judgeId',
    'branchId',
    'administrativeSectionId',
    'ownerTypeId',
    'subject',
    'claimAmount',
    'agreedFee',
    'filingDate',
    'state',
  ]);
  const insertSession = inserter('sessions', [
    'lawsuitId',
    'date',
    'time',
    'courtId',
    'circuitId',
    'judgeId',
    'sessionTypeId',
    'attendanceId',
    'lawyerId',
    'requirements',
    'decision',
    'nextDate',
    'previousId',
  ]);
  const insertPayment = inserter('lawsuitPayments', [
    'lawsuitId',
    'amount',
    'paidOn',
    'method',
    'receiptNumber',
    'overpayment',
  ]);
  const linkCustomer = linker('lawsuits', 'customerIds');
  const linkOpponent = linker('lawsuits', 'opponentIds');
  const linkLawyer = linker('lawsuits', 'lawyerIds');
  const firstLawsuit = nextId('lawsuits');
  let sessionId = nextId('sessions');
  let paymentId = nextId('lawsuitPayments');
  let sessionsLeft = counts.sessions;
  const perYear = new Map();
  const written = { sessions: 0, payments: 0, links: 0, completed: 0, lastHearing: today };
  const dates = [];
  inBatches('lawsuits', counts.lawsuits, (i) => {
    const id = firstLawsuit + i;
    const filedAt = since + Math.floor((i / counts.lawsuits) * (today - 10 * DAY_MS - since));
    const filingDate = isoDay(filedAt);
    const year = filingDate.slice(0, 4);
    const seq = (perYear.get(year) ?? 0) + 1;
    perYear.set(year, seq);
    const court = pickCourt();
    const circuit = pick(court.circuits);
    const judgeId = pick(circuit.judges);
    const typeName = pick(court.kind.lawsuitTypes);
    const lawyerIds = random() < 0.3 ? [pick(lawyers), pick(lawyers)] : [pick(lawyers)];

    // Hearings: between one and six, averaging what is left over the lawsuits left.
    const lawsuitsLeft = counts.lawsuits - i;
    const mean = sessionsLeft / lawsuitsLeft;
    const count = Math.max(
      1,
      Math.min(6, sessionsLeft - (lawsuitsLeft - 1), Math.floor(random() * (2 * mean - 1)) + 1),
    );
    sessionsLeft -= count;
    dates.length = 0;
    let day = filedAt + between(20, 60) * DAY_MS;
    for (let k = 0; k < count; k += 1) {
      dates.push(day);
      day += between(14, 70) * DAY_MS;
    }
    const last = dates[count - 1];
    if (last > written.lastHearing) written.lastHearing = last;
    // Closed: most of those whose last hearing is well past, the older the likelier.
    const age = (today - filedAt) / (3650 * DAY_MS);
    const completed = last < today - 30 * DAY_MS && random() < 0.3 + 0.6 * age;
    if (completed) written.completed += 1;

    const fileNumber = `${year}/${String(seq).padStart(4, '0')}`;
    const at = isoAt(filedAt + between(8, 15) * 3_600_000);
    const agreedFee = random() < 0.8 ? between(5_000, 200_000) * 100 : null;
    insertLawsuit(
      id,
      {
        fileNumber,
        caseNumber: String(between(100, 25_000)),
        caseYear: Number(year),
        lawsuitTypeId: lists.lawsuitTypes.get(typeName),
        lawsuitCaseId: completed
          ? pick(lists.cases.final)
          : random() < 0.7
            ? pick(lists.cases.ongoing)
            : null,
        courtId: court.id,
        circuitId: circuit.id,
        judgeId,
        branchId: pick(lists.branches),
        administrativeSectionId: pick(lists.sections),
        ownerTypeId: pick(lists.owners),
        subject: `${pick(SUBJECTS[typeName])}${random() < 0.3 ? ` - رقم ${between(1, 999)} لسنة ${year}` : ''}`,
        claimAmount: random() < 0.7 ? between(10_000, 5_000_000) * 100 : null,
        agreedFee,
        filingDate,
        state: completed ? 'completed' : 'active',
      },
      at,
    );
    const customers = random() < 0.15 ? 2 : 1;
    for (let c = 0; c < customers; c += 1) linkCustomer(id, firstCustomer + between(0, counts.customers - 1));
    const opponents = random() < 0.25 ? 2 : 1;
    for (let o = 0; o < opponents; o += 1) linkOpponent(id, firstOpponent + between(0, counts.opponents - 1));
    for (const lawyer of lawyerIds) linkLawyer(id, lawyer);
    written.links += customers + opponents + lawyerIds.length;

    // The chain: each hearing but the last was postponed to the next one.
    const time = pick(TIMES);
    const lawyerId = lawyerIds[0];
    for (let k = 0; k < count; k += 1) {
      const date = dates[k];
      const postponed = k < count - 1;
      let decision = null;
      if (postponed) decision = pick(POSTPONEMENTS);
      else if (completed) decision = 'صدر الحكم';
      else if (date < today && random() < 0.5) decision = pick(POSTPONEMENTS);
      insertSession(
        sessionId,
        {
          lawsuitId: id,
          date: isoDay(date),
          time,
          courtId: court.id,
          circuitId: circuit.id,
          judgeId,
          sessionTypeId: k === 0 ? lists.sessionTypes[0] : pick(lists.sessionTypes),
          attendanceId: pick(lists.attendances),
          lawyerId: random() < 0.9 ? lawyerId : pick(lawyerIds),
          requirements: pick(REQUIREMENTS),
          decision,
          nextDate: postponed ? isoDay(dates[k + 1]) : null,
          previousId: k === 0 ? null : sessionId - 1,
        },
        k === 0 ? at : isoAt(dates[k - 1] + 13 * 3_600_000),
      );
      sessionId += 1;
    }
    written.sessions += count;

    // Fees: about four in ten of the lawsuits with an agreed fee have payments, never above it.
    if (agreedFee && random() < 0.4) {
      const fee = agreedFee;
      let paid = 0;
      for (let p = between(1, 4); p > 0; p -= 1) {
        const amount = Math.min(fee - paid, between(1_000, 50_000) * 100);
        if (amount <= 0) break;
        paid += amount;
        const paidOn = Math.min(today, filedAt + between(0, 400) * DAY_MS);
        insertPayment(
          paymentId,
          {
            lawsuitId: id,
            amount,
            paidOn: isoDay(paidOn),
            method: pick(PAYMENT_METHODS),
            receiptNumber: `R-${year}-${paymentId}`,
            overpayment: false,
          },
          isoAt(paidOn + 11 * 3_600_000),
        );
        paymentId += 1;
        written.payments += 1;
      }
    }
  });

  Object.assign(timings, restore(bulk));
  // The dashboard's maintained aggregates (server/src/dashboard/stats.ts) were built on the empty
  // tables at the first start and know nothing of rows written around the engine: removing them
  // with their "built" mark makes the next start compute them again from the tables; at scale,
  // call `buildDashboardStats` instead (that start would take too long).
  clearDashboardStats(db);
  db.close();

  const seconds = (Date.now() - started) / 1000;
  const rows =
    counts.customers +
    counts.opponents +
    counts.lawsuits +
    written.sessions +
    written.payments +
    written.links;
  return {
    ...counts,
    sessions: written.sessions,
    payments: written.payments,
    partyAndLawyerLinks: written.links,
    completedLawsuits: written.completed,
    courts: courts.map((c) => c.id),
    lawyers,
    /** The first and last months with hearings, `YYYY-MM`. */
    months: { from: isoDay(since).slice(0, 7), to: isoDay(written.lastHearing).slice(0, 7) },
    seconds: +seconds.toFixed(1),
    rowsPerSecond: Math.round(rows / seconds),
    timings,
  };
}

/** The entities `seedLegal` writes, referenced ones first (the order their rows are copied in). */
const WRITTEN = [
  ...['lawsuitTypes', 'lawsuitOwners', 'lawsuitCases', 'sessionTypes', 'sessionAttendances'],
  ...['judicialRanks', 'branches', 'administrativeSections', 'courts', 'circuits', 'judges', 'employees'],
  ...['customers', 'opponents', 'lawsuits', 'sessions', 'lawsuitPayments'],
  // Written by workData.mjs beside them (empty when it did not run).
  ...['taskTypes', 'tasks', 'taskComments'],
];

/**
 * Copies the legal data set of the SQLite database `file` (written by `seedLegal`) into the
 * PostgreSQL database `url`, migrated by the same server build and otherwise untouched (so that
 * both hold the same start-up rows under the same ids; those are kept). INSERTs of `unnest`ed
 * column arrays through `pg`, 20,000 rows each, in id order; the tables' secondary indexes are dropped first and created again after, and
 * foreign keys are not checked row by row (`session_replication_role`: the rows come from a
 * database that checked them). Sequences are moved past the copied ids and the tables analysed;
 * the dashboard's aggregates are then `buildDashboardStats`' job. `tables`: tables of modules'
 * own (not entities), copied after the entities' in the order given.
 */
export async function copyToPostgres(file, url, { tables: extraTables = [] } = {}) {
  const Database = serverRequire('better-sqlite3');
  const { Client } = serverRequire('pg');
  const { getEntity, snakeCase } = serverRequire('@mizan/contracts');
  const started = Date.now();
  const timings = {};
  const lite = new Database(file, { readonly: true });
  const pg = new Client({ connectionString: url });
  await pg.connect();
  try {
    const tables = [];
    for (const name of WRITTEN) {
      const entity = getEntity(name);
      tables.push(entity.table);
      for (const [key, field] of Object.entries(entity.fields))
        if (field.type === 'refs') tables.push(`${entity.table}_${snakeCase(key)}`);
    }
    tables.push(...extraTables);
    const indexes = (
      await pg.query(
        `select i.indexname, i.indexdef from pg_indexes i
         where i.schemaname = current_schema() and i.tablename = any($1)
         and not exists (select 1 from pg_constraint c where c.conname = i.indexname)`,
        [tables],
      )
    ).rows;
    for (const { indexname } of indexes) await pg.query(`drop index "${indexname}"`);
    await pg.query('set session_replication_role = replica');
    let rows = 0;
    for (const table of tables) {
      const t0 = Date.now();
      const columns = (
        await pg.query(
          `select a.attname as column_name, format_type(a.atttypid, a.atttypmod) as type
           from pg_attribute a where a.attrelid = $1::regclass and a.attnum > 0 and not a.attisdropped`,
          [table],
        )
      ).rows;
      const liteColumns = new Set(
        lite
          .prepare(`select name from pragma_table_info(?)`)
          .all(table)
          .map((c) => c.name),
      );
      const shared = columns.filter((c) => liteColumns.has(c.column_name));
      const boolean = shared.map((c) => c.type === 'boolean');
      const hasId = liteColumns.has('id');
      // One array parameter per column (`unnest`): far cheaper to send and parse than a
      // parameter per value.
      const perStatement = 20_000;
      const list = shared.map((c) => `"${c.column_name}"`).join(', ');
      const arrays = shared.map((c, i) => `$${i + 1}::${c.type}[]`).join(', ');
      const flush = async (batch) => {
        const values = shared.map((_, i) =>
          batch.map((row) => (boolean[i] && row[i] !== null ? row[i] === 1 : row[i])),
        );
        await pg.query(
          `insert into "${table}" (${list}) select * from unnest(${arrays}) on conflict do nothing`,
          values,
        );
      };
      const select = lite.prepare(`select ${list} from "${table}"${hasId ? ' order by id' : ''}`).raw(true);
      let batch = [];
      await pg.query('begin');
      for (const row of select.iterate()) {
        batch.push(row);
        rows += 1;
        if (batch.length === perStatement) {
          await flush(batch);
          batch = [];
        }
      }
      if (batch.length) await flush(batch);
      await pg.query('commit');
      if (hasId)
        await pg.query(
          `select setval(pg_get_serial_sequence($1, 'id'), (select coalesce(max(id), 1) from "${table}"))
           where pg_get_serial_sequence($1, 'id') is not null`,
          [table],
        );
      timings[table] = (Date.now() - t0) / 1000;
    }
    await pg.query('set session_replication_role = origin');
    const t1 = Date.now();
    for (const { indexdef } of indexes) await pg.query(indexdef);
    timings.indexes = (Date.now() - t1) / 1000;
    const t2 = Date.now();
    // Vacuumed as well as analysed, as autovacuum leaves a live database's tables: a bulk copy
    // leaves every page not yet marked all-visible, so no count is answered from an index alone
    // (a court's lawsuits counted through 2,900 heap pages, 25–50 ms, against 1–5 ms).
    for (const table of tables) await pg.query(`vacuum (analyze) "${table}"`);
    timings.vacuumAnalyze = (Date.now() - t2) / 1000;
    const seconds = (Date.now() - started) / 1000;
    return { rows, seconds: +seconds.toFixed(1), rowsPerSecond: Math.round(rows / seconds), timings };
  } finally {
    lite.close();
    await pg.end();
  }
}

/**
 * Counts the kept filter totals (the definitions' `counts`: lawsuits by court and state) of the
 * database `databaseUrl` again from its tables with the server build's own `recountFilterCounts`:
 * the rows were written with the triggers that keep them set aside. Answers the seconds it took.
 */
export async function recountFilterTotals(databaseUrl, serverDist = path.join(root, 'server/dist')) {
  const started = Date.now();
  const { createDatabase } = serverRequire(path.join(serverDist, 'db/index.js'));
  const { recountFilterCounts } = serverRequire(path.join(serverDist, 'db/migrations/filterCounts.js'));
  const { registry } = serverRequire('@mizan/contracts');
  const { db, dialect, destroy } = createDatabase(databaseUrl);
  try {
    await recountFilterCounts(db, dialect, registry);
    return +((Date.now() - started) / 1000).toFixed(1);
  } finally {
    await destroy();
  }
}

/**
 * Computes the dashboard's maintained aggregates of the database `databaseUrl` (`sqlite:<file>` or
 * `postgres://…`) from its tables with the server build's own `rebuildStats` (forced: its rows and
 * roll-ups, with the "built" mark), so that the next start finds them built; the fees ledger's
 * rows are made payments first (`moveLedgerPayments`). Done here rather than
 * left to that start: at a million lawsuits the rebuild outlasts the 10 s Fastify lets a plugin
 * start. Answers the rows stored and the seconds it took.
 */
export async function buildDashboardStats(databaseUrl, serverDist = path.join(root, 'server/dist')) {
  const started = Date.now();
  const { createDatabase } = serverRequire(path.join(serverDist, 'db/index.js'));
  const { rebuildStats, STATS_TABLE } = serverRequire(path.join(serverDist, 'dashboard/stats.js'));
  const { moveLedgerPayments } = serverRequire(path.join(serverDist, 'finance/ledger.js'));
  const { db, dialect, destroy } = createDatabase(databaseUrl);
  try {
    // The fee payments were written to the fees ledger's table: each becomes its payment first, as
    // the next start would make it (server/src/finance/ledger.ts), so that the aggregates count it.
    // That start's move leaves the aggregates as they are (a ledger row of a running instance was
    // counted when written), and a fee would show nothing paid while the payments were collected.
    await moveLedgerPayments(db, dialect);
    await rebuildStats(db, dialect, { force: true });
    const { n } = await db
      .selectFrom(STATS_TABLE)
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    return { rows: Number(n), seconds: +((Date.now() - started) / 1000).toFixed(1) };
  } finally {
    await destroy();
  }
}
