import { AREA_PERMISSIONS, AUTH_ROUTES, SYSTEM_SETTINGS_ROUTES } from '@mizan/contracts';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { startApiServer } from '../test/apiServer';
import { captureToasts, pointSdkAt, renderScreen, signIn } from '../test/render';
import { GeneralSettingsPage } from './GeneralSettingsPage';
import type { GeneralSettings } from './generalSettings';

const stored: GeneralSettings & Record<string, unknown> = {
  id: 1,
  officeName: 'Al-Adl Law Office',
  phone: '+966 11 000 0000',
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
  logoUrl: null,
  faviconUrl: null,
  primaryColor: '#1d4ed8',
  updatedAt: null,
  updatedBy: null,
};

const path = `/api${SYSTEM_SETTINGS_ROUTES.get.path}`;
let server: Awaited<ReturnType<typeof startApiServer>>;
let current: typeof stored;

beforeAll(async () => {
  server = await startApiServer({
    [`GET ${path}`]: () => ({ body: { data: current } }),
    [`GET /api${AUTH_ROUTES.twoFactorRoles.path}`]: () => ({ body: { data: { roleIds: [] } } }),
    [`PUT ${path}`]: (req) => {
      const body = JSON.parse(req.body) as Record<string, unknown>;
      // The real server refuses a taken-over field the same way: 422 with the field's message.
      if (body.officeName === 'Taken')
        return {
          status: 422,
          body: { message: 'Invalid', errors: { officeName: ['Office name is reserved'] } },
        };
      current = { ...current, ...body };
      return { body: { data: current } };
    },
  });
  pointSdkAt(server.url);
});
afterAll(() => server.close());
beforeEach(() => {
  current = { ...stored };
  server.seen.length = 0;
});

const field = (label: string) => screen.getByLabelText(label);
/** The message antd shows under a field (`<name>_help`). */
const help = (name: string) => document.getElementById(`${name}_help`)?.textContent ?? '';
const save = () => fireEvent.click(screen.getByRole('button', { name: 'Save' }));
const puts = () => server.calls('PUT', path);

