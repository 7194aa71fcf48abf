/**
 * `@mizan/contracts/light`: the constants of the contracts without the entity definitions and
 * their zod schemas (the login page downloaded all of them, ~43 KB gzip, for its route
 * paths and storage keys). Bundled into each build that imports it, not shared: it is small and
 * holds no state. Everything here is also exported by `@mizan/contracts`. The routes called
 * before the full contracts load are `@mizan/contracts/lightRoutes`.
 */
export * from './constants';
export * from './endpoints';
export * from './route';
export * from './paging';
export * from './areaPermissions';
export * from './timeZone';
export { VERSION_FIELD } from './conflict';
export { WS_CLOSE, SYSTEM_SETTINGS_CHANNEL, chatRoomChannel } from './ws';
export type { ErrorBody, DataBody } from './errors';
