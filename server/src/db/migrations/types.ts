import type { Db, Dialect } from '../index';

/**
 * One step of the schema. Migrations are append-only: never edit a released one, add a new one.
 * `up` receives the dialect so a step can choose column types; steps written as `up(db)` work too.
 */
export interface Migration {
  name: string;
  up(db: Db, dialect: Dialect): Promise<void>;
}
