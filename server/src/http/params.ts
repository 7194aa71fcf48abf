import { AppError } from './errors';

/** A path id: a positive integer, else the row cannot exist (404). */
export function pathId(value: unknown): number {
  const id = Number(value);
  if (!Number.isSafeInteger(id) || id <= 0 || String(id) !== String(value)) throw new AppError('notFound');
  return id;
}
