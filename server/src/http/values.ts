/**
 * Whether a field's value was given: not null, undefined or the empty string (what a cleared form
 * field sends). `0` and `false` are values. Narrows a typed value; an `unknown` one stays `unknown`.
 */
export function present<T>(value: T): value is Exclude<T, null | undefined | ''> {
  return value !== null && value !== undefined && value !== '';
}
