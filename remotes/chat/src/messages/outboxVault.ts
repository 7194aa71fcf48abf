import { STORAGE_KEYS } from '@mizan/contracts';
import { secureStorage } from '@mizan/sdk';
import type { OutboxEntry } from './outbox';

/**
 * Attached files kept across a reload, in bytes per entry. localStorage holds about 5 MB per site
 * and the encrypted item takes nearly twice the file's bytes (base64 inside base64), so a few
 * screenshots fit while a scanned contract does not.
 */
export const KEPT_FILES_MAX_BYTES = 1_000_000;

interface StoredFile {
  name: string;
  type: string;
  lastModified: number;
  /** The bytes, base64. */
  data: string;
}

type StoredEntry = Omit<OutboxEntry, 'files'> & { files: StoredFile[] };

/** The stored item: each employee's outbox (entries carry their chat), by employee id. */
type StoredOutboxes = Record<string, StoredEntry[]>;

/** The part of the SDK's encrypted storage the vault uses. */
export interface VaultStorage {
  get: <T>(name: typeof STORAGE_KEYS.chatOutbox) => Promise<T | null>;
  set: <T>(name: typeof STORAGE_KEYS.chatOutbox, value: T) => Promise<void>;
}

function readBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

function toFile(stored: StoredFile): File {
  const bytes = Uint8Array.from(atob(stored.data), (c) => c.charCodeAt(0));
  return new File([bytes], stored.name, { type: stored.type, lastModified: stored.lastModified });
}

/**
 * An entry as it comes back after a reload. One cut short mid-send is pending again (the server
 * stores a resent client id once); one whose files were too large to keep comes back failed, so
 * its text is not sent without them unless the writer says so.
 */
function restored(entry: StoredEntry): OutboxEntry {
  const base = { ...entry, files: entry.files.map(toFile) };
  if (entry.filesLost?.length) return { ...base, state: 'failed' };
  return entry.state === 'sending' ? { ...base, state: 'pending' } : base;
}

/**
 * One employee's outbox in the SDK's encrypted storage, so that messages written while offline
 * survive a reload or a crash. Saves run one after another, so the last state saved is the one
 * stored; each file is encoded once however often its entry is saved. Several tabs share the one
 * stored outbox: a save replaces only the entries this vault has held (loaded or saved), and keeps
 * those another tab wrote meanwhile, so a tab closed before it could send loses nothing (the
 * next page loads them; a message sent by two tabs is stored once, by its client id).
 */
export class OutboxVault {
  private saving: Promise<void> = Promise.resolve();
  private readonly encoded = new WeakMap<File, Promise<StoredFile>>();
  /** The client ids of the entries this vault has loaded or saved. */
  private readonly held = new Set<string>();

  constructor(
    private readonly employeeId: number,
    private readonly storage: VaultStorage = secureStorage,
  ) {}

  async load(): Promise<OutboxEntry[]> {
    const all = await this.storage.get<StoredOutboxes>(STORAGE_KEYS.chatOutbox);
    const kept = all?.[this.employeeId] ?? [];
    for (const entry of kept) this.held.add(entry.clientId);
    return kept.map(restored);
  }

  /** Stores these entries as the employee's outbox; resolves once they are written. */
  save(entries: readonly OutboxEntry[]): Promise<void> {
    const run = this.saving.then(() => this.write(entries));
    this.saving = run.catch(() => undefined);
    return run;
  }

  /** Resolves once every save asked for so far is written (or has failed). */
  whenSaved(): Promise<void> {
    return this.saving;
  }

  private async write(entries: readonly OutboxEntry[]): Promise<void> {
    for (const entry of entries) this.held.add(entry.clientId);
    const mine = await Promise.all(entries.map((e) => this.storedEntry(e)));
    const all = { ...(await this.storage.get<StoredOutboxes>(STORAGE_KEYS.chatOutbox)) };
    const others = (all[this.employeeId] ?? []).filter((e) => !this.held.has(e.clientId));
    const stored = [...others, ...mine];
    if (stored.length) all[this.employeeId] = stored;
    else delete all[this.employeeId];
    await this.storage.set<StoredOutboxes>(STORAGE_KEYS.chatOutbox, all);
  }

  private async storedEntry(entry: OutboxEntry): Promise<StoredEntry> {
    const size = entry.files.reduce((sum, f) => sum + f.size, 0);
    if (size > KEPT_FILES_MAX_BYTES)
      return { ...entry, files: [], filesLost: entry.files.map((f) => f.name) };
    return { ...entry, files: await Promise.all(entry.files.map((f) => this.storedFile(f))) };
  }

  private storedFile(file: File): Promise<StoredFile> {
    let stored = this.encoded.get(file);
    if (!stored) {
      stored = readBase64(file).then((data) => ({
        name: file.name,
        type: file.type,
        lastModified: file.lastModified,
        data,
      }));
      this.encoded.set(file, stored);
    }
    return stored;
  }
}
