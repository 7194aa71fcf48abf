import { tasks } from '@mizan/contracts';

/** The board's address, beside the list it belongs to (a static segment outranks `:id`). */
export const BOARD_ROUTE = `${tasks.route}/board`;
