import { STORAGE_KEYS } from '@mizan/contracts/light';
import { atom, createStore } from 'jotai';
import { Emitter } from './events';
import { secureStorage } from './storage';
import type { AuthUser } from './types';

/**
 * The one jotai store of the page. Host and remotes share it through the `@mizan/sdk` federation
 * singleton; wrap the app in `<Provider store={sdkStore}>` so hooks read the same atoms.
 */
export const sdkStore = createStore();

/** The bearer token, or null when signed out. */
export const tokenAtom = atom<string | null>(null);
/** The signed-in employee with `Roles[].Permissions[]` and flattened `permissions`. */
export const userAtom = atom<AuthUser | null>(null);

/** Every permission key the user holds: the flattened list, or the roles' permissions. */
export function permissionsOf(user: AuthUser | null | undefined): Set<string> {
  if (!user) return new Set();
  const keys = user.permissions?.length
    ? user.permissions
    : (user.Roles ?? []).flatMap((role) => (role.Permissions ?? []).map((p) => p.key));
  return new Set(keys);
}

/** The user's permission keys as a Set (recomputed when the user changes). */
export const permissionsAtom = atom((get) => permissionsOf(get(userAtom)));

/** Whether the user holds a permission key (`courts.view`, `dashboard.view`, ...). */
export function hasPermission(user: AuthUser | null | undefined, key: string): boolean {
  return permissionsOf(user).has(key);
}

export type SessionEvents = {
  /** The session ended: sign-out, a 401, a failed check or a failed system-settings load. */
  cleared: { reason: 'logout' | 'unauthorized' | 'checkFailed' | 'settingsFailed' };
  /** A token and user were stored (login or a successful check). */
  established: { user: AuthUser };
};

export const sessionEvents = new Emitter<SessionEvents>();

/** Stores token and user in the atoms and (encrypted) in the browser. */
export async function setSession(token: string, user: AuthUser): Promise<void> {
  sdkStore.set(tokenAtom, token);
  sdkStore.set(userAtom, user);
  sessionEvents.emit('established', { user });
  await Promise.all([
    secureStorage.set(STORAGE_KEYS.token, token),
    secureStorage.set(STORAGE_KEYS.user, user),
  ]);
}

/** Replaces the stored user (profile edits) without touching the token. */
export async function updateSessionUser(user: AuthUser): Promise<void> {
  sdkStore.set(userAtom, user);
  await secureStorage.set(STORAGE_KEYS.user, user);
}

/** Clears token and user from the atoms and the browser. */
export async function clearSession(reason: SessionEvents['cleared']['reason']): Promise<void> {
  const hadSession = sdkStore.get(tokenAtom) !== null || sdkStore.get(userAtom) !== null;
  sdkStore.set(tokenAtom, null);
  sdkStore.set(userAtom, null);
  if (hadSession) sessionEvents.emit('cleared', { reason });
  await Promise.all([secureStorage.remove(STORAGE_KEYS.token), secureStorage.remove(STORAGE_KEYS.user)]);
}

let followingOtherTabs = false;

/**
 * Keeps this tab's session in step with the others: a sign-out elsewhere signs this tab out, a
 * sign-in elsewhere signs it in. Browsers fire `storage` only in the tabs that did not write.
 */
function followOtherTabs(): void {
  if (followingOtherTabs || typeof window === 'undefined') return;
  followingOtherTabs = true;
  window.addEventListener('storage', (event: StorageEvent) => {
    if (event.key !== null && event.key !== STORAGE_KEYS.token && event.key !== STORAGE_KEYS.user) return;
    void secureStorage.reload([STORAGE_KEYS.token, STORAGE_KEYS.user]).then(() => {
      const token = secureStorage.peek<string>(STORAGE_KEYS.token);
      const user = secureStorage.peek<AuthUser>(STORAGE_KEYS.user);
      if (!token) {
        const hadSession = sdkStore.get(tokenAtom) !== null;
        sdkStore.set(tokenAtom, null);
        sdkStore.set(userAtom, null);
        if (hadSession) sessionEvents.emit('cleared', { reason: 'logout' });
      } else if (user && (token !== sdkStore.get(tokenAtom) || user !== sdkStore.get(userAtom))) {
        sdkStore.set(tokenAtom, token);
        sdkStore.set(userAtom, user);
        sessionEvents.emit('established', { user });
      }
    });
  });
}

/**
 * Reads the stored token and user into the atoms and starts following other tabs; call once at
 * start before rendering routes.
 */
export async function restoreSession(): Promise<{ token: string | null; user: AuthUser | null }> {
  followOtherTabs();
  await secureStorage.ready();
  const token = secureStorage.peek<string>(STORAGE_KEYS.token);
  const user = secureStorage.peek<AuthUser>(STORAGE_KEYS.user);
  if (token && user) {
    sdkStore.set(tokenAtom, token);
    sdkStore.set(userAtom, user);
    return { token, user };
  }
  // Half a session (one item unreadable) is no session.
  if (token || user) await clearSession('unauthorized');
  return { token: null, user: null };
}
