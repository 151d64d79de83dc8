/** A usage or input problem: printed as one line, exit code 2. */
export class UsageError extends Error {}

export const USAGE = `usage:
  runnable-blocks run <note.md> [--alias NAME]... [--env NAME] [--config user.toml] [--json] [--no-cache]
  runnable-blocks parse <note.md> [--json]
  runnable-blocks export <note.md> --alias NAME --format curl|fetch|python|httpie|http [--env NAME]
  runnable-blocks demo`;
