import { AREA_PERMISSIONS } from '../areaPermissions';
import { answer, route } from '../route';

/** `/api/admin/settings/system/backups`: the office's backups, taken daily and on demand. */

/** What started a backup: the daily schedule, or someone's "back up now". */
export const BACKUP_TRIGGERS = ['scheduled', 'manual'] as const;
export type BackupTrigger = (typeof BACKUP_TRIGGERS)[number];

/** `running` until its archive is stored; `failed` keeps the reason. */
export const BACKUP_STATES = ['running', 'done', 'failed'] as const;
export type BackupState = (typeof BACKUP_STATES)[number];

/** One backup as the list shows it. */
export interface BackupItem {
  id: number;
  trigger: BackupTrigger;
  state: BackupState;
  startedAt: string;
  finishedAt: string | null;
  /** Who asked for it (null: the schedule). */
  createdBy: { id: number; name: string } | null;
  /** The archive's size in bytes (null until it is stored). */
  size: number | null;
  tables: number | null;
  rows: number | null;
  files: number | null;
  /** Why it failed, in the server's words. */
  error: string | null;
}

/** `GET /`: newest first, with the schedule they follow. */
export interface BackupList {
  items: BackupItem[];
  schedule: {
    /** `HH:mm` on the office's clock. */
    time: string;
    /** How many scheduled backups are kept; 0: none are taken. */
    keep: number;
    /** When the next scheduled backup is due (null: scheduled backups are off). */
    nextAt: string | null;
  };
}

/** The office's backups: the list, "back up now", an archive's download, a deletion. */
export const BACKUP_ROUTES = {
  list: route({
    method: 'GET',
    path: '/admin/settings/system/backups',
    permission: AREA_PERMISSIONS.backupsView,
    summary: 'The office backups, newest first, and their schedule',
    answer: answer<BackupList>(),
  }),
  create: route({
    method: 'POST',
    path: '/admin/settings/system/backups',
    permission: AREA_PERMISSIONS.backupsCreate,
    summary: 'Takes a backup now (202: it runs in the background; the list shows it running)',
    answer: answer<BackupItem>(),
  }),
  download: route({
    method: 'GET',
    path: '/admin/settings/system/backups/:id/download',
    permission: AREA_PERMISSIONS.backupsView,
    summary: 'Downloads a backup archive (.tar.gz), for `npm run restore`',
  }),
  remove: route({
    method: 'DELETE',
    path: '/admin/settings/system/backups/:id',
    permission: AREA_PERMISSIONS.backupsDelete,
    summary: 'Deletes a backup and its archive (not one being taken)',
    answer: answer<{ id: number }>(),
  }),
};
