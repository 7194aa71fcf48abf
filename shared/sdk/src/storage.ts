import { STORAGE_KEYS } from '@mizan/contracts/light';

/** The items the seed stores encrypted: `auth_token`, `auth_user`, `system_settings`, `theme`, `themeConfig`. */
export type StorageKey = (typeof STORAGE_KEYS)[keyof typeof STORAGE_KEYS];

const ALL_KEYS = Object.values(STORAGE_KEYS) as StorageKey[];
const DB_NAME = 'mizan-keys';
const DB_STORE = 'keys';
const KEY_ID = 'storage-aes-gcm-v1';
const FORMAT_VERSION = 1;

interface Envelope {
  v: number;
  iv: string;
  ct: string;
}

const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const fromBase64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

function requestToPromise<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

function openKeyDb(): Promise<IDBDatabase> {
  const request = indexedDB.open(DB_NAME, 1);
  request.onupgradeneeded = () => request.result.createObjectStore(DB_STORE);
  return requestToPromise(request);
}

/**
 * The AES-GCM key of this browser profile. It is generated non-extractable and kept in IndexedDB
 * (structured-cloned as a CryptoKey), so neither script nor a copy of localStorage can read its
 * bytes: the ciphertext in localStorage is useless without this profile's IndexedDB.
 */
async function loadOrCreateKey(): Promise<CryptoKey> {
  const db = await openKeyDb();
  try {
    const existing = await requestToPromise<CryptoKey | undefined>(
      db.transaction(DB_STORE, 'readonly').objectStore(DB_STORE).get(KEY_ID),
    );
    if (existing) return existing;
    const key = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, [
      'encrypt',
      'decrypt',
    ]);
    try {
      // `add` fails when another tab stored its key first; then that key wins for every tab.
      await requestToPromise(db.transaction(DB_STORE, 'readwrite').objectStore(DB_STORE).add(key, KEY_ID));
      return key;
    } catch {
      const winner = await requestToPromise<CryptoKey | undefined>(
        db.transaction(DB_STORE, 'readonly').objectStore(DB_STORE).get(KEY_ID),
      );
      if (!winner) throw new Error('Could not store the storage key');
      return winner;
    }
  } finally {
    db.close();
  }
}

/**
 * Encrypted browser storage for the seed's stored items.
 *
 * Values are JSON, encrypted with AES-GCM (a fresh 96-bit IV per write, the item's name as
 * additional data so ciphertexts cannot be swapped between items) and saved in localStorage as
 * `{ v, iv, ct }`. An in-memory mirror answers synchronous reads once `ready()` has resolved.
 *
 * Where Web Crypto or IndexedDB is missing (a page served over plain HTTP is not a secure context
 * and has no `crypto.subtle`), values live in memory only: nothing readable is ever written.
 *
 * @example
 * await secureStorage.ready();
 * const token = secureStorage.peek<string>('auth_token');
 * await secureStorage.set('theme', 'dark');
 */
export class SecureStorage {
  private readonly mirror = new Map<StorageKey, unknown>();
  /** Items written or removed in this page: their stored copy is older than the mirror. */
  private readonly touched = new Set<StorageKey>();
  private keyPromise: Promise<CryptoKey | null> | null = null;
  private readyPromise: Promise<void> | null = null;
  /** Serialises writes so that the last `set`/`remove` of an item is the one stored. */
  private writes: Promise<void> = Promise.resolve();

  /** Whether values survive a reload (Web Crypto and IndexedDB are available). */
  get persistent(): boolean {
    return (
      typeof indexedDB !== 'undefined' && !!globalThis.crypto?.subtle && typeof localStorage !== 'undefined'
    );
  }

  private key(): Promise<CryptoKey | null> {
    this.keyPromise ??= this.persistent ? loadOrCreateKey().catch(() => null) : Promise.resolve(null);
    return this.keyPromise;
  }

  /** Decrypts every stored item into the mirror. Resolves once; later calls reuse the result. */
  ready(): Promise<void> {
    this.readyPromise ??= (async () => {
      const key = await this.key();
      if (!key) return;
      await Promise.all(
        ALL_KEYS.map(async (name) => {
          if (this.touched.has(name)) return;
          const value = await this.decrypt(key, name);
          if (value !== undefined) this.mirror.set(name, value);
        }),
      );
    })();
    return this.readyPromise;
  }

  /** The value as last written or read, without waiting (null before `ready()` resolves). */
  peek<T>(name: StorageKey): T | null {
    return this.mirror.has(name) ? (this.mirror.get(name) as T) : null;
  }

  async get<T>(name: StorageKey): Promise<T | null> {
    await this.ready();
    return this.peek<T>(name);
  }

  async set<T>(name: StorageKey, value: T): Promise<void> {
    if (value === null || value === undefined) return this.remove(name);
    this.touched.add(name);
    this.mirror.set(name, value);
    return this.enqueue(async () => {
      const key = await this.key();
      if (!key) return;
      const iv = crypto.getRandomValues(new Uint8Array(12));
      const plain = new TextEncoder().encode(JSON.stringify(value));
      const cipher = await crypto.subtle.encrypt(
        { name: 'AES-GCM', iv, additionalData: new TextEncoder().encode(name) },
        key,
        plain,
      );
      const envelope: Envelope = {
        v: FORMAT_VERSION,
        iv: toBase64(iv),
        ct: toBase64(new Uint8Array(cipher)),
      };
      // A later remove() of the same item may have run meanwhile: the mirror is the truth.
      if (this.mirror.get(name) === value) localStorage.setItem(name, JSON.stringify(envelope));
    });
  }

  async remove(name: StorageKey): Promise<void> {
    this.touched.add(name);
    this.mirror.delete(name);
    return this.enqueue(async () => {
      if (typeof localStorage !== 'undefined') localStorage.removeItem(name);
    });
  }

  /**
   * Reads items again from localStorage (another tab wrote them: a `storage` event). An item
   * now absent or unreadable leaves the mirror.
   */
  async reload(names: StorageKey[]): Promise<void> {
    await this.ready();
    const key = await this.key();
    if (!key) return;
    await this.writes;
    for (const name of names) {
      const value = await this.decrypt(key, name);
      if (value === undefined) this.mirror.delete(name);
      else this.mirror.set(name, value);
    }
  }

  /** Removes every item of this storage (not other localStorage entries). */
  async clear(): Promise<void> {
    await Promise.all(ALL_KEYS.map((name) => this.remove(name)));
  }

  private enqueue(task: () => Promise<void>): Promise<void> {
    const run = this.writes.then(task);
    this.writes = run.catch(() => undefined);
    return run;
  }

  /** An unreadable item (another key, tampered, old format) is dropped: it is as if never stored. */
  private async decrypt(key: CryptoKey, name: StorageKey): Promise<unknown> {
    const raw = localStorage.getItem(name);
    if (raw === null) return undefined;
    try {
      const envelope = JSON.parse(raw) as Envelope;
      if (envelope.v !== FORMAT_VERSION) throw new Error('unknown format');
      const plain = await crypto.subtle.decrypt(
        { name: 'AES-GCM', iv: fromBase64(envelope.iv), additionalData: new TextEncoder().encode(name) },
        key,
        fromBase64(envelope.ct),
      );
      return JSON.parse(new TextDecoder().decode(plain)) as unknown;
    } catch {
      localStorage.removeItem(name);
      return undefined;
    }
  }
}

/** The one storage of the page (the SDK is a federation singleton). */
export const secureStorage = new SecureStorage();
