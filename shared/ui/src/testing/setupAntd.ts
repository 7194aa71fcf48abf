// What antd needs of jsdom beyond the shared browser set-up (@mizan/sdk's testing/setupJsdom):
// listed by the preset for packages that render antd (`antd: true`).

// antd's Table measures the scrollbar with getComputedStyle(el, '::-webkit-scrollbar'); jsdom
// throws "Not implemented" on the pseudo-element argument.
const nativeGetComputedStyle = window.getComputedStyle.bind(window);
window.getComputedStyle = (element: Element) => nativeGetComputedStyle(element);
