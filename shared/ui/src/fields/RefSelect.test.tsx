import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { entityApi, entityKeys } from '../data';
import { getEntity } from '@mizan/contracts';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { foldArabic } from '@mizan/contracts';
import { json, startServer, type TestServer } from '@mizan/sdk/testing/apiServer';
import { captureToasts, pointSdkAt, renderScreen, signIn } from '../testing/render';
import { matchesFolded } from './matchText';
import { RefSelect } from './RefSelect';

const rows = [
  { id: 1, name: 'أحمد إبراهيم', nationalId: '29801011234567' },
  { id: 2, name: 'محمد علي', nationalId: '28505051234567' },
  { id: 3, name: 'إيمان مصطفى', nationalId: null },
];

describe('matchesFolded', () => {
  it.each([
    ['أحمد إبراهيم', 'احمد', true],
    ['أحمد إبراهيم', 'احمد ابراهيم', true],
    ['مكتبة المدينة', 'مكتبه', true],
    ['مصطفى', 'مصطفي', true],
    ['مُحَمَّد', 'محمد', true],
    ['Ahmed', 'AHM', true],
    ['رقم ٢٩٨٠١', '29801', true],
    ['محمد علي', 'احمد', false],
    ['أي شيء', '', true],
  ])('%s ⊇ %s: %s', (text, typed, expected) => {
    expect(matchesFolded(text, typed)).toBe(expected);
  });
});

describe('reference select: local filtering', () => {
  let server: TestServer;
  beforeEach(async () => {
    captureToasts();
    signIn(['customers.view']);
    // Answers as the engine does: `q` folded, over the name and the ID.
    server = await startServer((req, res) => {
      const q = foldArabic(req.query.get('q') ?? '');
      const items = rows.filter((r) => !q || foldArabic(`${r.name} ${r.nationalId ?? ''}`).includes(q));
      json(res, 200, { data: { items, total: items.length, page: 1, pageSize: 20 } });
    });
    pointSdkAt(server.url);
  });
  afterEach(() => server.close());

  const open = async () => {
    renderScreen(<RefSelect entity="customers" aria-label="الموكل" />);
    const box = screen.getByRole('combobox', { name: 'الموكل' });
    fireEvent.mouseDown(box);
    await screen.findByText('محمد علي', { selector: '.ant-select-item-option-content' });
    return box;
  };
  const shown = () =>
    [...document.querySelectorAll('.ant-select-item-option-content')].map((o) => o.textContent);

  it('narrows the loaded options at once by the folded label: "احمد" keeps "أحمد"', async () => {
    const box = await open();
    fireEvent.change(box, { target: { value: 'احمد' } });
    // Before the debounced search reaches the server.
    expect(shown()).toEqual(['أحمد إبراهيم']);
    fireEvent.change(box, { target: { value: 'ايمان' } });
    expect(shown()).toEqual(['إيمان مصطفى']);
  });

  it('opens beside a list screen of the same entity that holds its first page (its own cache key)', async () => {
    // The list screen caches a whole page under the list key with the picker's default paging.
    function ListScreen() {
      const params = { page: 1, pageSize: 20 };
      const list = useQuery({
        queryKey: entityKeys.list('customers', params),
        queryFn: () => entityApi(getEntity('customers')).list(params),
      });
      return <p>{list.data ? `${list.data.total} rows` : 'loading'}</p>;
    }
    renderScreen(
      <>
        <ListScreen />
        <RefSelect entity="customers" aria-label="الموكل" />
      </>,
    );
    await screen.findByText('3 rows');
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'الموكل' }));
    expect(await screen.findByText('محمد علي', { selector: '.ant-select-item-option-content' })).toBeTruthy();
  });

  it('keeps what the server found for the text typed, even when the label does not hold it', async () => {
    const box = await open();
    fireEvent.change(box, { target: { value: '٢٩٨٠١' } });
    await waitFor(() => expect(server.seen.at(-1)!.query.get('q')).toBe('٢٩٨٠١'));
    await waitFor(() => expect(shown()).toEqual(['أحمد إبراهيم']));
  });
});

describe('reference select: fixed filter', () => {
  const circuits = [
    { id: 1, name: 'الدائرة الأولى', courtId: 10 },
    { id: 2, name: 'الدائرة الثانية', courtId: 10 },
    { id: 3, name: 'الدائرة الخامسة', courtId: 20 },
  ];
  let server: TestServer;
  beforeEach(async () => {
    captureToasts();
    signIn(['circuits.view']);
    server = await startServer((req, res) => {
      const court = req.query.get('courtId');
      const items = circuits.filter((c) => !court || String(c.courtId) === court);
      json(res, 200, { data: { items, total: items.length, page: 1, pageSize: 20 } });
    });
    pointSdkAt(server.url);
  });
  afterEach(() => server.close());

  const shown = () =>
    [...document.querySelectorAll('.ant-select-item-option-content')].map((o) => o.textContent);

  it('sends the filter with every options query and reloads when it changes', async () => {
    function Harness() {
      const [court, setCourt] = useState(10);
      return (
        <>
          <button type="button" onClick={() => setCourt(20)}>
            court 20
          </button>
          <RefSelect entity="circuits" aria-label="الدائرة" filter={{ courtId: court }} />
        </>
      );
    }
    renderScreen(<Harness />);
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'الدائرة' }));
    await waitFor(() => expect(shown()).toEqual(['الدائرة الأولى', 'الدائرة الثانية']));
    expect(server.seen.at(-1)!.query.get('courtId')).toBe('10');

    fireEvent.click(screen.getByRole('button', { name: 'court 20' }));
    await waitFor(() => expect(shown()).toEqual(['الدائرة الخامسة']));
    expect(server.seen.at(-1)!.query.get('courtId')).toBe('20');
  });
});
