import { STORAGE_KEYS, type RouteInput } from '@mizan/contracts/light';
import { LIGHT_AUTH_ROUTES, LIGHT_PEOPLE_ROUTES } from '@mizan/contracts/lightRoutes';
import { i18n } from '@mizan/i18n';
import { atom, useAtomValue } from 'jotai';
import { useCallback, useMemo } from 'react';
import { api, isApiError } from './http';
import { notify } from './notifier';
import { queryClient } from './query';
import {
  clearSession,
  hasPermission,
  permissionsAtom,
  sdkStore,
  setSession,
  tokenAtom,
  updateSessionUser,
  userAtom,
} from './session';
import { secureStorage } from './storage';
import type { LoginAnswer, ProfileBody, TwoFactorChallenge } from '@mizan/contracts';
import type { LoginResult, SystemSettings } from './types';
import { wsClient } from './ws';

/**
 * The auth routes (`/api/auth/*`) and the profile routes, called through their light contracts
 * (`LIGHT_AUTH_ROUTES`, `LIGHT_PEOPLE_ROUTES`: no zod on the login page).
 */
export const authApi = {
  login: (email: string, password: string) =>
    api.call(LIGHT_AUTH_ROUTES.login, { body: { email, password } }, { silent: true }),
  /** The second step of a sign-in (no token yet: the challenge and this device's fingerprint). */
  twoFactorVerify: (body: RouteInput<typeof LIGHT_AUTH_ROUTES.twoFactorVerify>['body']) =>
    api.call(LIGHT_AUTH_ROUTES.twoFactorVerify, { body }, { silent: true }),
  /** Signed in (profile), or with an enrolment challenge from the login answer. */
  twoFactorSetup: (challenge?: string) =>
    api.call(LIGHT_AUTH_ROUTES.twoFactorSetup, { body: challenge ? { challenge } : {} }),
  twoFactorEnable: (body: RouteInput<typeof LIGHT_AUTH_ROUTES.twoFactorEnable>['body']) =>
    api.call(LIGHT_AUTH_ROUTES.twoFactorEnable, { body }, { silent: true }),
  twoFactorStatus: () => api.call(LIGHT_AUTH_ROUTES.twoFactorStatus),
  twoFactorDisable: (body: RouteInput<typeof LIGHT_AUTH_ROUTES.twoFactorDisable>['body']) =>
    api.call(LIGHT_AUTH_ROUTES.twoFactorDisable, { body }, { silent: true }),
  sessions: () => api.call(LIGHT_AUTH_ROUTES.sessions),
  endSession: (id: number) => api.call(LIGHT_AUTH_ROUTES.endSession, { params: { id } }),
  endOtherSessions: () => api.call(LIGHT_AUTH_ROUTES.endOtherSessions),
  /** An administrator's view of an employee: open sessions, sign-in history, two-factor state. */
  employeeSecurity: (id: number) => api.call(LIGHT_PEOPLE_ROUTES.security, { params: { id } }),
  signOutEverywhere: (id: number) => api.call(LIGHT_PEOPLE_ROUTES.signOutEverywhere, { params: { id } }),
  resetTwoFactor: (id: number) => api.call(LIGHT_PEOPLE_ROUTES.resetTwoFactor, { params: { id } }),
  check: () => api.call(LIGHT_AUTH_ROUTES.check, undefined, { silent: true }),
  logout: () => api.call(LIGHT_AUTH_ROUTES.logout, undefined, { silent: true }),
  /** Public: sent without Authorization and fingerprint headers. */
  systemSettings: () => api.call(LIGHT_AUTH_ROUTES.systemSettings, undefined, { anonymous: true }),
  forgotPassword: (email: string) =>
    api.call(LIGHT_AUTH_ROUTES.forgotPassword, { body: { email } }, { anonymous: true }),
  resetPassword: (body: RouteInput<typeof LIGHT_AUTH_ROUTES.resetPassword>['body']) =>
    api.call(LIGHT_AUTH_ROUTES.resetPassword, { body }, { anonymous: true }),
  verifyResetToken: (query: NonNullable<RouteInput<typeof LIGHT_AUTH_ROUTES.verifyResetToken>['query']>) =>
    api.call(LIGHT_AUTH_ROUTES.verifyResetToken, { query }, { anonymous: true }),
  verifyResetCode: (body: RouteInput<typeof LIGHT_AUTH_ROUTES.verifyResetCode>['body']) =>
    api.call(LIGHT_AUTH_ROUTES.verifyResetCode, { body }, { anonymous: true }),
  profile: () => api.call(LIGHT_PEOPLE_ROUTES.profile),
  updateProfile: (body: ProfileBody) => api.call(LIGHT_PEOPLE_ROUTES.updateProfile, { body }),
  changePassword: (body: RouteInput<typeof LIGHT_PEOPLE_ROUTES.changePassword>['body']) =>
    api.call(LIGHT_PEOPLE_ROUTES.changePassword, { body }),
};

/** Whether a login answer still asks for a second step (a code, or an enrolment). */
export const isTwoFactorChallenge = (answer: LoginAnswer | LoginResult): answer is TwoFactorChallenge =>
  'challenge' in answer && typeof answer.challenge === 'string';

/**
 * Stores a completed sign-in (token and user, encrypted), toasts "welcome back", and warns when
 * the password must be changed first (the caller then routes to `ROUTES.changePassword`).
 */
