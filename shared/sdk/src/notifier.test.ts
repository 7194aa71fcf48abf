import { initI18n } from '@mizan/i18n';
import { configureNotifier, notify } from './notifier';

beforeAll(() => initI18n('ar'));
afterEach(() => configureNotifier(null));

describe('notify', () => {
  it('falls back to the seed generic texts when no content is given', () => {
    const notifier = { success: jest.fn(), error: jest.fn(), warning: jest.fn(), info: jest.fn() };
    configureNotifier(notifier);
    notify.success();
    notify.error();
    notify.warning();
    notify.info();
    expect(notifier.success).toHaveBeenCalledWith('تم بنجاح');
    expect(notifier.error).toHaveBeenCalledWith('حدث خطأ');
    expect(notifier.warning).toHaveBeenCalledWith('تحذير');
    expect(notifier.info).toHaveBeenCalledWith('معلومات');
  });

  it('delivers the last three toasts raised before the host wired its notifier', () => {
    configureNotifier(null);
    ['1', '2', '3', '4'].forEach((n) => notify.error(n));
    const notifier = { success: jest.fn(), error: jest.fn(), warning: jest.fn(), info: jest.fn() };
    configureNotifier(notifier);
    expect(notifier.error.mock.calls).toEqual([['2'], ['3'], ['4']]);
    configureNotifier(notifier);
    expect(notifier.error).toHaveBeenCalledTimes(3);
  });
});
