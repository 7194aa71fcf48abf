import { i18n } from '@mizan/i18n';

/** Where toasts go. The host wires antd's `message` API; the SDK never imports antd. */
export interface Notifier {
  success(content: string): void;
  error(content: string): void;
  warning(content: string): void;
  info(content: string): void;
  /** Takes down the toasts on screen (what they said no longer holds). */
  clear?(): void;
}

type Level = Exclude<keyof Notifier, 'clear'>;

let current: Notifier | null = null;
/** Toasts raised before the host wired its notifier (start-up errors); the last few are kept. */
let pending: { level: Level; content: string }[] = [];
const MAX_PENDING = 3;

/**
 * Sets the notifier. Toasts raised before this call are delivered now.
 *
 * @example configureNotifier({ success: (m) => message.success(m), error: (m) => message.error(m), ... })
 */
export function configureNotifier(notifier: Notifier | null): void {
  current = notifier;
  if (!notifier) return;
  const queued = pending;
  pending = [];
  for (const { level, content } of queued) notifier[level](content);
}

function show(level: Level, content: string | undefined): void {
  // Empty content falls back to the seed's generic toast texts (`common:toast.*`).
  const text = content || i18n.t(`common:toast.${level}`);
  if (current) current[level](text);
  else pending = [...pending, { level, content: text }].slice(-MAX_PENDING);
}

/** Shows a toast through the configured notifier. */
export const notify = {
  success: (content?: string) => show('success', content),
  error: (content?: string) => show('error', content),
  warning: (content?: string) => show('warning', content),
  info: (content?: string) => show('info', content),
  /** Takes down the toasts on screen and those not shown yet: what they said no longer holds. */
  clear: () => {
    pending = [];
    current?.clear?.();
  },
};
