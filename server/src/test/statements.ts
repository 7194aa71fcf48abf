import { DefaultQueryExecutor, type CompiledQuery, type QueryResult } from 'kysely';

/**
 * The SQL of every statement Kysely runs while `run` runs (its executor, seen from outside), in
 * order: what a write sends, for tests that count round trips.
 */
export async function statementsOf(run: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  const original = DefaultQueryExecutor.prototype.executeQuery;
  DefaultQueryExecutor.prototype.executeQuery = function (
    this: DefaultQueryExecutor,
    compiled: CompiledQuery,
  ): Promise<QueryResult<unknown>> {
    seen.push(compiled.sql);
    return original.call(this, compiled);
  } as typeof original;
  try {
    await run();
  } finally {
    DefaultQueryExecutor.prototype.executeQuery = original;
  }
  return seen;
}
