import type { Kysely } from 'kysely';
import type { Db } from '../db';
import { readStamp, stampOf, type Versions } from '../db/counts';
import { StampedCache } from '../db/stampedCache';
import { accountPermissions, loadAccount, type Account } from './account';
import type { AuthDatabase } from './types';

/**
 * The entities an account is read from: the employee row and its roles' join table, the roles and
 * their permissions' join table, the permission keys. Their write versions (`entity_counts.version`,
 * raised by triggers on every statement that writes one of these tables, whoever writes it) stamp
 * each cached account.
 */
export const ACCOUNT_ENTITIES = ['employees', 'permissions', 'roles'] as const;

/** Accounts kept per database: the employees signed in at once in an office, with room to spare. */
const MAX_ACCOUNTS = 1000;

/** An employee's account with its flattened permission keys, as read at `stamp`. */
export interface CachedAccount {
  account: Account;
  permissions: ReadonlySet<string>;
}

/**
 * Accounts (employee, roles, permissions) as every authenticated request needs them, read once
 * and kept while no write to those tables has committed since, on any instance: a request reads
 * the three write versions (one small query) instead of the employee, the roles and every
 * permission row of them (an administrator's role holds about two hundred). A ban, a role change
 * or a permission change raises a version, so the next request reads the account again.
 */
export class AccountCache {
  private readonly entries: StampedCache<number, CachedAccount>;

  constructor(maxEntries = MAX_ACCOUNTS) {
    this.entries = new StampedCache({ maxEntries });
  }

  /**
   * The account of `employeeId` as stored now, or null when the employee does not exist.
   * `versions`: the write versions read already in this request (with its session).
   */
  async load(
    db: Kysely<AuthDatabase>,
    employeeId: number,
    versions?: Versions,
  ): Promise<CachedAccount | null> {
    // Read before the rows: an account read after it is at least as new as the stamp says.
    const { stamp } = versions
      ? stampOf(versions, ACCOUNT_ENTITIES)
      : await readStamp(db as unknown as Db, ACCOUNT_ENTITIES);
    const found = stamp === null ? undefined : this.entries.get(employeeId, stamp);
    if (found) return found;
    const account = await loadAccount(db, employeeId);
    if (!account) return null;
    const value = { account, permissions: accountPermissions(account) };
    // No stamp (a table without write versions): nothing may be kept.
    if (stamp !== null) this.entries.set(employeeId, stamp, value);
    return value;
  }
}

/** One cache per database instance (an app's own; tests run several apps in one process). */
const caches = new WeakMap<object, AccountCache>();

export function accountCacheOf(db: Kysely<AuthDatabase>): AccountCache {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new AccountCache()));
  return cache;
}
