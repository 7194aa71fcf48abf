// The shared browser and antd set-ups run first (jest.preset.cjs); this adds the remote's own.
import '@testing-library/jest-dom';
import { configure } from '@testing-library/react';
import { initI18n } from '@mizan/i18n';

// A screen waits for the device fingerprint, then the task, then its tab's reads: seconds each on a
// loaded two-core machine.
configure({ asyncUtilTimeout: 30_000 });
jest.setTimeout(90_000);

// The app's language: Arabic, right to left.
void initI18n('ar');

// ProseMirror (the text attachment's editor) measures the selection to scroll it into view; jsdom
// lays nothing out and has no such methods on ranges.
Range.prototype.getClientRects = () => [] as unknown as DOMRectList;
Range.prototype.getBoundingClientRect = () => new DOMRect();
