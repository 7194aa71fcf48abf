// What antd needs of jsdom beyond the shared browser set-up (@mizan/sdk's testing/setupJsdom):
// listed by the preset for packages that render antd (`antd: true`).

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
