import pino, { type Logger } from 'pino';

/** Creates the process logger: JSON lines by default, one field `role` naming the process. */
export function createLogger(options: { level: string; role: string }): Logger {
  return pino({
    level: options.level,
    base: { role: options.role, pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
  });
}

export type { Logger };
