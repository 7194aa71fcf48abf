import { TOAST } from '@mizan/contracts';
import { notify, queryClient, sdkStore } from '@mizan/sdk';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';
import { Drawer, theme } from 'antd';
import { Provider as JotaiProvider } from 'jotai';
import { SETTINGS_ANSWER, serveApiForFile } from '../test/apiServer';
import { resetPage } from '../test/renderApp';
import { ThemeProvider } from './ThemeProvider';

serveApiForFile({ 'GET /api/auth/systemSettings': SETTINGS_ANSWER });

beforeEach(() => resetPage());

function renderProvider(page = <p>page</p>) {
  return render(
    <JotaiProvider store={sdkStore}>
      <QueryClientProvider client={queryClient}>
        <ThemeProvider>{page}</ThemeProvider>
      </QueryClientProvider>
    </JotaiProvider>,
  );
}

describe('toasts on demand', () => {
  it("renders no toast container until the first toast, then shows it with antd's message", async () => {
    renderProvider();
    expect(await screen.findByText('page')).toBeInTheDocument();
    expect(document.querySelector('.ant-message')).toBeNull();
    act(() => notify.error('The server did not answer'));
    expect(await screen.findByText('The server did not answer')).toBeInTheDocument();
    expect(document.querySelector('.ant-message')).not.toBeNull();
  });

  it('keeps the toasts raised before it loaded, the last few, in order', async () => {
    // Raised before the page rendered (the SDK holds them), then while the message code loads.
    notify.info('first');
    renderProvider();
    act(() => {
      for (let i = 2; i <= TOAST.maxCount + 1; i++) notify.warning(`toast ${i}`);
    });
    expect(await screen.findByText(`toast ${TOAST.maxCount + 1}`)).toBeInTheDocument();
    const shown = [...document.querySelectorAll('.ant-message-notice')].map((n) => n.textContent);
    expect(shown).toEqual(Array.from({ length: TOAST.maxCount }, (_, i) => `toast ${i + 2}`));
    // Once loaded, toasts go straight to antd.
    act(() => notify.success('saved'));
    expect(await screen.findByText('saved')).toBeInTheDocument();
  });
});

describe('toasts and drawers', () => {
  /** jsdom lays nothing out: the boxes a 390 px phone gives a full-width drawer's header. */
  function phoneLayout(headerBottom: number) {
    const width = window.innerWidth;
    const measure = HTMLElement.prototype.getBoundingClientRect;
    window.innerWidth = 390;
    HTMLElement.prototype.getBoundingClientRect = function (this: HTMLElement) {
      return this.classList.contains('ant-drawer-header')
        ? new DOMRect(0, 0, 390, headerBottom)
        : measure.call(this);
    };
    return () => {
      window.innerWidth = width;
      HTMLElement.prototype.getBoundingClientRect = measure;
    };
  }
  /** Where antd places the toasts (the top offset it writes on their list). */
  const toastsTop = () =>
    (document.querySelector('.ant-message') as HTMLElement | null)?.style.getPropertyValue(
      '--notification-top',
    );

  it('shows toasts under the header of a drawer that covers the screen, at TOAST.top otherwise', async () => {
    const restore = phoneLayout(57);
    try {
      const { rerender } = renderProvider(
        <Drawer open title="Add a country">
          form
        </Drawer>,
      );
      expect(await screen.findByText('Add a country')).toBeInTheDocument();
      act(() => notify.error('The server did not answer'));
      expect(await screen.findByText('The server did not answer')).toBeInTheDocument();
      await waitFor(() => expect(toastsTop()).toBe('65px'));
      // The drawer closed: the next toast is back at the product's offset.
      rerender(
        <JotaiProvider store={sdkStore}>
          <QueryClientProvider client={queryClient}>
            <ThemeProvider>
              <Drawer open={false} title="Add a country" destroyOnHidden>
                form
              </Drawer>
            </ThemeProvider>
          </QueryClientProvider>
        </JotaiProvider>,
      );
      await waitFor(() => expect(document.querySelector('.ant-drawer-header')).toBeNull());
      act(() => notify.info('saved'));
      expect(await screen.findByText('saved')).toBeInTheDocument();
      await waitFor(() => expect(toastsTop()).toBe(`${TOAST.top}px`));
    } finally {
      restore();
    }
  });
});

describe('motion', () => {
  /** Shows antd's motion token, as every component under the provider reads it. */
  function MotionToken() {
    const { token } = theme.useToken();
    return <p>motion {String(token.motion)}</p>;
  }

  /** A system whose reduced-motion preference is `reduced`, changed later through `set`. */
  function prefersReducedMotion(reduced: boolean) {
    const listeners = new Set<() => void>();
    const query = {
      matches: reduced,
      media: '(prefers-reduced-motion: reduce)',
      addEventListener: (_: string, fn: () => void) => listeners.add(fn),
      removeEventListener: (_: string, fn: () => void) => listeners.delete(fn),
    };
    const original = window.matchMedia;
    window.matchMedia = ((media: string) =>
      media === query.media ? query : original(media)) as typeof window.matchMedia;
    return {
      set(value: boolean) {
        query.matches = value;
        act(() => listeners.forEach((fn) => fn()));
      },
      restore: () => void (window.matchMedia = original),
    };
  }

  it("turns antd's animations off for a system that asks for less motion, and back on live", async () => {
    const system = prefersReducedMotion(true);
    try {
      renderProvider(<MotionToken />);
      expect(await screen.findByText('motion false')).toBeInTheDocument();
      system.set(false);
      expect(await screen.findByText('motion true')).toBeInTheDocument();
    } finally {
      system.restore();
    }
  });
});
