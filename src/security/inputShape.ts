/**
 * Shapes no request may carry, whatever its endpoint: checked once at the edge, before any schema,
 * handler or database sees the input. Pure: the HTTP layers turn a problem into their 400.
 *
 * - Nesting deeper than MAX_INPUT_DEPTH: recursive code further on (validation, JSON columns,
 *   serialisers) would otherwise overflow the stack on a few kilobytes of `[[[[...`.
 * - Object keys naming a property every object has (`__proto__`, `constructor`, `prototype`):
 *   merged into an object with assignment, they reach Object.prototype.
 * - NUL characters: PostgreSQL text and JSON cannot hold them.
 * The walk is iterative, so the check itself cannot overflow whatever the depth.
 */
export const MAX_INPUT_DEPTH = 32;

const RESERVED_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

export function isReservedKey(key: string): boolean {
  return RESERVED_KEYS.has(key);
}

/** The first problem found as `field: reason` (field named from `where`), or undefined. */
export function inputShapeProblem(input: unknown, where: string): string | undefined {
  const stack: Array<{ value: unknown; path: string[]; depth: number }> = [{ value: input, path: [], depth: 0 }];
  // Fields are named as the validation messages name them: `metadata.a`, or `where` for the whole.
  const name = (path: string[]): string => path.join('.') || where;
  while (stack.length > 0) {
    const { value, path, depth } = stack.pop()!;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return `${name(path)}: must not contain NUL characters`;
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth >= MAX_INPUT_DEPTH) return `${name(path.slice(0, 1))}: must not be nested more than ${MAX_INPUT_DEPTH} levels deep`;
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) {
        const child: unknown = value[i];
        if (typeof child === 'string' || (child !== null && typeof child === 'object'))
          stack.push({ value: child, path: [...path, String(i)], depth: depth + 1 });
      }
      continue;
    }
    for (const key of Object.keys(value)) {
      if (key.includes('\u0000')) return `${name(path)}: keys must not contain NUL characters`;
      if (RESERVED_KEYS.has(key)) return `${name([...path, key])}: '${key}' is a reserved name and not accepted as a key`;
      const child = (value as Record<string, unknown>)[key];
      if (typeof child === 'string' || (child !== null && typeof child === 'object')) stack.push({ value: child, path: [...path, key], depth: depth + 1 });
    }
  }
  return undefined;
}
