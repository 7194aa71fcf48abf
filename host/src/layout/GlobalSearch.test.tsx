import { DEFAULT_THEME_CONFIG, permissionKey, type GlobalSearchResult } from '@mizan/contracts';
import { sdkStore } from '@mizan/sdk';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { SETTINGS_ANSWER, serveApiForFile } from '../test/apiServer';
import { makeUser, renderApp, resetPage, signIn } from '../test/renderApp';
import { themeConfigAtom } from '../theme/themeConfig';

const RESULT: GlobalSearchResult = {
  groups: [
    { kind: 'customers', total: 7, items: [{ id: 4, title: 'مصطفى الشناوي', detail: '01001234567' }] },
    {
      kind: 'lawsuits',
      total: 1,
      items: [{ id: 12, title: 'F-2026-0417', detail: '7712/2025 · محكمة الجيزة' }],
    },
    {
      // Files by their content are counted up to a bound: more match than `total`.
      kind: 'files',
      total: 200,
      totalCapped: true,
      items: [
        {
          id: 31,
          title: 'مذكرة الدفاع.pdf',
          detail: null,
          file: {
            page: 2,
            snippet: 'نلتمس رفض الدعوى',
            mimeType: 'application/pdf',
            entity: 'attachments',
            ownerId: 12,
          },
        },
      ],
    },
  ],
};

const reader = makeUser(['customers', 'lawsuits'].map((kind) => permissionKey(kind, 'view')));
const nobody = makeUser([]);
const asked: string[] = [];
// The session check answers for whoever the test signed in, so a late check cannot swap the user.
let current = reader;

describe('global search box', () => {
  serveApiForFile({
    'GET /api/auth/systemSettings': SETTINGS_ANSWER,
    'POST /api/auth/check': () => ({ body: { data: { user: current, token: 'test-token' } } }),
    'GET /api/search': (req) => {
      asked.push(req.query.get('q') ?? '');
      return { body: { data: RESULT } };
    },
  });
  beforeEach(async () => {
    asked.length = 0;
    current = reader;
    await resetPage();
  });

  const box = (name: RegExp) => screen.findByRole('combobox', { name });

  it('lists hits grouped by kind and opens the highlighted one with the keyboard', async () => {
    await signIn(reader);
    const { router } = renderApp('/admin/dashboard');
    const input = await box(/search clients/i);
    // Ctrl+K puts the cursor in the box from anywhere on the page.
    fireEvent.keyDown(document.body, { key: 'k', ctrlKey: true });
    expect(document.activeElement).toBe(input);
    fireEvent.change(input, { target: { value: 'الشناوي' } });
    expect(await screen.findByTestId('search-group-customers')).toHaveTextContent('Clients (7 in all)');
    expect(screen.getByTestId('search-group-lawsuits')).toHaveTextContent('Lawsuits (1 in all)');
    expect(screen.getByTestId('search-group-files')).toHaveTextContent(
      'Files (by content) (more than 200 files)',
    );
    expect(screen.getByText('7712/2025 · محكمة الجيزة')).toBeInTheDocument();
    // One request once typing settles, with the typed text.
    expect(asked).toEqual(['الشناوي']);
    // The first hit is highlighted: down moves to the lawsuit, Enter opens its record.
    fireEvent.keyDown(input, { key: 'ArrowDown', code: 'ArrowDown', keyCode: 40, which: 40 });
    expect(screen.getByText('F-2026-0417').closest('.ant-select-item')).toHaveClass(
      'ant-select-item-option-active',
    );
    fireEvent.keyDown(input, { key: 'Enter', code: 'Enter', keyCode: 13, which: 13 });
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/lawsuits/12'));
    expect(input).toHaveValue('');
  });

  it('is labelled in Arabic in an Arabic page', async () => {
    sdkStore.set(themeConfigAtom, { ...DEFAULT_THEME_CONFIG, locale: 'ar', direction: 'rtl' });
    await signIn(reader);
    await act(async () => {
      renderApp('/admin/dashboard');
    });
    const input = await box(/البحث في الموكلين/);
    fireEvent.change(input, { target: { value: 'الدعوى' } });
    expect(await screen.findByTestId('search-group-customers')).toHaveTextContent('الموكلون (الإجمالي ٧)');
    expect(screen.getByTestId('search-group-files')).toHaveTextContent(
      'الملفات (بمحتواها) (أكثر من ٢٠٠ ملف)',
    );
  });

  it('is not shown to a reader of none of the kinds', async () => {
    current = nobody;
    await signIn(nobody);
    await act(async () => {
      renderApp('/admin/profile');
    });
    await screen.findByRole('banner');
    expect(screen.queryByRole('combobox', { name: /search clients/i })).toBeNull();
  });
});
