import { useCallback, useState } from 'react';

const storageKey = (entityName: string) => `mizan.columns.${entityName}`;

function read(entityName: string): string[] | null {
  try {
    const raw = localStorage.getItem(storageKey(entityName));
    const parsed: unknown = raw ? JSON.parse(raw) : null;
    return Array.isArray(parsed) && parsed.every((k) => typeof k === 'string') ? parsed : null;
  } catch {
    return null; // private mode or a corrupt value: fall back to the defaults
  }
}

/**
 * Which columns a user shows, remembered per entity in this browser. Only the choice is kept (a
 * column list, not secrets), so plain localStorage is enough.
 */
export function useColumnChoice(entityName: string, defaults: string[]) {
  const [chosen, setChosen] = useState<string[] | null>(() => read(entityName));
  const visible = chosen ?? defaults;
  const setVisible = useCallback(
    (keys: string[] | null) => {
      setChosen(keys);
      try {
        if (keys) localStorage.setItem(storageKey(entityName), JSON.stringify(keys));
        else localStorage.removeItem(storageKey(entityName));
      } catch {
        // Storage full or blocked: the choice still applies for this visit.
      }
    },
    [entityName],
  );
  return { visible, setVisible, isDefault: chosen === null };
}
