import type { ParseArgsConfig } from 'node:util';
import { InvalidInput } from '../core/errors.js';

/** Parsed command line handed to a verb. */
export interface VerbArgs {
  positionals: string[];
  values: Record<string, string | boolean | Array<string | boolean> | undefined>;
  /** Where the verb writes its normal output (stdout by default). */
  out: (line: string) => void;
}

/**
 * One `nuage` verb. Adding a verb = one module exporting this shape and one
 * line in verbs.ts. `run` returns the exit code (0 when omitted) and throws
 * EngineError for bad input (the CLI prints one line and exits with 2).
 */
export interface CliVerb {
  name: string;
  summary: string;
  /** One-line usage, e.g. `nuage info FILE [--json] [--epsg N]`. */
  usage: string;
  options: NonNullable<ParseArgsConfig['options']>;
  run(args: VerbArgs): Promise<number | undefined>;
}

/** The `--epsg N` option every verb that reads a point cloud accepts. */
export const EPSG_OPTION = { epsg: { type: 'string' } } as const;

/** Parses `--epsg N` (also `EPSG:N`); undefined when absent. */
export function parseEpsgOption(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const text = String(value).replace(/^epsg:/i, '');
  const code = Number(text);
  if (!/^\d+$/.test(text) || !Number.isInteger(code) || code <= 0)
    throw new InvalidInput('--epsg', `"${value}" is not an EPSG code`);
  return code;
}

/** Checks the number of positional arguments. */
export function expectPositionals(verb: CliVerb, positionals: string[], count: number): void {
  if (positionals.length !== count) {
    throw new InvalidInput(
      'arguments',
      `expected ${count} argument${count > 1 ? 's' : ''}, got ${positionals.length} (usage: ${verb.usage})`,
    );
  }
}
