import { i18n } from '@mizan/i18n';
import { render, screen } from '@testing-library/react';
import { PendingItem } from './MessageItem';

describe('PendingItem', () => {
  it('marks a message waiting to be sent with a clock icon, not a character a font may lack', async () => {
    await i18n.changeLanguage('ar');
    render(
      <PendingItem
        entry={{
          clientId: 'c1',
          chatId: 1,
          body: 'مرحبا',
          replyToId: null,
          files: [],
          state: 'pending',
          createdAt: '2026-11-28T09:00:00.000Z',
        }}
        onRetry={() => undefined}
        onDiscard={() => undefined}
      />,
    );
    const mark = screen.getByRole('img', { name: i18n.t('chat:status.pending') });
    expect(mark.querySelector('svg')).not.toBeNull();
    expect(mark.textContent).toBe('');
  });
});
