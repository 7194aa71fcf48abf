import { ROUTES } from '@mizan/contracts/light';
import { checkSession, logout, sdkStore, tokenAtom } from '@mizan/sdk';

type Navigate = (to: string, options?: { replace?: boolean }) => void;

/**
 * Sign-out: the SDK revokes the token, clears token and user, closes the socket with 1000
 * and says "signed out successfully"; the host then goes home.
 */
export async function signOut(navigate: Navigate): Promise<void> {
  await logout();
  navigate(ROUTES.home, { replace: true });
}

/**
 * The stored token is checked on load; a failed check clears it (the SDK toasts "error
 * verifying the session") and goes home. Returns whether the session is valid.
 */
export async function checkStoredSession(navigate: Navigate): Promise<boolean> {
  if (!sdkStore.get(tokenAtom)) return false;
  const valid = await checkSession();
  if (!valid) navigate(ROUTES.home, { replace: true });
  return valid;
}
