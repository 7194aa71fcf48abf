import { findEntity, permissionKey } from '@mizan/contracts';
import type { AuthUser } from '../auth/types';

/** Stored file row fields the download route and access rules read. */
export interface FileRow {
  id: number;
  entity: string;
  owner_id: number;
  field: string;
  stored_name: string;
  original_name: string;
  mime_type: string;
  size: number;
}

/** Decides whether `user` may read a file owned by a non-engine module (chat, tasks, ...). */
export type FileAccess = (user: AuthUser, file: FileRow) => boolean | Promise<boolean>;

/**
 * Who reads the files a module attaches under an owner name, one set per app instance
 * (`app.fileAccess`), so two apps in one process (tests, workers) never share rules.
 * Registry entities need no rule: `<entity>.view` decides; other owners are refused until a
 * module sets one.
 */
export class FileAccessRules {
  private readonly rules = new Map<string, FileAccess>();

  /**
   * @example
   * app.fileAccess.set('chatMessages', (user, file) => isMemberOfMessageChat(user.id, file.owner_id));
   */
  set(owner: string, rule: FileAccess): void {
    this.rules.set(owner, rule);
  }

  get(owner: string): FileAccess | undefined {
    return this.rules.get(owner);
  }
}

/**
 * Whether `user` may read `file`: its owner's rule when a module set one, else the view
 * permission of the registry entity it belongs to; other owners are refused.
 */
export async function mayReadFile(rules: FileAccessRules, user: AuthUser, file: FileRow): Promise<boolean> {
  const rule = rules.get(file.entity);
  if (rule) return rule(user, file);
  const entity = findEntity(file.entity);
  return entity ? user.permissions.has(permissionKey(entity, 'view')) : false;
}
