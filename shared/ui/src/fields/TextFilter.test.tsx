import { fireEvent, render, screen } from '@testing-library/react';
import { TextFilter } from './TextFilter';

describe('TextFilter', () => {
  it('keeps what was typed when the value it applied reaches the URL late, follows other changes', () => {
    const applied: (string | undefined)[] = [];
    const view = render(<TextFilter label="file" value={undefined} onChange={(v) => applied.push(v)} />);
    const box = () => screen.getByRole<HTMLInputElement>('textbox', { name: 'file' });
    const rerender = (value: string | undefined) =>
      view.rerender(<TextFilter label="file" value={value} onChange={(v) => applied.push(v)} />);
    fireEvent.change(box(), { target: { value: ' 2024/15 ' } });
    fireEvent.keyDown(box(), { key: 'Enter', code: 'Enter', keyCode: 13 });
    expect(applied).toEqual(['2024/15']);
    fireEvent.change(box(), { target: { value: '2024/16' } });
    rerender('2024/15');
    expect(box().value).toBe('2024/16');
    // Cleared elsewhere ("clear filters"): the box follows.
    rerender(undefined);
    expect(box().value).toBe('');
  });
});
