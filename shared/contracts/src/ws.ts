import type { TimerLiveMessage } from './api/finance';
import type { NotificationLiveMessage } from './api/notifications';

/** WebSocket protocol of the API (docs/architecture.md) on `/api/ws`. */

/**
 * What happened to the row an event carries: the standard writes, or a definition's declared action
 * (`archive`); `string & {}` keeps the standard names in completion.
 */
export type EventAction = 'create' | 'update' | 'delete' | 'status' | (string & {});

export type ClientMessage =
  | { type: 'subscribe'; channel: string }
  | { type: 'unsubscribe'; channel: string }
  | { type: 'message'; channel: string; data: unknown }
  | { type: 'ping' };

export type ServerMessage =
  | { type: 'pong' }
  | { type: 'subscribed' | 'unsubscribed' | 'resubscribed'; channel: string }
  | { type: 'event'; channel: string; action: EventAction; data: unknown }
  | { type: 'message'; channel: string; data: unknown; from?: number }
  | { type: 'error'; message: string; channel?: string }
  /**
   * The server's link to the other instances (the bus) came back after an outage: events published
   * meanwhile may have been missed, so the client reads again what it shows. Sent on no channel.
   */
  | { type: 'resync' }
  // The employee's own channel (`user:<id>`): new notifications and unread-count changes, the timer.
  | NotificationLiveMessage
  | TimerLiveMessage;

/** Close codes the hub uses. */
export const WS_CLOSE = {
  normal: 1000,
  /** No token, an unknown or expired one, or another fingerprint. */
  unauthorized: 4401,
  /** The employee was banned or turned inactive, or signed out. */
  revoked: 4403,
} as const;

/** A chat room's channel. */
export const chatRoomChannel = (chatId: number | string) => `chats:room:${chatId}`;

/** Channel carrying changes to the system settings (office name, logo, colours). */
export const SYSTEM_SETTINGS_CHANNEL = 'systemSettings';
