/** Touch and wheel listeners are passive unless a caller explicitly asks otherwise. */
const PASSIVE_EVENTS = new Set(['touchstart', 'touchmove', 'wheel', 'mousewheel']);

let passivePatched = false;

/**
 * Makes scroll-blocking listeners passive by default (smooth scrolling on phones and tablets).
 * A caller that passes `{ passive: false }` keeps its choice.
 */
export function makeScrollListenersPassive(
  target: typeof EventTarget.prototype = EventTarget.prototype,
): void {
  if (passivePatched) return;
  passivePatched = true;
  const original = target.addEventListener;
  target.addEventListener = function addEventListener(
    this: EventTarget,
    type: string,
    listener: EventListenerOrEventListenerObject | null,
    options?: boolean | AddEventListenerOptions,
  ) {
    if (PASSIVE_EVENTS.has(type)) {
      const given: AddEventListenerOptions =
        typeof options === 'object' ? options : { capture: options === true };
      if (given.passive === undefined) options = { ...given, passive: true };
    }
    return original.call(this, type, listener, options);
  };
}

/**
 * Browser developer-tool hooks are neutralised at startup in production builds, so an
 * extension cannot read component state (tokens, personal data) from the page.
 */
export function neutraliseDevtoolsHooks(win: Window & typeof globalThis = window): void {
  const noop = () => undefined;
  const disabled = {
    isDisabled: true,
    supportsFiber: true,
    renderers: new Map(),
    inject: noop,
    onCommitFiberRoot: noop,
    onCommitFiberUnmount: noop,
    onPostCommitFiberRoot: noop,
    checkDCE: noop,
  };
  const holder = win as unknown as Record<string, unknown>;
  const existing = holder.__REACT_DEVTOOLS_GLOBAL_HOOK__;
  if (existing && typeof existing === 'object') {
    // The extension installed its hook first: turn every entry point into a no-op.
    for (const [key, value] of Object.entries(disabled)) {
      try {
        (existing as Record<string, unknown>)[key] = value;
      } catch {
        // Read-only property: the remaining ones still disable it.
      }
    }
    return;
  }
  try {
    Object.defineProperty(win, '__REACT_DEVTOOLS_GLOBAL_HOOK__', {
      value: disabled,
      writable: false,
      configurable: false,
    });
  } catch {
    holder.__REACT_DEVTOOLS_GLOBAL_HOOK__ = disabled;
  }
  for (const name of ['__REDUX_DEVTOOLS_EXTENSION__', '__REDUX_DEVTOOLS_EXTENSION_COMPOSE__']) {
    try {
      Object.defineProperty(win, name, { value: undefined, writable: false, configurable: false });
    } catch {
      // Already defined by an extension and locked: nothing in Mizan uses it.
    }
  }
}
