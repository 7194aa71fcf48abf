import type { Db, Dialect } from '../index';

/**
 * One step of the schema. Migrations are append-only: never edit a released one, add a new one.
 * `up` receives the dialect so a step can choose column types; steps written as `up(db)` work too.
 *
 * Steps are additive (expand): during a rolling upgrade the previous release's instances keep
 * serving on the migrated schema, so a step never drops, renames or retypes a table or column,
 * nor makes an existing column required. Removing what the code no longer reads is a contract
 * step, shipped in a later release than the code that stopped reading it, and marked with
 * `contract` (deploy/README.md, "Upgrades without downtime"; checked by additive.test.ts).
 */
export interface Migration {
  name: string;
  up(db: Db, dialect: Dialect): Promise<void>;
  /**
   * Set on a contract step only: what it removes and the release since which no code reads it
   * (`'drops clients.fax: unread since 0.4.0'`).
   */
  contract?: string;
}
