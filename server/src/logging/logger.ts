import path from 'node:path';
import pino, { type Logger } from 'pino';
import { DailyFileDestination } from './dailyFile';

/**
 * The server log. Every line is one JSON object (pino), written to stdout and to daily files
 * under `DATA_DIR/logs` (UTC dates):
 *
 * - `YYYY-MM-DD-combined.log`: every line at LOG_LEVEL and above;
 * - `YYYY-MM-DD-error.log`: lines at level error (50) and fatal (60) only.
 *
 * Line fields: `level` (number: 10 trace, 20 debug, 30 info, 40 warn, 50 error, 60 fatal),
 * `time` (ISO 8601), `pid`, `hostname`, `msg`, and on request lines `reqId`, `method`, `url`,
 * `route` (the route pattern, e.g. `/api/admin/settings/courts/courts/:id`, null when no route
 * matched), `statusCode`, `responseTime` (ms); `err` (`{ type, message, stack, code? }`) when a
 * request failed with a 5xx or an error was logged.
 *
 * @example
 * {"level":30,"time":"2026-11-22T10:00:00.000Z","pid":1,"hostname":"h","reqId":"req-1","method":"GET",
 *  "url":"/api/health","route":"/api/health","statusCode":200,"responseTime":1.2,"msg":"request completed"}
 */
export interface LogFiles {
  logger: Logger;
  dir: string;
  close(): void;
}

export function createLogger(options: { dataDir: string; level: string; stdout: boolean }): LogFiles {
  const dir = path.join(options.dataDir, 'logs');
  const combined = new DailyFileDestination(dir, 'combined');
  const errors = new DailyFileDestination(dir, 'error');
  const streams: pino.StreamEntry[] = [
    { level: options.level as pino.Level, stream: combined },
    { level: 'error', stream: errors },
  ];
  if (options.stdout) streams.push({ level: options.level as pino.Level, stream: process.stdout });
  const logger = pino(
    {
      level: options.level,
      timestamp: pino.stdTimeFunctions.isoTime,
      serializers: { err: pino.stdSerializers.err },
    },
    pino.multistream(streams),
  );
  return {
    logger,
    dir,
    close() {
      combined.close();
      errors.close();
    },
  };
}
