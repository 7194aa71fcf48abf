import { Suspense, type ReactNode } from 'react';
import { Spin } from 'antd';

/**
 * A screen part loaded with its own chunk (the board's drag and drop, the text editor), so the
 * list does not download them: a spinner until it has arrived.
 */
export function LazyPart({ children }: { children: ReactNode }) {
  return <Suspense fallback={<Spin style={{ display: 'block', margin: 48 }} />}>{children}</Suspense>;
}
