/**
 * @mizan/sdk: one HTTP client, fingerprint, encrypted storage, auth state, WebSocket client and
 * query cache for the whole page. Shared by host and remotes as a module-federation singleton:
 * importing it creates the singletons below and does nothing else (no request, no timer).
 */
export {
  ApiError,
  api,
  defaultErrorMessage,
  http,
  isApiError,
  newIdempotencyKey,
  toApiError,
  type RequestOptions,
} from './http';
export { configureNotifier, notify, type Notifier } from './notifier';
export {
  FINGERPRINT_EXCLUDED,
  FINGERPRINT_FONT_SOURCES,
  getFingerprint,
  resetFingerprintCache,
  type Fingerprint,
} from './fingerprint';
export { SecureStorage, secureStorage, type StorageKey } from './storage';
export {
  clearSession,
  permissionsAtom,
  permissionsOf,
  restoreSession,
  sdkStore,
  sessionEvents,
  setSession,
  tokenAtom,
  userAtom,
  type SessionEvents,
} from './session';
export {
  authApi,
  checkSession,
  hasPermission,
  loadSystemSettings,
  completeLogin,
  isTwoFactorChallenge,
  login,
  verifyTwoFactor,
  systemSettingsAtom,
  logout,
  updateSessionUser,
  useAuth,
} from './auth';
export {
  WsClient,
  autoConnect,
  buildWsUrl,
  connectionStatusAtom,
  wsClient,
  type ChannelHandler,
  type ChannelMessage,
  type ConnectionStatus,
  type WebSocketConstructor,
  type WsClientOptions,
  type WsEvents,
} from './ws';
export {
  DASHBOARD_QUERY,
  applyEntityEvent,
  createQueryClient,
  followResync,
  entityKeys,
  queryClient,
  useEntityChannel,
} from './query';
export {
  cleanParams,
  entityApi,
  fetchFile,
  hasNewFiles,
  toFormData,
  type ExportOptions,
  type Input,
  type ListParams,
  type Row,
  type ToggleChange,
} from './entityApi';
export { sha256hex } from './sha256';
export { Emitter } from './events';
export type { AuthPermission, AuthRole, AuthUser, CheckResult, LoginResult, SystemSettings } from './types';
