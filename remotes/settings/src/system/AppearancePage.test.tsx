import { AREA_PERMISSIONS, SYSTEM_SETTINGS_ROUTES } from '@mizan/contracts';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { startApiServer } from '../test/apiServer';
import { captureToasts, pointSdkAt, renderScreen, signIn } from '../test/render';
import { AppearancePage } from './AppearancePage';
import { appearanceForm, imageProblem } from './appearance';

const general = `/api${SYSTEM_SETTINGS_ROUTES.get.path}`;
const appearances = `/api${SYSTEM_SETTINGS_ROUTES.appearance.path}`;
const stored = {
  id: 1,
  officeName: 'Office',
  primaryColor: '#1d4ed8',
  logoUrl: '/api/auth/systemSettings/logo?v=4',
  faviconUrl: null,
};

describe('appearance form body', () => {
  it('sends the colour, new images as parts and removals as flags', () => {
    const logo = new File(['png'], 'logo.png', { type: 'image/png' });
    const form = appearanceForm({ primaryColor: '#0f766e', logo, favicon: null });
    expect(form.get('primaryColor')).toBe('#0f766e');
    expect((form.get('logo') as File).name).toBe('logo.png');
    expect(form.get('removeFavicon')).toBe('true');
    expect(form.has('removeLogo')).toBe(false);
    expect(form.has('favicon')).toBe(false);
  });

  it('keeps an image that was not touched', () => {
    const form = appearanceForm({ primaryColor: '#0f766e' });
    expect([...form.keys()]).toEqual(['primaryColor']);
  });

  it('refuses a wrong type or an oversized image before upload', () => {
    expect(imageProblem('logo', new File(['x'], 'a.gif', { type: 'image/gif' }))).toBe('type');
    expect(
      imageProblem('favicon', new File([new Uint8Array(600 * 1024)], 'a.png', { type: 'image/png' })),
    ).toBe('size');
    expect(imageProblem('logo', new File(['x'], 'a.svg', { type: 'image/svg+xml' }))).toBeNull();
  });
});

describe('AppearancePage', () => {
  let server: Awaited<ReturnType<typeof startApiServer>>;
  beforeAll(async () => {
    server = await startApiServer({
      [`GET ${general}`]: () => ({ body: { data: stored } }),
      [`PUT ${appearances}`]: () => ({ body: { data: { ...stored, logoUrl: null } } }),
    });
    pointSdkAt(server.url);
  });
  afterAll(() => server.close());

  it('shows the stored logo and sends a removal as multipart', async () => {
    const toasts = captureToasts();
    signIn([AREA_PERMISSIONS.systemSettingsView, AREA_PERMISSIONS.systemSettingsUpdate]);
    renderScreen(<AppearancePage />);
    const logo = await screen.findByAltText('Logo preview');
    expect(logo.getAttribute('src')).toBe(stored.logoUrl);
    expect(screen.getByText('Save').closest('button')).toBeDisabled();
    fireEvent.click(screen.getByText('Remove').closest('button') as HTMLElement);
    expect(screen.queryByAltText('Logo preview')).toBeNull();
    fireEvent.click(screen.getByText('Save').closest('button') as HTMLElement);
    await waitFor(() => expect(server.calls('PUT', appearances)).toHaveLength(1));
    const sent = server.calls('PUT', appearances)[0]!;
    expect(sent.contentType).toMatch(/^multipart\/form-data; boundary=/);
    expect(sent.body).toMatch(/name="removeLogo"\r\n\r\ntrue/);
    expect(sent.body).toMatch(/name="primaryColor"\r\n\r\n#1d4ed8/);
    await waitFor(() => expect(toasts.success).toContain('The appearance was saved and applies at once.'));
  });

  it('offers no changes without systemSettings.update', async () => {
    signIn([AREA_PERMISSIONS.systemSettingsView]);
    renderScreen(<AppearancePage />);
    await screen.findByAltText('Logo preview');
    expect(screen.queryByText('Save')).toBeNull();
    expect(screen.getByText('You can view these settings but not change them.')).toBeInTheDocument();
  });
});
