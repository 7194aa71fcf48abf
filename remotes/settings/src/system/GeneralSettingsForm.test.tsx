import { AREA_PERMISSIONS, SYSTEM_SETTINGS_ROUTES } from '@mizan/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { startApiServer } from '../test/apiServer';
import { captureToasts, pointSdkAt, renderScreen, signIn } from '../test/render';
import { GeneralSettingsPage } from './GeneralSettingsPage';
import type { GeneralSettings } from './generalSettings';

const read = '2024-05-01T09:30:00.000Z';
const later = '2024-05-02T11:00:00.000Z';
const stored: GeneralSettings & Record<string, unknown> = {
  id: 1,
  officeName: 'Al-Adl Law Office',
  phone: null,
  email: 'office@example.com',
  address: 'Riyadh',
  defaultLanguage: 'ar',
  defaultTheme: 'light',
  calendar: 'hijri',
  timeZone: 'Africa/Cairo',
  sessionLifetimeHours: 12,
  passwordMinLength: 8,
  passwordRequireDigits: false,
  passwordRequireSymbols: false,
  reminderEveningTime: '18:00',
  reminderMorningTime: '07:00',
  procurationReminderDays: [30, 7],
  officeCountry: 'SA',
  weekendDays: [5, 6],
  deadlineReminderDays: [7, 3, 1],
  procurationCheck: 'warn',
  backupTime: '02:00',
  backupKeep: 7,
  textMaxPages: 300,
  textSecondsPerPage: 120,
  textConcurrency: 1,
  maxUploadMb: 25,
  currency: null,
  vatNumber: null,
  vatRate: null,
  vatRounding: 'line',
  updatedAt: read,
};

const path = `/api${SYSTEM_SETTINGS_ROUTES.get.path}`;
let server: Awaited<ReturnType<typeof startApiServer>>;
let current: typeof stored;

beforeAll(async () => {
  server = await startApiServer({
    [`GET ${path}`]: () => ({ body: { data: current } }),
    [`PUT ${path}`]: (req) => {
      const body = JSON.parse(req.body) as Record<string, unknown>;
      // As the server: a save based on an older version is refused with the current row.
      if (body.updatedAt !== current.updatedAt)
        return {
          status: 409,
          body: {
            message: 'The settings changed since you opened them',
            code: 'stale',
            current,
            changedBy: { id: 2, name: 'Sara' },
            changedAt: current.updatedAt,
          },
        };
      current = { ...current, ...body, updatedAt: new Date().toISOString() };
      return { body: { data: current } };
    },
  });
  pointSdkAt(server.url);
});
afterAll(() => server.close());
beforeEach(() => {
  current = { ...stored };
  server.seen.length = 0;
  captureToasts();
  signIn([AREA_PERMISSIONS.systemSettingsView, AREA_PERMISSIONS.systemSettingsUpdate]);
});

const puts = () => server.calls('PUT', path).map((r) => JSON.parse(r.body) as Record<string, unknown>);
const save = () => fireEvent.click(screen.getByRole('button', { name: 'Save' }));
const dialog = () => screen.getByRole('dialog');

describe('GeneralSettingsForm and a stale save', () => {
  it('sends the version it read as updatedAt', async () => {
    renderScreen(<GeneralSettingsPage />);
    await screen.findByDisplayValue('Al-Adl Law Office');
    save();
    await waitFor(() => expect(puts()).toHaveLength(1));
    expect(puts()[0]).toMatchObject({ officeName: 'Al-Adl Law Office', updatedAt: read });
  });

  it('names who saved meanwhile, lists the differences, and saves on their version when asked', async () => {
    renderScreen(<GeneralSettingsPage />);
    await screen.findByDisplayValue('Al-Adl Law Office');
    current = { ...current, officeName: 'Al-Haq Law Office', passwordRequireDigits: true, updatedAt: later };
    fireEvent.change(screen.getByLabelText('Address'), { target: { value: 'Jeddah' } });
    save();

    expect(await screen.findByText(/Sara saved it on/)).toBeInTheDocument();
    fireEvent.click(within(dialog()).getByText('Review differences'));
    const rows = within(dialog())
      .getAllByRole('row')
      .slice(1)
      .map((row) => [...row.querySelectorAll('td')].map((td) => td.textContent));
    expect(rows).toEqual([
      ['Office name', 'Al-Adl Law Office', 'Al-Haq Law Office'],
      ['Address', 'Jeddah', 'Riyadh'],
      ['Passwords must contain a digit', 'No', 'Yes'],
    ]);
    fireEvent.click(within(dialog()).getByText('Keep my values and continue editing'));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    save();
    await waitFor(() => expect(puts()).toHaveLength(2));
    expect(puts()[1]).toMatchObject({ address: 'Jeddah', updatedAt: later });
    await waitFor(() => expect(current.address).toBe('Jeddah'));
  });

  it('loads their version into the form', async () => {
    renderScreen(<GeneralSettingsPage />);
    await screen.findByDisplayValue('Al-Adl Law Office');
    current = { ...current, officeName: 'Al-Haq Law Office', updatedAt: later };
    save();
    fireEvent.click(await screen.findByText('Load their version'));
    expect(await screen.findByDisplayValue('Al-Haq Law Office')).toBeInTheDocument();
    save();
    await waitFor(() => expect(puts()).toHaveLength(2));
    expect(puts()[1]).toMatchObject({ officeName: 'Al-Haq Law Office', updatedAt: later });
  });
});
