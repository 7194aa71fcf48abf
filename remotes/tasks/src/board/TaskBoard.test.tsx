import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { TASK_STATES } from '@mizan/contracts';
import { captureToasts, pointSdkAt, signIn } from '@mizan/ui/testing/render';
import { renderRoute, switchLanguage } from '../test/render';
import type { SeenRequest } from '@mizan/sdk/testing/apiServer';
import { startTaskServer, TASK, type Hold, type Override } from '../test/fixtures';
import { BOARD_ROUTE } from './route';
import { TaskBoard } from './TaskBoard';

let server: Awaited<ReturnType<typeof startTaskServer>>;
let toasts: ReturnType<typeof captureToasts>;

// jsdom lays nothing out: the columns are drawn 250 px wide, right to left in Arabic and left to
// right in English (as the browser lays out the board's flex row), a card
// sits inside its column, and the copy under the pointer starts where its card is, so dnd-kit's
// keyboard moves and collisions have shapes to work with.
const WIDTH = 250;
function layOut(direction: 'rtl' | 'ltr') {
  const rect = (left: number, top: number, width: number, height: number) =>
    ({
      left,
      top,
      width,
      height,
      right: left + width,
      bottom: top + height,
      x: left,
      y: top,
      toJSON: () => ({}),
    }) as DOMRect;
  return jest.spyOn(Element.prototype, 'getBoundingClientRect').mockImplementation(function (this: Element) {
    const column = this.closest('[data-board-column]');
    if (!column) {
      const copy = this.closest('[data-task-card]') ?? this.querySelector('[data-task-card]');
      const id = copy?.getAttribute('data-task-card');
      const card = id && document.querySelector(`[data-board-column] [data-task-card="${id}"]`);
      return card ? card.getBoundingClientRect() : rect(0, 0, 0, 0);
    }
    const index = TASK_STATES.indexOf(column.getAttribute('data-board-column') as never);
    const left = (direction === 'rtl' ? TASK_STATES.length - 1 - index : index) * WIDTH;
    return this === column ? rect(left, 100, WIDTH - 10, 600) : rect(left + 10, 150, WIDTH - 30, 80);
  });
}

async function serve(override?: Override, hold?: Hold) {
  server = await startTaskServer([TASK], override, hold);
  pointSdkAt(server.url);
}

const LIST = '/api/admin/lawsuits/tasks';
const column = (name: string) => screen.getByRole('region', { name });
const tick = () => act(() => new Promise((resolve) => setTimeout(resolve, 0)));

/** Picks the task up by its handle, presses an arrow `steps` times and drops it. */
async function move(steps: number, arrow = 'ArrowLeft', handleName = `نقل المهمة: ${TASK.title}`) {
  const handle = await screen.findByRole('button', { name: handleName });
  handle.focus();
  fireEvent.keyDown(handle, { code: 'Space', key: ' ' });
  await tick();
  for (let i = 0; i < steps; i += 1) {
    fireEvent.keyDown(document, { code: arrow, key: arrow });
    await tick();
  }
  fireEvent.keyDown(document, { code: 'Space', key: ' ' });
  await tick();
}

beforeEach(async () => {
  toasts = captureToasts();
  signIn(['tasks.view', 'tasks.status']);
  await switchLanguage('ar');
});
afterEach(async () => {
  jest.restoreAllMocks();
  await server.close();
});

