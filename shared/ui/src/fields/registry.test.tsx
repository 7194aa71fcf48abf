import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App, ConfigProvider, Form } from 'antd';
import { i18n } from '@mizan/i18n';
import { circuits, defineEntity, employees, roles, type Entity, type Fields } from '@mizan/contracts';
import type { ReactNode } from 'react';
import { deriveColumns } from '../entity/columns';
import { entityText } from '../entity/labels';
import { ListFilter } from './ListFilter';
import { formatNumber } from './numbers';
import { fieldKind, formatMoney, parseNumberInput } from './registry';
import type { EntityRow } from './types';

const contextOf = (entity: Entity<Fields>, name: string, lng = 'ar') =>
  entityText(entity, i18n.t.bind(i18n) as never, lng).context(name);
const row = (values: Record<string, unknown>) => ({ id: 1, ...values }) as EntityRow;

function FieldForm({ children, onValue }: { children: ReactNode; onValue: (v: unknown) => void }) {
  return (
    <ConfigProvider direction="rtl" wave={{ disabled: true }}>
      <App>
        <Form onValuesChange={(_, all: { value?: unknown }) => onValue(all.value)}>
          <Form.Item name="value" label="القيمة">
            {children}
          </Form.Item>
        </Form>
      </App>
    </ConfigProvider>
  );
}

describe('numbers and codes in the field registry', () => {
  it('reads Arabic-Indic and Persian digits typed into a number input', async () => {
    const user = userEvent.setup({ delay: null });
    let value: unknown;
    const ctx = contextOf(circuits, 'number');
    render(<FieldForm onValue={(v) => (value = v)}>{fieldKind(ctx.field).input(ctx, undefined)}</FieldForm>);
    await user.type(screen.getByLabelText('القيمة'), '١٨۰٤');
    expect(value).toBe(1804);
    expect(fieldKind(ctx.field).fromForm(value, ctx)).toBe(1804);
  });

  it('parses what a number input shows', () => {
    expect(parseNumberInput('٣٫٥')).toBe('3.5');
    expect(parseNumberInput('١٬٨٠٤')).toBe('1804');
    expect(parseNumberInput('-۲')).toBe('-2');
    expect(parseNumberInput(undefined)).toBe('');
  });

  it('groups quantities but never codes, with the digits of the language', () => {
    expect(formatNumber(1804, 'en')).toBe('1,804');
    expect(formatNumber(1804, 'en', true)).toBe('1804');
    expect(formatNumber(1804, 'ar', true)).toBe('١٨٠٤');
    expect(formatNumber(1804, 'ar')).toBe('١٬٨٠٤');
  });

  it('shows a circuit number (a code) without a thousands separator', () => {
    const ctx = contextOf(circuits, 'number', 'en');
    render(<>{fieldKind(ctx.field).cell(1804, row({ number: 1804 }), ctx)}</>);
    expect(screen.getByText('1804')).toBeInTheDocument();
    expect(screen.queryByText('1,804')).not.toBeInTheDocument();
    expect(fieldKind(ctx.field).text(1804, row({}), ctx)).toBe(1804);
  });

  it('stores a phone typed on an Arabic keyboard with ASCII digits, shown left to right', () => {
    const ctx = contextOf(employees, 'phone');
    expect(fieldKind(ctx.field).fromForm('٠١٠٠١٢٣٤٥٦٧', ctx)).toBe('01001234567');
    expect(fieldKind(ctx.field).fromForm('', ctx)).toBeNull();
    const { container } = render(<>{fieldKind(ctx.field).cell('+20 100', row({}), ctx)}</>);
    expect(container.querySelector('bdi[dir="ltr"] a[href="tel:+20100"]')).toBeInTheDocument();
  });

  it('leaves the digits of ordinary text as typed', () => {
    const ctx = contextOf(employees, 'jobTitle');
    expect(fieldKind(ctx.field).fromForm('محامٍ ٢', ctx)).toBe('محامٍ ٢');
  });
});

