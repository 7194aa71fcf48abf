// The shared browser and antd set-ups run first (jest.preset.cjs); this adds the remote's own.
import '@testing-library/jest-dom';
import { initI18n } from '@mizan/i18n';

// Whole screens over HTTP take seconds each when every package's tests run at once on two cores.
jest.setTimeout(90_000);

// The app's language: Arabic, right to left.
void initI18n('ar');

// ProseMirror (the text attachment's editor) measures the selection to scroll it into view; jsdom
// lays nothing out and has no such methods on ranges.
Range.prototype.getClientRects = () => [] as unknown as DOMRectList;
Range.prototype.getBoundingClientRect = () => new DOMRect();
