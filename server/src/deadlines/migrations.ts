import { holidays, procurations, type CountryCode, type HolidayKind } from '@mizan/contracts';
import type { Migration } from '../db/migrations';
import { addEntityFields, createEntityTables } from '../db/migrations';
import { instantType } from '../db/migrations/entityTables';
import { searchColumns } from '../engine/search';
import { EntityRepository } from '../engine/repository';
import { tableNames } from '../db';

/** A seeded holiday: `[name, kind, month, day, days]` (recurring) of a country. */
type Seed = [name: string, kind: HolidayKind, month: number, day: number, days: number];

/**
 * The official holidays of Egypt and Saudi Arabia as their governments give them each year. Hijri
 * ones fall on their Umm al-Qura day (Egypt sights the moon, so a year's Eid may come a day apart:
 * the office adds that year's day as a one-off). Moveable feasts (Sham el-Nessim) and days declared
 * by decree are added by the office as one-off holidays.
 */
export const HOLIDAY_SEEDS: Record<CountryCode & ('EG' | 'SA'), Seed[]> = {
  EG: [
    ['عيد الميلاد المجيد', 'gregorian', 1, 7, 1],
    ['عيد ثورة 25 يناير وعيد الشرطة', 'gregorian', 1, 25, 1],
    ['عيد تحرير سيناء', 'gregorian', 4, 25, 1],
    ['عيد العمال', 'gregorian', 5, 1, 1],
    ['ذكرى ثورة 30 يونيو', 'gregorian', 6, 30, 1],
    ['عيد ثورة 23 يوليو', 'gregorian', 7, 23, 1],
    ['عيد القوات المسلحة', 'gregorian', 10, 6, 1],
    ['رأس السنة الهجرية', 'hijri', 1, 1, 1],
    ['المولد النبوي الشريف', 'hijri', 3, 12, 1],
    ['عيد الفطر', 'hijri', 10, 1, 3],
    ['وقفة عرفات', 'hijri', 12, 9, 1],
    ['عيد الأضحى', 'hijri', 12, 10, 4],
  ],
  SA: [
    ['يوم التأسيس', 'gregorian', 2, 22, 1],
    ['اليوم الوطني', 'gregorian', 9, 23, 1],
    ['عيد الفطر', 'hijri', 10, 1, 3],
    ['يوم عرفة', 'hijri', 12, 9, 1],
    ['عيد الأضحى', 'hijri', 12, 10, 4],
  ],
};

/**
 * Tables of legal periods beyond those made from the definitions at start. Append only; this
 * module's group comes after every other group (app.ts).
 */
export const deadlineMigrations: Migration[] = [
  {
    // A hearing's decision may be a judgment, served on a day: each starts legal periods.
    name: 'deadlines_001_session_judgment',
    up: (db, dialect) => addEntityFields(db, dialect, 'sessions', ['judgment', 'servedOn']),
  },
  {
    // Egypt's and Saudi Arabia's holidays, written once: the table made here if it is not yet
    // (a fresh database makes entity tables after the migrations), so the rows go in with it.
    name: 'deadlines_002_holiday_seed',
    async up(db, dialect) {
      const exists = (await tableNames(db)).has(holidays.table);
      if (!exists) await createEntityTables(db, dialect, [holidays.name]);
      const repo = new EntityRepository(holidays, dialect);
      const stamp = new Date().toISOString();
      const rows = Object.entries(HOLIDAY_SEEDS).flatMap(([country, seeds]) =>
        seeds.map(([name, kind, month, day, days]) => {
          const values = { name, country, kind, month, day, date: null, days, notes: null };
          return {
            ...repo.toColumns(values),
            ...searchColumns(holidays, values),
            status: dialect === 'postgres' ? true : 1,
            created_at: stamp,
            updated_at: stamp,
          };
        }),
      );
      await db.insertInto(holidays.table).values(rows).execute();
    },
  },
  {
    // Secret calendar feed tokens (their hashes), one per employee and scope (own, office).
    name: 'deadlines_003_calendar_feeds',
    async up(db, dialect) {
      await db.schema
        .createTable('calendar_feeds')
        .addColumn('id', dialect === 'postgres' ? 'serial' : 'integer', (c) => c.primaryKey())
        .addColumn('employee_id', 'integer', (c) =>
          c.notNull().references('employees.id').onDelete('cascade'),
        )
        .addColumn('scope', 'varchar(10)', (c) => c.notNull())
        .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('created_at', instantType(dialect), (c) => c.notNull())
        .addUniqueConstraint('calendar_feeds_employee_scope', ['employee_id', 'scope'])
        .execute();
    },
  },
  {
    // Whether a power of attorney covers litigation: those already kept were taken for it. Here
    // because the clients module has no migration group, and a new group could only come last.
    name: 'deadlines_004_procuration_litigation',
    async up(db, dialect) {
      await addEntityFields(db, dialect, procurations.name, ['litigation']);
      const exists = (await tableNames(db)).has(procurations.table);
      if (!exists) return;
      await db
        .updateTable(procurations.table)
        .set({ litigation: dialect === 'postgres' ? true : 1 })
        .where('litigation', 'is', null)
        .execute();
      // The index a table made from the definition has on a filtered field.
      await db.schema
        .createIndex(`${procurations.table}_litigation_id_idx`)
        .ifNotExists()
        .on(procurations.table)
        .columns(['litigation', 'id'])
        .execute();
    },
  },
];
