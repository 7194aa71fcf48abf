import { useState } from 'react';

/**
 * The text of a box whose applied value lives elsewhere (a list's search or text filter, in the
 * URL). The draft follows `value` when that changes from elsewhere (a cleared filter, the back
 * button), but not when a value this box sent arrives: navigations are React transitions (React
 * Router 7), so the sent value can commit after the person has typed on, and replacing the draft
 * then loses what they typed (and Enter applies the old text again).
 *
 * @example
 * const { draft, setDraft, sending } = useDraft(value);
 * const apply = () => onChange(sending(draft.trim() || undefined));
 */
export function useDraft(value: string | undefined) {
  const [draft, setDraft] = useState(value ?? '');
  const [shown, setShown] = useState(value);
  // The value this box sent last, until `value` carries it (null: none on its way).
  const [sent, setSent] = useState<string | undefined | null>(null);
  if (shown !== value) {
    setShown(value);
    // While a value of this box is on its way, `value` is either that one or an older one it
    // overtook: neither is newer than the draft.
    if (sent === null) setDraft(value ?? '');
    else if (sent === value) setSent(null);
  }
  /** Notes `next` (as the URL will hold it) as sent by this box, and answers it. */
  const sending = <T extends string | undefined>(next: T): T => {
    if (next !== value) setSent(next);
    return next;
  };
  return { draft, setDraft, sending };
}
