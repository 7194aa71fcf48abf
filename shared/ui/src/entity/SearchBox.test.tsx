import { fireEvent, render, screen } from '@testing-library/react';
import { SearchBox } from './SearchBox';

/** The box as a list renders it, `value` being the URL's `q` as committed so far. */
function setup(value: string | undefined) {
  const searches: string[] = [];
  const view = render(<SearchBox value={value} label="search" onSearch={(q) => searches.push(q)} />);
  const box = () => screen.getByRole<HTMLInputElement>('searchbox', { name: 'search' });
  const type = (text: string) => fireEvent.change(box(), { target: { value: text } });
  // rc-input acts on Enter's keydown once until its keyup.
  const enter = () => {
    fireEvent.keyDown(box(), { key: 'Enter', code: 'Enter', keyCode: 13 });
    fireEvent.keyUp(box(), { key: 'Enter', code: 'Enter', keyCode: 13 });
  };
  const commit = (next: string | undefined) =>
    view.rerender(<SearchBox value={next} label="search" onSearch={(q) => searches.push(q)} />);
  return { box, type, enter, commit, searches };
}

describe('SearchBox', () => {
  it('keeps what was typed after a search when that search reaches the URL late', () => {
    const { box, type, enter, commit, searches } = setup(undefined);
    type('احمد');
    enter();
    expect(searches).toEqual(['احمد']);
    // The navigation is a transition: the next search is typed before it commits.
    type('١٢٣');
    commit('احمد');
    expect(box().value).toBe('١٢٣');
    enter();
    expect(searches).toEqual(['احمد', '١٢٣']);
  });

  it('keeps the newer search when an older one it overtook commits first', () => {
    const { box, type, enter, commit } = setup(undefined);
    type('first');
    enter();
    type('second');
    enter();
    commit('first');
    expect(box().value).toBe('second');
    commit('second');
    expect(box().value).toBe('second');
  });

  it('follows a change made elsewhere: cleared filters, the back button', () => {
    const { box, type, enter, commit } = setup('old');
    expect(box().value).toBe('old');
    type('new');
    enter();
    commit('new');
    commit(undefined);
    expect(box().value).toBe('');
    commit('old');
    expect(box().value).toBe('old');
  });

  it('searching again for the search shown waits for nothing', () => {
    const { box, enter, commit, searches } = setup('same');
    enter();
    expect(searches).toEqual(['same']);
    commit(undefined);
    expect(box().value).toBe('');
  });
});
