import { Input } from 'antd';
import type { FilterControlProps } from './types';
import { useDraft } from './useDraft';

/** A text filter that writes to the URL when the user presses Enter or leaves the box, not per key. */
export function TextFilter({ label, value, onChange }: FilterControlProps & { label: string }) {
  const { draft, setDraft, sending } = useDraft(value);
  const commit = () => onChange(sending(draft.trim() === '' ? undefined : draft.trim()));
  return (
    <Input
      aria-label={label}
      placeholder={label}
      allowClear
      value={draft}
      onChange={(e) => {
        setDraft(e.target.value);
        // The clear button empties the box: apply at once.
        if (e.type === 'click' || e.target.value === '') onChange(sending(undefined));
      }}
      onPressEnter={commit}
      onBlur={commit}
      style={{ minWidth: 160, maxWidth: 220 }}
    />
  );
}
