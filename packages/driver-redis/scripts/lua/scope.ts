import luaparse, {
  type Chunk,
  type Expression,
  type FunctionDeclaration,
  type Identifier,
  type Statement,
} from 'luaparse';

/** Where a name appears, 1-based, in the text that was analysed. */
export interface Place {
  readonly name: string;
  readonly line: number;
  readonly column: number;
}

/** What one chunk of Lua reads and writes, resolved by Lua 5.1's scoping (Redis runs 5.1). */
export interface Analysis {
  /** Names read or written that no enclosing `local` declares: globals, to Lua. */
  readonly free: readonly Place[];
  /** Assignments (and `function name()` declarations) to such names, also in `free`. */
  readonly globalWrites: readonly Place[];
  /** `local function f` or `local f = function` that nothing names afterwards. */
  readonly unusedFunctions: readonly Place[];
  /** Names the chunk's own top level declares `local`. */
  readonly topLevel: readonly string[];
  /** How many statements the chunk's top level holds. */
  readonly statements: number;
}

/** A syntax error, at its 1-based line and column. */
export class LuaSyntaxError extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(message);
  }
}

interface Binding {
  readonly place: Place;
  readonly isFunction: boolean;
  used: boolean;
}

class Scope {
  readonly bindings = new Map<string, Binding>();
  constructor(readonly parent: Scope | undefined) {}

  resolve(name: string): Binding | undefined {
    return this.bindings.get(name) ?? this.parent?.resolve(name);
  }
}

const placeOf = (id: Identifier): Place => ({
  name: id.name,
  line: id.loc?.start.line ?? 0,
  column: (id.loc?.start.column ?? 0) + 1,
});

/** Parses `text` as Lua 5.1; a syntax error is a LuaSyntaxError. */
export function parseLua(text: string): Chunk {
  try {
    return luaparse.parse(text, { luaVersion: '5.1', locations: true });
  } catch (error) {
    const { line, column } = error as { line?: number; column?: number };
    if (line === undefined) throw error;
    const message = (error as Error).message.replace(/^\[\d+:\d+\] /, '');
    throw new LuaSyntaxError(message, line, (column ?? 0) + 1);
  }
}

/** Resolves every name of a chunk to its declaration, or to none (a global). */
export function analyzeLua(text: string): Analysis {
  const chunk = parseLua(text);
  const free: Place[] = [];
  const globalWrites: Place[] = [];
  const all: Binding[] = [];

  const declare = (scope: Scope, id: Identifier, isFunction: boolean) => {
    const binding: Binding = { place: placeOf(id), isFunction, used: false };
    scope.bindings.set(id.name, binding);
    all.push(binding);
  };

  const read = (scope: Scope, id: Identifier) => {
    const binding = scope.resolve(id.name);
    if (binding === undefined) free.push(placeOf(id));
    else binding.used = true;
  };

  const write = (scope: Scope, id: Identifier) => {
    if (scope.resolve(id.name) !== undefined) return;
    const place = placeOf(id);
    free.push(place);
    globalWrites.push(place);
  };

  const functionBody = (scope: Scope, node: FunctionDeclaration) => {
    const inner = new Scope(scope);
    // `function t:m()` declares `self`.
    const id = node.identifier;
    if (id?.type === 'MemberExpression' && id.indexer === ':') {
      declare(inner, { type: 'Identifier', name: 'self', loc: id.loc }, false);
    }
    for (const parameter of node.parameters) {
      if (parameter.type === 'Identifier') declare(inner, parameter, false);
    }
    block(inner, node.body);
  };

  const expression = (scope: Scope, node: Expression | null): void => {
    if (node === null) return;
    switch (node.type) {
      case 'Identifier':
        read(scope, node);
        return;
      case 'FunctionDeclaration':
        functionBody(scope, node);
        return;
      case 'MemberExpression':
        expression(scope, node.base);
        return;
      case 'IndexExpression':
        expression(scope, node.base);
        expression(scope, node.index);
        return;
      case 'CallExpression':
        expression(scope, node.base);
        for (const argument of node.arguments) expression(scope, argument);
        return;
      case 'StringCallExpression':
        expression(scope, node.base);
        expression(scope, node.argument);
        return;
      case 'TableCallExpression':
        expression(scope, node.base);
        expression(scope, node.arguments);
        return;
      case 'TableConstructorExpression':
        for (const field of node.fields) {
          if (field.type === 'TableKey') expression(scope, field.key);
          expression(scope, field.value);
        }
        return;
      case 'BinaryExpression':
      case 'LogicalExpression':
        expression(scope, node.left);
        expression(scope, node.right);
        return;
      case 'UnaryExpression':
        expression(scope, node.argument);
        return;
      default:
        return;
    }
  };

  const statement = (scope: Scope, node: Statement): void => {
    switch (node.type) {
      case 'LocalStatement':
        for (const init of node.init) expression(scope, init);
        node.variables.forEach((id, index) => {
          declare(scope, id, node.init[index]?.type === 'FunctionDeclaration');
        });
        return;
      case 'FunctionDeclaration': {
        const id = node.identifier;
        if (node.isLocal && id?.type === 'Identifier') declare(scope, id, true);
        else if (id?.type === 'Identifier') write(scope, id);
        else if (id !== null) expression(scope, id.base);
        functionBody(scope, node);
        return;
      }
      case 'AssignmentStatement':
        for (const init of node.init) expression(scope, init);
        for (const target of node.variables) {
          if (target.type === 'Identifier') write(scope, target);
          else expression(scope, target);
        }
        return;
      case 'CallStatement':
        expression(scope, node.expression);
        return;
      case 'ReturnStatement':
        for (const argument of node.arguments) expression(scope, argument);
        return;
      case 'IfStatement':
        for (const clause of node.clauses) {
          if (clause.type !== 'ElseClause') expression(scope, clause.condition);
          block(new Scope(scope), clause.body);
        }
        return;
      case 'WhileStatement':
        expression(scope, node.condition);
        block(new Scope(scope), node.body);
        return;
      case 'DoStatement':
        block(new Scope(scope), node.body);
        return;
      case 'RepeatStatement': {
        // The condition sees the body's locals.
        const inner = new Scope(scope);
        block(inner, node.body);
        expression(inner, node.condition);
        return;
      }
      case 'ForNumericStatement': {
        expression(scope, node.start);
        expression(scope, node.end);
        expression(scope, node.step);
        const inner = new Scope(scope);
        declare(inner, node.variable, false);
        block(inner, node.body);
        return;
      }
      case 'ForGenericStatement': {
        for (const iterator of node.iterators) expression(scope, iterator);
        const inner = new Scope(scope);
        for (const id of node.variables) declare(inner, id, false);
        block(inner, node.body);
        return;
      }
      default:
        return;
    }
  };

  const block = (scope: Scope, body: readonly Statement[]) => {
    for (const node of body) statement(scope, node);
  };

  const top = new Scope(undefined);
  block(top, chunk.body);
  return {
    free,
    globalWrites,
    unusedFunctions: all.filter((b) => b.isFunction && !b.used).map((b) => b.place),
    topLevel: [...top.bindings.keys()],
    statements: chunk.body.length,
  };
}
