/**
 * The `nuage` command line: one verb per engine product, the same code the
 * jobs run. Bad input exits with code 2 and one line `error: <message>` on
 * stderr (no stack trace); other failures exit with 1.
 *
 * @example
 * nuage info cloud.laz --json
 * nuage convert cloud.laz out.las --epsg 2154
 */
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { verbs } from './cli/verbs.js';
import { EngineError } from './core/errors.js';

function help(): string {
  // Usages longer than the column get their summary on the next line.
  const width = 40;
  const lines = verbs.map((v) =>
    v.usage.length <= width
      ? `  ${v.usage.padEnd(width)}  ${v.summary}`
      : `  ${v.usage}\n  ${' '.repeat(width)}  ${v.summary}`,
  );
  return [
    'usage: nuage <verb> [arguments] [options]',
    '',
    'verbs:',
    ...lines,
    '',
    'Every verb that reads a point cloud accepts --epsg N to set or override its CRS.',
    'Run `nuage <verb> --help` for one verb.',
  ].join('\n');
}

/** Runs the CLI with the given arguments; resolves to the exit code. */
export async function runCli(
  argv: string[],
  io: { out: (line: string) => void; err: (line: string) => void } = {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
  },
): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.out(help());
    return name ? 0 : 2;
  }
  const verb = verbs.find((v) => v.name === name);
  if (!verb) {
    io.err(`error: unknown verb "${name}" (known: ${verbs.map((v) => v.name).join(', ')})`);
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    io.out(`usage: ${verb.usage}\n${verb.summary}`);
    return 0;
  }
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: rest, options: verb.options, allowPositionals: true, strict: true });
  } catch (error) {
    io.err(`error: ${(error as Error).message.split('\n')[0]} (usage: ${verb.usage})`);
    return 2;
  }
  try {
    return (await verb.run({ positionals: parsed.positionals, values: parsed.values, out: io.out })) ?? 0;
  } catch (error) {
    const message = (error as Error)?.message?.split('\n')[0] ?? String(error);
    io.err(`error: ${message}`);
    const exitCode = (error as { exitCode?: number })?.exitCode;
    if (typeof exitCode === 'number') return exitCode;
    return error instanceof EngineError ? 2 : 1;
  }
}

const entry = process.argv[1];
if (entry && realpathSync(entry) === realpathSync(fileURLToPath(import.meta.url))) {
  process.exitCode = await runCli(process.argv.slice(2));
}
