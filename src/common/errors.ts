// The one error class every stage throws for problems a user can fix (bad input, missing model, offline).

/** An error whose message is written for the person at the command line; the CLI prints it without a stack. */
export class UserError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
    this.name = "UserError";
  }
}