describe('GeneralSettingsPage', () => {
  it('loads the stored settings into the form', async () => {
    signIn([AREA_PERMISSIONS.systemSettingsView, AREA_PERMISSIONS.systemSettingsUpdate]);
    renderScreen(<GeneralSettingsPage />);
    expect(await screen.findByDisplayValue('Al-Adl Law Office')).toBeInTheDocument();
    expect(field('Email')).toHaveValue('office@example.com');
    expect(field('Session lifetime (hours)')).toHaveValue('12');
  });

  it('refuses bad input with field messages and sends nothing', async () => {
    signIn([AREA_PERMISSIONS.systemSettingsView, AREA_PERMISSIONS.systemSettingsUpdate]);
    renderScreen(<GeneralSettingsPage />);
    await screen.findByDisplayValue('Al-Adl Law Office');
    fireEvent.change(field('Office name'), { target: { value: '   ' } });
    fireEvent.change(field('Email'), { target: { value: 'not-an-email' } });
    fireEvent.change(field('Phone'), { target: { value: 'call me' } });
    fireEvent.change(field('Session lifetime (hours)'), { target: { value: '0' } });
    fireEvent.change(field('Minimum password length'), { target: { value: '200' } });
    save();
    await waitFor(() => expect(help('officeName')).toMatch(/Office name/));
    expect(help('email')).toMatch(/Email/);
    expect(help('phone')).toMatch(/Phone/);
    expect(help('sessionLifetimeHours')).toMatch(/Session lifetime \(hours\).*1/);
    expect(help('passwordMinLength')).toMatch(/Minimum password length.*64/);
    expect(puts()).toHaveLength(0);
  });

  it('saves the editable fields only, blank optional text as null', async () => {
    const toasts = captureToasts();
    signIn([AREA_PERMISSIONS.systemSettingsView, AREA_PERMISSIONS.systemSettingsUpdate]);
    renderScreen(<GeneralSettingsPage />);
    await screen.findByDisplayValue('Al-Adl Law Office');
    fireEvent.change(field('Office name'), { target: { value: '  Al-Haq Law Office ' } });
    fireEvent.change(field('Address'), { target: { value: '' } });
    fireEvent.change(field('Session lifetime (hours)'), { target: { value: '24' } });
    fireEvent.click(field('Passwords must contain a digit'));
    save();
    await waitFor(() => expect(puts()).toHaveLength(1));
    expect(JSON.parse(puts()[0]!.body)).toEqual({
      officeName: 'Al-Haq Law Office',
      phone: '+966 11 000 0000',
      email: 'office@example.com',
      address: null,
      defaultLanguage: 'ar',
      defaultTheme: 'light',
      calendar: 'hijri',
      timeZone: 'Africa/Cairo',
      sessionLifetimeHours: 24,
      passwordMinLength: 8,
      passwordRequireDigits: true,
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
    });
    await waitFor(() => expect(toasts.success).toContain('The settings were saved and apply at once.'));
  });

  it('saves the reminder times and thresholds, Arabic-Indic digits read, and refuses bad ones', async () => {
    signIn([AREA_PERMISSIONS.systemSettingsView, AREA_PERMISSIONS.systemSettingsUpdate]);
    renderScreen(<GeneralSettingsPage />);
    await screen.findByDisplayValue('Al-Adl Law Office');
    expect(field('Day-before hearing reminder at')).toHaveValue('18:00');
    expect(screen.getByTitle('30')).toBeInTheDocument();

    fireEvent.change(field('Day-before hearing reminder at'), { target: { value: '25:00' } });
    fireEvent.change(field('Morning reminders at'), { target: { value: '' } });
    save();
    await waitFor(() =>
      expect(help('reminderEveningTime')).toMatch(/Day-before hearing reminder at.*24-hour/),
    );
    expect(help('reminderMorningTime')).toMatch(/Morning reminders at/);
    expect(puts()).toHaveLength(0);

    fireEvent.change(field('Day-before hearing reminder at'), { target: { value: '١٩:٣٠' } });
    fireEvent.change(field('Morning reminders at'), { target: { value: '06:45' } });
    const days = field('Remind of an expiring power of attorney (days before)');
    fireEvent.change(days, { target: { value: '٦٠' } });
    fireEvent.keyDown(days, { key: 'Enter', keyCode: 13 });
    save();
    await waitFor(() => expect(puts()).toHaveLength(1));
    expect(JSON.parse(puts()[0]!.body)).toMatchObject({
      reminderEveningTime: '19:30',
      reminderMorningTime: '06:45',
      procurationReminderDays: [60, 30, 7],
    });
  });

  it('offers the time zones by city and country, and saves the one chosen', async () => {
    signIn([AREA_PERMISSIONS.systemSettingsView, AREA_PERMISSIONS.systemSettingsUpdate]);
    renderScreen(<GeneralSettingsPage />);
    await screen.findByDisplayValue('Al-Adl Law Office');
    expect(screen.getByText('Cairo (Egypt)')).toBeInTheDocument();
    fireEvent.mouseDown(field('Office time zone'));
    fireEvent.click(await screen.findByText('Riyadh (Saudi Arabia)'));
    save();
    await waitFor(() => expect(puts()).toHaveLength(1));
    expect(JSON.parse(puts()[0]!.body)).toMatchObject({ timeZone: 'Asia/Riyadh' });
  });

  it('shows a stored zone the list does not name by its IANA name', async () => {
    current = { ...stored, timeZone: 'Asia/Tokyo' };
    signIn([AREA_PERMISSIONS.systemSettingsView]);
    renderScreen(<GeneralSettingsPage />);
    expect(await screen.findByText('Asia/Tokyo (time zone)')).toBeInTheDocument();
  });

  it('puts a 422 message under its field', async () => {
    captureToasts();
    signIn([AREA_PERMISSIONS.systemSettingsView, AREA_PERMISSIONS.systemSettingsUpdate]);
    renderScreen(<GeneralSettingsPage />);
    await screen.findByDisplayValue('Al-Adl Law Office');
    fireEvent.change(field('Office name'), { target: { value: 'Taken' } });
    save();
    expect(await screen.findByText('Office name is reserved')).toBeInTheDocument();
    expect(current.officeName).toBe('Al-Adl Law Office');
  });

  it('is read-only without systemSettings.update', async () => {
    signIn([AREA_PERMISSIONS.systemSettingsView]);
    renderScreen(<GeneralSettingsPage />);
    await screen.findByDisplayValue('Al-Adl Law Office');
    expect(screen.getByText('You can view these settings but not change them.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    expect(field('Office name')).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Restore defaults' })).toBeNull();
  });
});