describe('seeded role names in English', () => {
  const seeded = row({
    name: 'مدير النظام',
    roleIds: [1, 5],
    roles: [
      { id: 1, name: 'مدير النظام' },
      { id: 5, name: 'محاسب' },
    ],
  });

  it('read in English in a roles reference, in the list and the export', () => {
    const ctx = contextOf(employees, 'roleIds', 'en');
    render(<>{fieldKind(ctx.field).cell(seeded.roleIds, seeded, ctx)}</>);
    expect(screen.getByText('Administrator')).toBeInTheDocument();
    expect(screen.getByText('محاسب')).toBeInTheDocument();
    expect(fieldKind(ctx.field).text(seeded.roleIds, seeded, ctx)).toBe('Administrator، محاسب');
    const ar = contextOf(employees, 'roleIds', 'ar');
    expect(fieldKind(ar.field).text(seeded.roleIds, seeded, ar)).toBe('مدير النظام، محاسب');
  });

  it('read in English as the title column of the roles list', () => {
    const text = entityText(roles, i18n.t.bind(i18n) as never, 'en');
    const name = deriveColumns(roles, text).find((c) => c.key === 'name')!;
    expect(name.exportValue(seeded)).toBe('Administrator');
    const arText = entityText(roles, i18n.t.bind(i18n) as never, 'ar');
    expect(
      deriveColumns(roles, arText)
        .find((c) => c.key === 'name')!
        .exportValue(seeded),
    ).toBe('مدير النظام');
  });
});

describe('money in the field registry', () => {
  // A stand-alone definition: the field type is generic, not any one entity's.
  const fees = defineEntity({
    name: 'fees',
    path: '/fees',
    remote: 'legal',
    fields: { name: { type: 'string' }, amount: { type: 'money' } },
  });

  it('shows minor units as major units with two decimals, in the language of the interface', () => {
    expect(formatMoney(123450, 'en')).toBe('1,234.50');
    expect(formatMoney(123450, 'ar')).toBe('١٬٢٣٤٫٥٠');
    expect(formatMoney(5, 'en')).toBe('0.05');
    // Past float precision in major units: the digits go to Intl as text.
    expect(formatMoney(999_999_999_999_999, 'en')).toBe('9,999,999,999,999.99');
    const ctx = contextOf(fees, 'amount', 'en');
    render(<>{fieldKind(ctx.field).cell(123450, row({ amount: 123450 }), ctx)}</>);
    expect(screen.getByText('1,234.50')).toBeInTheDocument();
  });

  it('exports major units as a number and maps the form value exactly', () => {
    const ctx = contextOf(fees, 'amount', 'en');
    const kind = fieldKind(ctx.field);
    expect(kind.text(123450, row({}), ctx)).toBe(1234.5);
    expect(kind.toForm(30, ctx)).toBe('0.30');
    expect(kind.fromForm('0.30', ctx)).toBe(30);
    expect(kind.fromForm('1.15', ctx)).toBe(115);
    expect(kind.fromForm('', ctx)).toBeNull();
    // Not an amount: kept, so the schema reports it on the field.
    expect(kind.fromForm('1.005', ctx)).toBe('1.005');
  });

  it('reads an amount typed in Arabic-Indic digits', async () => {
    const user = userEvent.setup({ delay: null });
    let value: unknown;
    const ctx = contextOf(fees, 'amount');
    render(<FieldForm onValue={(v) => (value = v)}>{fieldKind(ctx.field).input(ctx, undefined)}</FieldForm>);
    await user.type(screen.getByLabelText('القيمة'), '١٢٣٤٫٥');
    expect(fieldKind(ctx.field).fromForm(value, ctx)).toBe(123450);
  });
});

describe('declared list filters of type date', () => {
  it('render a day picker that writes YYYY-MM-DD and shows the URL value', async () => {
    const user = userEvent.setup({ delay: null });
    const changes: (string | undefined)[] = [];
    const { rerender } = render(
      <ListFilter
        filter={{ type: 'date' }}
        label="Filed from"
        value={undefined}
        onChange={(v) => changes.push(v)}
      />,
    );
    const input = screen.getByPlaceholderText('Filed from');
    await user.click(input);
    await user.type(input, '1/31/2026{Enter}');
    expect(changes.at(-1)).toBe('2026-01-31');
    rerender(
      <ListFilter
        filter={{ type: 'date' }}
        label="Filed from"
        value="2025-03-10"
        onChange={(v) => changes.push(v)}
      />,
    );
    expect(screen.getByPlaceholderText('Filed from')).toHaveValue('3/10/2025');
  });
});
