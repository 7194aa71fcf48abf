import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App, ConfigProvider, Form } from 'antd';
import { i18n } from '@mizan/i18n';
import { circuits, employees, roles, type Entity, type Fields } from '@mizan/contracts';
import type { ReactNode } from 'react';
import { deriveColumns } from '../entity/columns';
import { entityText } from '../entity/labels';
import { fieldKind, formatNumber, parseNumberInput } from './registry';
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
