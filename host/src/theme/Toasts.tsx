import { TOAST } from '@mizan/contracts/light';
import { configureNotifier, type Notifier } from '@mizan/sdk';
import { message } from 'antd';
import { useEffect, type RefObject } from 'react';

/** A toast raised before this module loaded: ./ThemeProvider keeps them for it. */
export interface EarlyToast {
  level: Exclude<keyof Notifier, 'clear'>;
  content: string;
}

/**
 * Sends the SDK's toasts (API errors, session messages) to antd's message API, rendered in the
 * page's theme and direction. A message hook rather than antd's `App`, whose `useApp` also brings
 * the modal and notification code (~15 KB gzip); nothing uses those. Loaded with the first toast,
 * not with the login page: `early` holds the toasts raised until then, shown first.
 */
export default function Toasts({ rtl, early }: { rtl: boolean; early: RefObject<EarlyToast[]> }) {
  const [messageApi, contextHolder] = message.useMessage({
    duration: TOAST.durationSeconds,
    maxCount: TOAST.maxCount,
    rtl,
    top: TOAST.top,
  });
  useEffect(() => {
    const notifier: Notifier = {
      success: (content) => void messageApi.success(content),
      error: (content) => void messageApi.error(content),
      warning: (content) => void messageApi.warning(content),
      info: (content) => void messageApi.info(content),
      clear: () => messageApi.destroy(),
    };
    // Taken and replaced in one step: no toast raised meanwhile can fall between the two notifiers.
    const queued = early.current;
    early.current = [];
    for (const { level, content } of queued) notifier[level](content);
    configureNotifier(notifier);
    return () => configureNotifier(null);
  }, [messageApi, early]);
  useEffect(() => {
    // Static `message.*` calls (outside this hook's context) follow the same rules.
    message.config({ duration: TOAST.durationSeconds, maxCount: TOAST.maxCount, rtl, top: TOAST.top });
  }, [rtl]);
  return contextHolder;
}
