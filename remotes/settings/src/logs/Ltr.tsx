import type { ReactNode } from 'react';

/**
 * Left-to-right text (paths, methods, e-mails, codes) isolated from the right-to-left page, so
 * a route ending in an asterisk keeps the asterisk at its end instead of before the method.
 */
export function Ltr({ children }: { children: ReactNode }) {
  return (
    <bdi dir="ltr" style={{ unicodeBidi: 'isolate' }}>
      {children}
    </bdi>
  );
}
