import { TOAST } from '@mizan/contracts/light';
import { configureNotifier, type Notifier } from '@mizan/sdk';
import { message } from 'antd';
import { useEffect, useState, type RefObject } from 'react';

/** A toast raised before this module loaded: ./ThemeProvider keeps them for it. */
export interface EarlyToast {
  level: Exclude<keyof Notifier, 'clear'>;
  content: string;
}

/** Room between an open drawer's header and the toasts placed under it, in pixels. */
const BELOW_DRAWER_HEADER = 8;

/**
 * How far from the window's top the toasts start: `TOAST.top`, unless an open drawer's header
 * spans the middle of the window, where toasts show (on a phone a drawer is as wide as the
 * screen): then just under that header, so that no toast hides the drawer's title and close
 * button (its other buttons are in its footer, at the bottom). A desktop's drawers open at the
 * side, away from the middle: there the toasts keep `TOAST.top`.
 */
export function toastTop(doc: Document = document): number {
  const middle = (doc.defaultView?.innerWidth ?? 0) / 2;
  let top: number = TOAST.top;
  for (const header of doc.querySelectorAll('.ant-drawer-header')) {
    const box = header.getBoundingClientRect();
    if (box.height > 0 && box.left < middle && box.right > middle)
      top = Math.max(top, Math.ceil(box.bottom) + BELOW_DRAWER_HEADER);
  }
  return top;
}

/**
 * Sends the SDK's toasts (API errors, session messages) to antd's message API, rendered in the
 * page's theme and direction. A message hook rather than antd's `App`, whose `useApp` also brings
 * the modal and notification code (~15 KB gzip); nothing uses those. Loaded with the first toast,
 * not with the login page: `early` holds the toasts raised until then, shown first.
 */
export default function Toasts({ rtl, early }: { rtl: boolean; early: RefObject<EarlyToast[]> }) {
  // Placed again at each toast (`toastTop`): under a drawer's header while one covers the screen.
  const [top, setTop] = useState<number>(TOAST.top);
  const [messageApi, contextHolder] = message.useMessage({
    duration: TOAST.durationSeconds,
    maxCount: TOAST.maxCount,
    rtl,
    top,
  });
  useEffect(() => {
    const show =
      (level: EarlyToast['level']) =>
      (content: string): void => {
        setTop(toastTop());
        void messageApi[level](content);
      };
    const notifier: Notifier = {
      success: show('success'),
      error: show('error'),
      warning: show('warning'),
      info: show('info'),
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