describe('task board', () => {
  it('moves a task to the next column from the keyboard and sends the new state with the version read', async () => {
    await serve();
    layOut('rtl');
    renderRoute(BOARD_ROUTE, BOARD_ROUTE, <TaskBoard />);
    await waitFor(() =>
      expect(within(column('جديدة')).getByRole('link', { name: TASK.title })).toBeInTheDocument(),
    );
    // Overdue says so in words, not by colour alone.
    expect(within(column('جديدة')).getByText('متأخرة')).toBeInTheDocument();

    await move(1);

    await waitFor(() =>
      expect(server.calls('PATCH', `/api/admin/lawsuits/tasks/status/${TASK.id}`)).toHaveLength(1),
    );
    const [sent] = server.calls('PATCH', `/api/admin/lawsuits/tasks/status/${TASK.id}`);
    expect(JSON.parse(sent!.body)).toEqual({ state: 'inProgress', updatedAt: TASK.updatedAt });
    await waitFor(() =>
      expect(within(column('قيد التنفيذ')).getByRole('link', { name: TASK.title })).toBeInTheDocument(),
    );
    expect(within(column('جديدة')).queryByRole('link', { name: TASK.title })).toBeNull();
    expect(server.store[0]!.state).toBe('inProgress');
    expect(toasts.error).toEqual([]);
  });

  it('drags a task by its whole card with the pointer, not only by the handle', async () => {
    await serve();
    layOut('rtl');
    renderRoute(BOARD_ROUTE, BOARD_ROUTE, <TaskBoard />);
    const card = await waitFor(() => {
      const link = within(column('جديدة')).getByRole('link', { name: TASK.title });
      return link.closest('[data-task-card]') as HTMLElement;
    });
    // Pressed on the card's due date, far from the handle, then moved into the next column (to the left in Arabic).
    const start = { clientX: 1100, clientY: 180, isPrimary: true, button: 0 };
    // jsdom has no PointerEvent: a mouse event that says which pointer it is stands in for it.
    class PointerEventStandIn extends MouseEvent {
      readonly isPrimary: boolean;
      readonly pointerId: number;
      constructor(type: string, init: PointerEventInit = {}) {
        super(type, init);
        this.isPrimary = init.isPrimary ?? true;
        this.pointerId = init.pointerId ?? 1;
      }
    }
    Object.defineProperty(window, 'PointerEvent', { value: PointerEventStandIn, configurable: true });
    // dnd-kit follows the pointer on the element pressed (as under pointer capture).
    const pressed = within(card).getByText('متأخرة');
    fireEvent.pointerDown(pressed, start);
    fireEvent.pointerMove(pressed, { ...start, clientX: 1090 });
    await tick();
    fireEvent.pointerMove(pressed, { ...start, clientX: 880 });
    await tick();
    fireEvent.pointerUp(pressed, { ...start, clientX: 880 });
    await waitFor(() =>
      expect(server.calls('PATCH', `/api/admin/lawsuits/tasks/status/${TASK.id}`)).toHaveLength(1),
    );
    const [sent] = server.calls('PATCH', `/api/admin/lawsuits/tasks/status/${TASK.id}`);
    expect(JSON.parse(sent!.body)).toMatchObject({ state: 'inProgress' });
    Reflect.deleteProperty(window, 'PointerEvent');
  });

  it('puts the task back in its column with an error toast when the server refuses the move', async () => {
    let answer: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    await serve((req) => {
      if (req.method !== 'PATCH') return undefined;
      answer();
      return { status: 403, body: { message: 'لا تملك صلاحية تغيير حالة هذه المهمة' } };
    });
    layOut('rtl');
    renderRoute(BOARD_ROUTE, BOARD_ROUTE, <TaskBoard />);
    await within(column('جديدة')).findByRole('link', { name: TASK.title });

    await move(2);
    await answered;

    await waitFor(() => expect(toasts.error).toHaveLength(1));
    expect(toasts.error[0]).toContain(TASK.title);
    expect(toasts.error[0]).toContain('لا تملك صلاحية تغيير حالة هذه المهمة');
    await waitFor(() =>
      expect(within(column('جديدة')).getByRole('link', { name: TASK.title })).toBeInTheDocument(),
    );
    expect(within(column('في الانتظار')).queryByRole('link', { name: TASK.title })).toBeNull();
    expect(
      JSON.parse(server.calls('PATCH', `/api/admin/lawsuits/tasks/status/${TASK.id}`)[0]!.body).state,
    ).toBe('waiting');
    expect(server.store[0]!.state).toBe('new');
  });

  it('keeps a moved task in sight while the lists are read again one by one', async () => {
    // After the move the lists are read again; the one the task left may answer first.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const lists = (state: string) =>
      server.seen.filter((r) => r.method === 'GET' && r.path === LIST && r.query.get('state') === state);
    const afterMove = (req: SeenRequest) =>
      req.path === LIST &&
      req.query.get('state') === 'inProgress' &&
      server.seen.some((r) => r.method === 'PATCH');
    await serve(undefined, (req) => (afterMove(req) ? held : undefined));
    layOut('rtl');
    renderRoute(BOARD_ROUTE, BOARD_ROUTE, <TaskBoard />);
    await within(column('جديدة')).findByRole('link', { name: TASK.title });

    await move(1);

    // The left column read again without the task, the new one still being read.
    await waitFor(() => expect(lists('new')).toHaveLength(2));
    await tick();
    expect(within(column('قيد التنفيذ')).getByRole('link', { name: TASK.title })).toBeInTheDocument();
    expect(within(column('جديدة')).queryByRole('link', { name: TASK.title })).toBeNull();

    release();
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(within(column('قيد التنفيذ')).getByRole('link', { name: TASK.title })).toBeInTheDocument();
  });

  it('follows the arrows as drawn in English, left to right: the right arrow reaches the next state', async () => {
    await switchLanguage('en');
    await serve();
    layOut('ltr');
    renderRoute(BOARD_ROUTE, BOARD_ROUTE, <TaskBoard />);
    await within(column('New')).findByRole('link', { name: TASK.title });

    await move(1, 'ArrowRight', `Move task: ${TASK.title}`);

    await waitFor(() => expect(server.store[0]!.state).toBe('inProgress'));
    await waitFor(() =>
      expect(within(column('In progress')).getByRole('link', { name: TASK.title })).toBeInTheDocument(),
    );
    await waitFor(() => expect(within(column('In progress')).getByText('Overdue')).toBeInTheDocument());
  });
});
