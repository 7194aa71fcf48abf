import { z } from 'zod';
import { answer, isIdParam, pathOf, route, type PathParams, type RouteInput } from './route';
import { issueMessage, orderedRange } from './schema';

describe('route contracts', () => {
  const contract = route({
    method: 'PATCH',
    path: '/admin/chats/:chatId/messages/:id',
    permission: null,
    summary: 'Edit a message',
    body: z.object({ text: z.string() }),
    answer: answer<{ id: number }>(),
  });

  it('keep their literal method and path', () => {
    const method: 'PATCH' = contract.method;
    const path: '/admin/chats/:chatId/messages/:id' = contract.path;
    expect([method, path]).toEqual(['PATCH', '/admin/chats/:chatId/messages/:id']);
  });

  it('type the path parameters, the body and the answer for both sides', () => {
    const params: PathParams<typeof contract.path> = { chatId: 4, id: 9 };
    const input: RouteInput<typeof contract> = { params: { chatId: 4, id: '9' }, body: { text: 'x' } };
    expect([params, input]).toBeTruthy();
  });

  it('end a parameter name where a `.` or `-` follows it', () => {
    const feed: PathParams<'/calendar/:token.ics'> = { token: 'abc' };
    const near: PathParams<'/near/:lat-:lng.json'> = { lat: '1', lng: '2' };
    expect(pathOf('/calendar/:token.ics', feed)).toBe('/calendar/abc.ics');
    expect(pathOf('/near/:lat-:lng.json', near)).toBe('/near/1-2.json');
  });

  it('fill a path with encoded parameters, and refuse a missing one', () => {
    expect(pathOf(contract.path, { chatId: 4, id: 9 })).toBe('/admin/chats/4/messages/9');
    expect(pathOf('/options/:entity/:field', { entity: 'a b', field: 'x/y' })).toBe('/options/a%20b/x%2Fy');
    expect(() => pathOf(contract.path, { chatId: 4 })).toThrow(':id');
    expect(pathOf('/auth/login')).toBe('/auth/login');
  });

  it('read ids from `id` and names ending in `Id`', () => {
    expect(['id', 'chatId', 'entity', 'idea'].map(isIdParam)).toEqual([true, true, false, false]);
  });
});

describe('orderedRange', () => {
  const range = orderedRange(z.object({ from: z.string(), to: z.string() }).partial());

  it('accepts an open or ordered range', () => {
    for (const value of [
      {},
      { from: '2026-01-01' },
      { to: '2026-01-01' },
      { from: '2026-01-01', to: '2026-01-01' },
    ])
      expect(range.safeParse(value).success).toBe(true);
  });

  it('refuses a start after its end on `from`, naming the end', () => {
    const result = range.safeParse({ from: '2026-02-01', to: '2026-01-31' });
    expect(result.success).toBe(false);
    const [issue] = result.error!.issues;
    expect(issue!.path).toEqual(['from']);
    expect(issueMessage(issue!)).toEqual({ key: 'validation.date.afterEnd', params: { to: '2026-01-31' } });
  });
});
