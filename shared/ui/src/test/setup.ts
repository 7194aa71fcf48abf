// The shared browser and antd set-ups run first (jest.preset.cjs); this adds the ui package's own.
import '@testing-library/jest-dom';
import { configure } from '@testing-library/react';
import { initI18n } from '@mizan/i18n';

// The first antd render of a file generates every component style (seconds on a slow runner).
configure({ asyncUtilTimeout: 30_000 });

void initI18n('ar');
