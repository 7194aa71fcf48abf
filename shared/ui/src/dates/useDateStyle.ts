import { sdkStore, systemSettingsAtom } from '@mizan/sdk';
import { useAtomValue } from 'jotai';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { calendarOf, type DateStyle } from './format';

/** The interface language and the office's first calendar, re-rendering when either changes. */
export function useDateStyle(): DateStyle {
  const { i18n } = useTranslation();
  const settings = useAtomValue(systemSettingsAtom, { store: sdkStore });
  const lng = i18n.resolvedLanguage ?? i18n.language ?? 'ar';
  const calendar = calendarOf(settings);
  return useMemo(() => ({ lng, calendar }), [lng, calendar]);
}
