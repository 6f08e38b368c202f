/** Where a problem is: a file and a 1-based line (0: the file as a whole). */
export interface Where {
  readonly file: string;
  readonly line: number;
}

const located = (where: Where, message: string): string =>
  `${where.file}${where.line > 0 ? `:${where.line}` : ''}: ${message}`;

/** A problem that stops reading a source, named by file and line. */
export class LuaSourceError extends Error {
  constructor(where: Where, message: string) {
    super(located(where, message));
  }
}

/** Every problem the generator found; it writes nothing while there is one. */
export class LuaBuildError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`the Lua sources have ${problems.length} problem(s):\n${problems.join('\n')}`);
  }
}

/** Collects problems, so one run names them all. */
export class Problems {
  readonly #found: string[] = [];

  fail(where: Where, message: string): void {
    this.#found.push(located(where, message));
  }

  /** `make()`, or undefined with its LuaSourceError noted. */
  guard<T>(make: () => T): T | undefined {
    try {
      return make();
    } catch (error) {
      if (!(error instanceof LuaSourceError)) throw error;
      this.#found.push(error.message);
      return undefined;
    }
  }

  throwIfAny(): void {
    if (this.#found.length > 0) throw new LuaBuildError(this.#found);
  }
}
