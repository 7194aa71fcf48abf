import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  branches,
  countries,
  customerTypes,
  customers,
  employees,
  governorates,
  type ConflictMatch,
} from '@mizan/contracts';
import { entityElement } from '@mizan/ui';
import { captureToasts, pointSdkAt, renderAt, signIn } from '@mizan/ui/testing/render';
import { ENTITY_OVERRIDES } from '../entityScreens';
import { startClientsServer } from '../test/server';
import { CONFLICT_DEBOUNCE_MS } from '@mizan/ui';

const ROUTE = '/admin/customers';
const ahmed: ConflictMatch = {
  entity: 'customers',
  id: 7,
  name: 'أحمد إبراهيم علي',
  nameEn: 'Ahmed Ibrahim Ali',
  kind: 'person',
  idNumber: '29801011234567',
  score: 1,
  reasons: ['sameName'],
};

let server: Awaited<ReturnType<typeof startClientsServer>>;
let toasts: ReturnType<typeof captureToasts>;

/** While set, conflict checks wait for it before answering. */
let hold: Promise<void> | undefined;

async function openCreate() {
  server = await startClientsServer(
    [customers, customerTypes, countries, governorates, branches, employees],
    {
      rows: { customers: [{ id: 7, name: ahmed.name, kind: 'person', nationalId: ahmed.idNumber }] },
      conflicts: async (query) => {
        await hold;
        const name = query.get('name') ?? '';
        return name.length >= 4 ? [ahmed] : [];
      },
    },
  );
  pointSdkAt(server.url);
  renderAt(ROUTE, entityElement(customers, ENTITY_OVERRIDES.customers));
  await screen.findByText('أحمد إبراهيم علي');
  fireEvent.click(screen.getByText('إضافة موكل'));
  return (await screen.findByText('إضافة موكل', { selector: '.ant-drawer-title' })).closest(
    '.ant-drawer',
  ) as HTMLElement;
}
const fieldItem = (drawer: HTMLElement, label: string) =>
  (within(drawer).queryByText(label, { selector: 'label' })?.closest('.ant-form-item') ??
    null) as HTMLElement | null;
const conflictChecks = () => server.to('GET', '/admin/customers/conflicts');

beforeEach(() => {
  hold = undefined;
  localStorage.clear();
  toasts = captureToasts();
  signIn(['view', 'create', 'update', 'delete', 'status'].map((a) => `customers.${a}`));
});
afterEach(() => server.close());

