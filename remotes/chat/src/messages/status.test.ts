import { applyCursor, statusOf } from './status';

const member = (id: number, lastDeliveredId = 0, lastReadId = 0) => ({ id, lastDeliveredId, lastReadId });

describe('statusOf', () => {
  it('turns sent → delivered → read as every other member moves', () => {
    let members = [member(1, 10, 10), member(2), member(3)];
    expect(statusOf(10, members, 1)).toBe('sent');
    members = applyCursor(members, { chatId: 4, employeeId: 2, lastDeliveredId: 10, lastReadId: 0 });
    expect(statusOf(10, members, 1)).toBe('sent');
    members = applyCursor(members, { chatId: 4, employeeId: 3, lastDeliveredId: 12, lastReadId: 0 });
    expect(statusOf(10, members, 1)).toBe('delivered');
    members = applyCursor(members, { chatId: 4, employeeId: 2, lastDeliveredId: 10, lastReadId: 10 });
    expect(statusOf(10, members, 1)).toBe('delivered');
    members = applyCursor(members, { chatId: 4, employeeId: 3, lastDeliveredId: 12, lastReadId: 11 });
    expect(statusOf(10, members, 1)).toBe('read');
    expect(statusOf(12, members, 1)).toBe('sent');
  });

  it('never moves a cursor back on a late event', () => {
    const members = applyCursor([member(2, 9, 8)], {
      chatId: 4,
      employeeId: 2,
      lastDeliveredId: 5,
      lastReadId: 5,
    });
    expect(members).toEqual([member(2, 9, 8)]);
  });

  it('is sent while alone in the chat', () => {
    expect(statusOf(3, [member(1, 3, 3)], 1)).toBe('sent');
  });
});