export async function completeLogin(result: LoginResult): Promise<LoginResult> {
  await setSession(result.token, result.user);
  if (result.passwordChangeRequired) notify.warning(i18n.t('errors:session.passwordChangeRequired'));
  else notify.success(i18n.t('errors:session.welcomeBack'));
  return result;
}

const loginFailed = (error: unknown) =>
  notify.error(isApiError(error) && error.fromServer ? error.message : i18n.t('errors:session.loginFailed'));

/**
 * Signs in with the password: a completed sign-in is stored (`completeLogin`); an answer asking
 * for a second step (a two-factor code, or an enrolment a role requires) is returned as it is, for
 * the login screen to ask for it. On failure toasts the server's message or "error in login" and
 * rethrows the `ApiError` (field errors for the form).
 */
export async function login(email: string, password: string): Promise<LoginAnswer> {
  try {
    const result = await authApi.login(email, password);
    if (isTwoFactorChallenge(result)) return result;
    return await completeLogin(result);
  } catch (error) {
    loginFailed(error);
    throw error;
  }
}

/** The second step of a sign-in: a code from the authenticator, or a recovery code. */
export async function verifyTwoFactor(body: {
  challenge: string;
  code?: string;
  recoveryCode?: string;
}): Promise<LoginResult> {
  try {
    return await completeLogin(await authApi.twoFactorVerify(body));
  } catch (error) {
    loginFailed(error);
    throw error;
  }
}

/** Signs out: revokes the token on the server (best effort), clears the session, the socket and the cache. */
export async function logout(): Promise<void> {
  if (sdkStore.get(tokenAtom)) await authApi.logout().catch(() => undefined);
  wsClient.disconnect();
  await clearSession('logout');
  queryClient.clear();
  notify.success(i18n.t('errors:session.signedOut'));
}

/**
 * Checks the stored session with the server. True when valid (token and user refreshed); false
 * when there is no token or the check failed (then the session is cleared and a toast says so).
 */
export async function checkSession(): Promise<boolean> {
  if (!sdkStore.get(tokenAtom)) return false;
  try {
    const result = await untilReachable(() => authApi.check());
    await setSession(result.token || (sdkStore.get(tokenAtom) ?? ''), result.user);
    return true;
  } catch (error) {
    await clearSession('checkFailed');
    // A blocked account (banned, deactivated, role stopped) is told why, in the server's words.
    const blocked = isApiError(error) && error.status === 403 && error.fromServer;
    notify.error(blocked ? error.message : i18n.t('errors:session.checkFailed'));
    return false;
  }
}

/**
 * Waits between tries of a call that found no server to answer it: no answer at all, or a proxy's
 * 502/503/504 while an instance restarts. Tests shorten it.
 */
export const UNREACHABLE_RETRY = { delaysMs: [1_000, 3_000] };

const unreachable = (error: unknown) => isApiError(error) && [0, 502, 503, 504].includes(error.status);

/**
 * `call` (given whether it is a last try, so that earlier tries need not toast), tried again while
 * no server answers it (`UNREACHABLE_RETRY`): a few seconds of a rolling restart must not end a
 * session that the server would have accepted. Any other failure, or the last one, is thrown.
 */
async function untilReachable<T>(call: (lastTry: boolean) => Promise<T>): Promise<T> {
  const delays = UNREACHABLE_RETRY.delaysMs;
  for (let attempt = 0; ; attempt++) {
    const lastTry = attempt >= delays.length;
    try {
      return await call(lastTry);
    } catch (error) {
      if (lastTry || !unreachable(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, delays[attempt]));
    }
  }
}

/**
 * Loads the public system settings (office name, logo, colours, defaults) and keeps them in
 * encrypted storage. A failed load (toasted like any failed call) clears token and user;
 * the stored copy, if any, is returned so the login screen still shows the office. A load that
 * finds no server is tried again for a few seconds first (`untilReachable`).
 */
export async function loadSystemSettings(): Promise<SystemSettings | null> {
  try {
    // As `authApi.systemSettings`, with the tries before the last one silent.
    const settings = await untilReachable((lastTry) =>
      api.call(LIGHT_AUTH_ROUTES.systemSettings, undefined, { anonymous: true, silent: !lastTry }),
    );
    sdkStore.set(systemSettingsAtom, settings);
    await secureStorage.set(STORAGE_KEYS.systemSettings, settings);
    return settings;
  } catch {
    await clearSession('settingsFailed');
    const stored = await secureStorage.get<SystemSettings>(STORAGE_KEYS.systemSettings);
    sdkStore.set(systemSettingsAtom, stored);
    return stored;
  }
}

/**
 * The public system settings last read by `loadSystemSettings` (null before the first read), for
 * screens outside the host that follow them, e.g. which calendar dates show first.
 */
export const systemSettingsAtom = atom<SystemSettings | null>(null);

export { hasPermission, updateSessionUser };

/** Auth state and actions for components (reads the shared `sdkStore`). */
export function useAuth() {
  const user = useAtomValue(userAtom, { store: sdkStore });
  const token = useAtomValue(tokenAtom, { store: sdkStore });
  const permissions = useAtomValue(permissionsAtom, { store: sdkStore });
  const can = useCallback((key: string) => permissions.has(key), [permissions]);
  return useMemo(
    () => ({
      user,
      token,
      permissions,
      isAuthenticated: token !== null && user !== null,
      can,
      login,
      logout,
      check: checkSession,
    }),
    [can, permissions, token, user],
  );
}
