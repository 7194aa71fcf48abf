import { customers, lawsuits, registry, sessions, type Entity, type Fields } from '@mizan/contracts';
import { recordReferences } from '@mizan/ui';
import { routes } from './routes';

describe('tasks routes', () => {
  it('are the board, the list and the record page; comments have no screen of their own', () => {
    expect(routes.map((r) => [r.path, r.permission])).toEqual([
      ['/admin/lawsuits/tasks/board', 'tasks.view'],
      ['/admin/lawsuits/tasks', 'tasks.view'],
      ['/admin/lawsuits/tasks/:id', 'tasks.view'],
    ]);
  });

  it.each([
    ['lawsuits', lawsuits, 'tasks.lawsuitId'],
    ['sessions', sessions, 'tasks.sessionId'],
    ['customers', customers, 'tasks.customerId'],
  ])('the %s record page derives a tasks tab for whoever may view tasks', (_name, entity, key) => {
    const all = registry as readonly Entity<Fields>[];
    const keys = (can: (p: string) => boolean) =>
      recordReferences(entity as Entity<Fields>, all, can).map((r) => `${r.entity.name}.${r.field}`);
    expect(keys(() => true)).toContain(key);
    expect(keys((p) => p !== 'tasks.view')).not.toContain(key);
  });
});
