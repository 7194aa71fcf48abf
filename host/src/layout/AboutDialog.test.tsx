import { i18n } from '@mizan/i18n';
import { act, render, screen, within } from '@testing-library/react';
import { setLoadedRemote } from '../remotes/loadedRemotes';
import { AboutDialog } from './AboutDialog';

describe('AboutDialog', () => {
  it('lists the version of each remote the page has loaded, as it loads', async () => {
    await act(() => i18n.changeLanguage('en'));
    render(<AboutDialog open onClose={() => undefined} />);
    const dialog = screen.getByRole('dialog');
    expect(within(dialog).getByText(i18n.t('layout:about.noRemotes'))).toBeInTheDocument();

    act(() => setLoadedRemote('tasks', { name: 'tasks', version: '0.1.0-20261123180512', shared: {} }));
    act(() => setLoadedRemote('settings', null));
    const row = (name: string) =>
      within(dialog)
        .getByText(i18n.t(`layout:remote.names.${name}`))
        .closest('tr')!;
    expect(within(row('tasks')).getByTestId('remote-version')).toHaveTextContent('0.1.0-20261123180512');
    expect(within(row('settings')).getByTestId('remote-version')).toHaveTextContent(
      i18n.t('layout:about.unknown'),
    );
    expect(within(dialog).queryByText(i18n.t('layout:about.noRemotes'))).not.toBeInTheDocument();
  });
});
