import { screen, within } from '@testing-library/react';
import { customers, type Entity, type Fields } from '@mizan/contracts';
import { useEntityText } from '../entity/labels';
import { renderScreen, signIn } from '../testing/render';
import { RecordFields, readableFields } from './RecordFields';

const stamp = '2024-05-01T09:30:00.000Z';
const client = {
  id: 7,
  name: 'شركة النور للتجارة',
  nameEn: null,
  kind: 'company',
  customerTypeId: null,
  customerType: null,
  nationalId: null,
  commercialRegister: '123456',
  nationalityId: 3,
  nationality: { id: 3, name: 'مصر' },
  phone: '+20 100 000',
  mobile: null,
  email: 'info@alnoor.test',
  governorateId: null,
  governorate: null,
  address: 'شارع التحرير\nالقاهرة',
  branchId: null,
  branch: null,
  lawyerId: 4,
  lawyer: { id: 4, name: 'منى حسن' },
  notes: null,
  status: true,
  createdAt: stamp,
  updatedAt: stamp,
};

function Fields({ fields }: { fields?: string[] }) {
  const entity = customers as Entity<Fields>;
  const text = useEntityText(entity);
  return <RecordFields entity={entity} text={text} row={client} fields={fields ?? readableFields(entity)} />;
}

describe(RecordFields.name, () => {
  it('shows every readable field read-only: enums translated, references linked where viewable, texts whole', () => {
    signIn(['customers.view', 'countries.view']);
    renderScreen(<Fields />);
    // Label and value: the value's cell follows the label's (side by side) or sits below it (a phone).
    const item = (label: string) => {
      const th = screen.getByText(label).closest('th')!;
      const index = [...th.parentElement!.children].indexOf(th);
      const beside = th.nextElementSibling;
      if (beside?.tagName === 'TD') return beside as HTMLElement;
      return th.closest('tr')!.nextElementSibling!.children[index] as HTMLElement;
    };
    expect(within(item('الشخصية القانونية')).getByText('شركة')).toBeInTheDocument();
    // A country the user may open is a link to its record page; an employee they may not is text.
    expect(within(item('الجنسية')).getByRole('link', { name: 'مصر' })).toHaveAttribute(
      'href',
      '/admin/settings/places/countries/3',
    );
    expect(within(item('المحامي المسؤول')).getByText('منى حسن').closest('a')).toBeNull();
    expect(within(item('العنوان')).getByText(/شارع التحرير\s+القاهرة/)).toBeInTheDocument();
    expect(within(item('رقم السجل التجاري')).getByText('123456')).toBeInTheDocument();
    expect(within(item('البريد الإلكتروني')).getByRole('link', { name: 'info@alnoor.test' })).toHaveAttribute(
      'href',
      'mailto:info@alnoor.test',
    );
    expect(within(item('الحالة')).getByText('نشط')).toBeInTheDocument();
    expect(item('تاريخ الإنشاء').textContent).toMatch(/٢٠٢٤|2024/);
  });

  it('shows only the fields asked for', () => {
    signIn(['customers.view']);
    renderScreen(<Fields fields={['name', 'nosuch']} />);
    expect(screen.getByText('الاسم الكامل')).toBeInTheDocument();
    expect(screen.queryByText('الجنسية')).not.toBeInTheDocument();
  });
});
