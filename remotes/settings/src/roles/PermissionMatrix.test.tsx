import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { PermissionMatrix } from './PermissionMatrix';
import type { PermissionRow } from './permissionMatrix';

const catalog: PermissionRow[] = [
  { id: 11, key: 'courts.view', group: 'courts' },
  { id: 12, key: 'courts.create', group: 'courts' },
  { id: 13, key: 'courts.delete', group: 'courts' },
  { id: 21, key: 'judges.view', group: 'judges' },
  { id: 22, key: 'judges.create', group: 'judges' },
  { id: 31, key: 'chat.use', group: 'chat' },
];

/** The matrix as the role form holds it: a controlled value, every change recorded. */
function Harness({ initial, changes }: { initial: number[]; changes: number[][] }) {
  const [value, setValue] = useState(initial);
  return (
    <PermissionMatrix
      permissions={catalog}
      value={value}
      onChange={(ids) => {
        changes.push(ids);
        setValue(ids);
      }}
    />
  );
}

const box = (name: string) => screen.getByRole('checkbox', { name });

describe('PermissionMatrix', () => {
  it('labels rows with entity titles and area names, columns with actions', () => {
    render(<Harness initial={[]} changes={[]} />);
    expect(box('Courts: View')).not.toBeChecked();
    expect(box('Judges: Create')).toBeInTheDocument();
    expect(box('Internal chat: Use')).toBeInTheDocument();
    // Judges have no delete permission: no cell.
    expect(screen.queryByRole('checkbox', { name: 'Judges: Delete' })).toBeNull();
  });

  it('toggling a cell yields its id (with the row view), again removes it', () => {
    const changes: number[][] = [];
    render(<Harness initial={[31]} changes={changes} />);
    fireEvent.click(box('Courts: Create'));
    expect(changes.at(-1)).toEqual([11, 12, 31]);
    expect(box('Courts: View')).toBeChecked();
    fireEvent.click(box('Courts: Create'));
    expect(changes.at(-1)).toEqual([11, 31]);
  });

  it('toggling a row selects all of it, then clears it', () => {
    const changes: number[][] = [];
    render(<Harness initial={[22]} changes={changes} />);
    fireEvent.click(box('Select every permission of Courts'));
    expect(changes.at(-1)).toEqual([11, 12, 13, 22]);
    fireEvent.click(box('Select every permission of Courts'));
    expect(changes.at(-1)).toEqual([22]);
  });

  it('toggling a column selects it on every row (with views), then clears it', () => {
    const changes: number[][] = [];
    render(<Harness initial={[]} changes={changes} />);
    fireEvent.click(box('Select "Create" on every screen'));
    expect(changes.at(-1)).toEqual([11, 12, 21, 22]);
    fireEvent.click(box('Select "Create" on every screen'));
    expect(changes.at(-1)).toEqual([11, 21]);
  });

  it('select all, then clear all', () => {
    const changes: number[][] = [];
    render(<Harness initial={[]} changes={changes} />);
    fireEvent.click(box('Select every permission'));
    expect(changes.at(-1)).toEqual([11, 12, 13, 21, 22, 31]);
    expect(screen.getByText('6 of 6 permissions selected')).toBeInTheDocument();
    fireEvent.click(box('Select every permission'));
    expect(changes.at(-1)).toEqual([]);
  });

  it('shows a partly selected row as indeterminate', () => {
    const { container } = render(<Harness initial={[11]} changes={[]} />);
    expect(box('Select every permission of Courts')).not.toBeChecked();
    expect(container.querySelectorAll('.ant-checkbox-indeterminate').length).toBeGreaterThan(0);
  });
});

describe('PermissionMatrix on a phone', () => {
  function Stacked({ changes }: { changes: number[][] }) {
    const [value, setValue] = useState<number[]>([]);
    return (
      <PermissionMatrix
        stacked
        permissions={catalog}
        value={value}
        onChange={(ids) => {
          changes.push(ids);
          setValue(ids);
        }}
      />
    );
  }

  it('stacks one block per group with its actions under it, no grid to scroll sideways', () => {
    const changes: number[][] = [];
    render(<Stacked changes={changes} />);
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.getByTestId('permission-matrix-stacked')).toBeInTheDocument();
    // Judges have no delete permission: no checkbox for it.
    expect(screen.queryByRole('checkbox', { name: 'Judges: Delete' })).toBeNull();
    fireEvent.click(box('Courts: Create'));
    expect(changes.at(-1)).toEqual([11, 12]);
    fireEvent.click(box('Select every permission of Judges'));
    expect(changes.at(-1)).toEqual([11, 12, 21, 22]);
  });

  it('selects everything from its one "select all"', () => {
    const changes: number[][] = [];
    render(<Stacked changes={changes} />);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select every permission' }));
    expect(changes.at(-1)).toEqual([11, 12, 13, 21, 22, 31]);
  });
});
