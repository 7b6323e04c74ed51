/** An error the user caused (bad flag, missing file, unreachable target): printed as one line, exit code 2. */
export class UserError extends Error {
  override name = 'UserError';
}
