import { MENU, isMenuGroup, type MenuEntry } from '@mizan/contracts';
import { withRemoteMenu } from './remoteMenu';

const keys = (menu: readonly MenuEntry[]) =>
  menu.map((entry) =>
    isMenuGroup(entry) ? `${entry.key}[${entry.items.map((i) => i.key).join(',')}]` : entry.key,
  );

const item = (key: string, remote?: 'tasks' | 'legal') => ({
  key,
  route: `/admin/${key}`,
  permission: `${key}.view`,
  remote,
});

describe('withRemoteMenu', () => {
  const host: MenuEntry[] = [
    item('dashboard'),
    { key: 'legal', items: [item('lawsuits', 'legal'), item('tasks', 'tasks'), item('sessions', 'legal')] },
    item('chat'),
  ];

  it("takes the remote's items and places from the remote's menu, leaving the others", () => {
    const remote: MenuEntry[] = [
      item('dashboard'),
      {
        key: 'legal',
        items: [
          item('lawsuits', 'legal'),
          item('sessions', 'legal'),
          item('tasks', 'tasks'),
          item('taskBoard', 'tasks'),
        ],
      },
      { key: 'work', items: [item('myTasks', 'tasks')] },
      item('chat'),
    ];
    expect(keys(withRemoteMenu(host, 'tasks', remote))).toEqual([
      'dashboard',
      'legal[lawsuits,sessions,tasks,taskBoard]',
      'work[myTasks]',
      'chat',
    ]);
  });

  it('drops what the remote no longer has, and empty groups', () => {
    const remote: MenuEntry[] = [item('dashboard'), item('chat')];
    expect(keys(withRemoteMenu(host, 'tasks', remote))).toEqual([
      'dashboard',
      'legal[lawsuits,sessions]',
      'chat',
    ]);
    expect(keys(withRemoteMenu([{ key: 'x', items: [item('tasks', 'tasks')] }], 'tasks', remote))).toEqual(
      [],
    );
  });

  it('gives back the same menu for a remote built from the same contracts', () => {
    expect(withRemoteMenu(MENU, 'tasks', MENU)).toEqual(MENU);
    expect(withRemoteMenu(MENU, 'settings', MENU)).toEqual(MENU);
  });
});
