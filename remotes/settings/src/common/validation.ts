import type { Rule } from 'antd/es/form';
import type { TFunction } from 'i18next';
import { validationMessage } from '@mizan/i18n';

/**
 * antd rules whose messages are the shared `validation` namespace's texts (the same keys the
 * contracts' `issueMessage` produces), so hand-written forms read like the generic ones.
 */
export function rulesFor(t: TFunction, label: string) {
  const msg = (key: string, params: { min?: number; max?: number } = {}) =>
    validationMessage(t, key, { label, ...params });
  return {
    required: (): Rule => ({ required: true, whitespace: true, message: msg('required') }),
    max: (max: number): Rule => ({ type: 'string', max, message: msg('string.max', { max }) }),
    email: (): Rule => ({ type: 'email', message: msg('types.email') }),
    pattern: (pattern: RegExp): Rule => ({ pattern, message: msg('pattern.mismatch') }),
    integer: (min: number, max: number): Rule[] => [
      { required: true, message: msg('required') },
      { type: 'integer', message: msg('types.integer') },
      { type: 'number', min, message: msg('number.min', { min }) },
      { type: 'number', max, message: msg('number.max', { max }) },
    ],
    hex: (): Rule => ({ pattern: /^#[0-9a-fA-F]{6}$/, message: msg('types.hex') }),
  };
}
