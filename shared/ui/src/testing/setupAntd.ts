// What antd needs of jsdom beyond the shared browser set-up (@mizan/sdk's testing/setupJsdom):
// listed by the preset for packages that render antd (`antd: true`).
import { dirname } from 'node:path';

// antd's Table measures the scrollbar with getComputedStyle(el, '::-webkit-scrollbar'); jsdom
// throws "Not implemented" on the pseudo-element argument.
const nativeGetComputedStyle = window.getComputedStyle.bind(window);
window.getComputedStyle = (element: Element) => nativeGetComputedStyle(element);

// antd writes its CSS-in-JS into <style> elements: thousands of rules, which jsdom's
// getComputedStyle matches one by one against the element and each ancestor. Testing Library's
// role queries, antd's popup placement and the text area's autosize ask for computed styles all
// the time, so a form test spent nine tenths of its time matching antd selectors (a lawsuit test
// file: 100 s, 14 s without). jsdom lays nothing out, so those rules decide nothing a test reads
// except `display: none`, which antd also sets inline where it hides content (closed popups,
// drawers, modals). jsdom parses a <style> only when its type is CSS, so the style elements of
// antd's injector (marked `data-rc-order` before they are filled and inserted) get another type:
// they stay in the document, unparsed. Other style elements (FullCalendar's, which reads its
// sheet back) are parsed as before.
const UNPARSED = 'text/x-unparsed-in-tests';
const nativeCreateElement = document.createElement.bind(document);
document.createElement = ((tagName: string, options?: ElementCreationOptions) => {
  const element = nativeCreateElement(tagName, options);
  if (tagName.toLowerCase() === 'style') {
    const setAttribute = element.setAttribute.bind(element);
    element.setAttribute = (name: string, value: string) => {
      setAttribute(name, value);
      if (name === 'data-rc-order') setAttribute('type', UNPARSED);
    };
  }
  return element;
}) as typeof document.createElement;

// Each antd component also generates its CSS from the theme (style objects serialized and
// hashed, once per component and theme) and writes it into a <style> in the head, scanning every
// style element already there; after each test's unmount antd drops the entry and the next test
// generates it again. No test can read those rules (see above), so antd's CSS-in-JS is told that
// every component style comes from a prebuilt CSS file, as on a site whose CSS is extracted at
// build time: no component style is generated or written, while class names stay the same (their
// hashes come from the theme, not from the CSS) and the theme's CSS variables are written as
// before. `reset` is the style cache map's test hook, in antd's own copy of @ant-design/cssinjs
// (not a dependency of ours, hence the lookup from antd's directory).
const cssinjsCacheMap = require(
  require.resolve('@ant-design/cssinjs/lib/util/cacheMapUtil', {
    paths: [dirname(require.resolve('antd/package.json'))],
  }),
) as { reset(cachePathMap: Record<string, string>, fromCSSFile: boolean): void };
const everyPathFromCSSFile = new Proxy({} as Record<string, string>, { get: () => 'prebuilt' });
cssinjsCacheMap.reset(everyPathFromCSSFile, true);
