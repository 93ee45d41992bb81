// A Python exception as a value, so that errors the model reads are worded as CPython words them.

/** An exception of Python type `type` (e.g. "KeyError"); `message` is what str(exception) prints. */
export class PyError extends Error {
  constructor(
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}