describe('client form', () => {
  it('asks a person for the national ID and a company for the commercial registration', async () => {
    const drawer = await openCreate();
    const nationalId = fieldItem(drawer, 'الرقم القومي');
    expect(nationalId).not.toBeNull();
    expect(nationalId!.querySelector('label')).toHaveClass('ant-form-item-required');
    expect(fieldItem(drawer, 'رقم السجل التجاري')).toBeNull();

    fireEvent.mouseDown(within(fieldItem(drawer, 'الشخصية القانونية')!).getByRole('combobox'));
    fireEvent.click(await screen.findByText('شركة', { selector: '.ant-select-item-option-content' }));
    await waitFor(() => expect(fieldItem(drawer, 'رقم السجل التجاري')).not.toBeNull());
    expect(fieldItem(drawer, 'رقم السجل التجاري')!.querySelector('label')).toHaveClass(
      'ant-form-item-required',
    );
    expect(fieldItem(drawer, 'الرقم القومي')).toBeNull();
  });

  it('checks the identifier of the kind as the server does, before sending', async () => {
    const user = userEvent.setup({ delay: null });
    const drawer = await openCreate();
    await user.type(within(fieldItem(drawer, 'الاسم الكامل')!).getByRole('textbox'), 'سعاد');
    await user.type(within(fieldItem(drawer, 'الرقم القومي')!).getByRole('textbox'), '١٢٣');
    fireEvent.click(within(drawer).getByRole('button', { name: /حفظ/ }));
    expect(
      await within(fieldItem(drawer, 'الرقم القومي')!).findByText(/14/, {
        selector: '.ant-form-item-explain-error',
      }),
    ).toBeInTheDocument();
    expect(server.to('POST', customers.path)).toHaveLength(0);
  });

  it('shows the conflict check as the name is typed (debounced), with links, and still saves', async () => {
    const user = userEvent.setup({ delay: null });
    const drawer = await openCreate();
    const panel = within(drawer).getByRole('region', { name: 'فحص تعارض المصالح' });
    // Typed quickly (three changes within milliseconds): one check, for the whole name, once typing pauses.
    const input = within(fieldItem(drawer, 'الاسم الكامل')!).getByRole('textbox');
    for (const typed of ['اح', 'احمد', 'احمد ابراهيم']) fireEvent.change(input, { target: { value: typed } });
    expect(conflictChecks()).toHaveLength(0);
    const link = await within(panel).findByRole('link', { name: 'فتح صفحة أحمد إبراهيم علي في لسان جديد' });
    expect(conflictChecks()).toHaveLength(1);
    expect(conflictChecks()[0]!.query.get('name')).toBe('احمد ابراهيم');
    expect(link).toHaveAttribute('href', '/admin/customers/7');
    expect(link).toHaveAttribute('target', '_blank');
    expect(within(panel).getByText('الاسم نفسه')).toBeInTheDocument();
    expect(within(panel).getByText('29801011234567')).toHaveAttribute('dir', 'ltr');
    expect(within(panel).getByText(/تطابق محتمل واحد/)).toBeInTheDocument();

    // Saving stays allowed: the warning does not block the form.
    await user.type(within(fieldItem(drawer, 'الرقم القومي')!).getByRole('textbox'), '29901011234568');
    await waitFor(() => expect(conflictChecks().at(-1)!.query.get('nationalId')).toBe('29901011234568'));
    fireEvent.click(within(drawer).getByRole('button', { name: /حفظ/ }));
    await waitFor(() => expect(server.to('POST', customers.path)).toHaveLength(1));
    const sent = JSON.parse(server.to('POST', customers.path)[0]!.body) as Record<string, unknown>;
    expect(sent).toMatchObject({ name: 'احمد ابراهيم', kind: 'person', nationalId: '29901011234568' });
    await waitFor(() => expect(toasts.success).toHaveLength(1));
  });

  it('checks no name shorter than two letters, and says when nothing matches', async () => {
    const drawer = await openCreate();
    const panel = within(drawer).getByRole('region', { name: 'فحص تعارض المصالح' });
    const input = within(fieldItem(drawer, 'الاسم الكامل')!).getByRole('textbox');
    fireEvent.change(input, { target: { value: 'س' } });
    await new Promise((resolve) => setTimeout(resolve, CONFLICT_DEBOUNCE_MS * 2));
    expect(conflictChecks()).toHaveLength(0);
    fireEvent.change(input, { target: { value: 'سعد' } });
    expect(await within(panel).findByText('لا يوجد موكل ولا خصم بهذا الاسم أو الرقم')).toBeInTheDocument();
    expect(conflictChecks().map((r) => r.query.get('name'))).toEqual(['سعد']);
  });

  it('cancels a check made obsolete by new input', async () => {
    let release = () => undefined as void;
    hold = new Promise<void>((resolve) => (release = resolve));
    const drawer = await openCreate();
    const panel = within(drawer).getByRole('region', { name: 'فحص تعارض المصالح' });
    const input = within(fieldItem(drawer, 'الاسم الكامل')!).getByRole('textbox');
    fireEvent.change(input, { target: { value: 'احمد' } });
    await waitFor(() => expect(conflictChecks()).toHaveLength(1));
    fireEvent.change(input, { target: { value: 'احمد ابراهيم' } });
    await waitFor(() => expect(conflictChecks()).toHaveLength(2));
    await waitFor(() => expect(server.abandoned.map((r) => r.query.get('name'))).toEqual(['احمد']));
    release();
    await within(panel).findByRole('link', { name: 'فتح صفحة أحمد إبراهيم علي في لسان جديد' });
  });
});
