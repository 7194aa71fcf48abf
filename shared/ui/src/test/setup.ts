// The shared browser and antd set-ups run first (jest.preset.cjs); this adds the ui package's own.
import '@testing-library/jest-dom';
import { initI18n } from '@mizan/i18n';

void initI18n('ar');
