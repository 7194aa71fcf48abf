import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App, ConfigProvider, Form } from 'antd';
import { i18n } from '@mizan/i18n';
import { circuits, employees, type Entity, type Fields } from '@mizan/contracts';
import type { ReactNode } from 'react';
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
