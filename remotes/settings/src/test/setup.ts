// The shared browser and antd set-ups run first (jest.preset.cjs); this adds the remote's own.
import '@testing-library/jest-dom';
import { initI18n } from '@mizan/i18n';

// Whole screens over HTTP take seconds each when every package's tests run at once on two cores.
jest.setTimeout(90_000);

// Tests read English labels; the app defaults to Arabic.
void initI18n('en');
