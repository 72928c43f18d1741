import { type ComponentType, lazy } from 'react';

/** React.lazy for a named export, so feature modules keep named exports only. */
export function lazyNamed<P extends object, K extends string>(loader: () => Promise<Record<K, ComponentType<P>>>, name: K) {
  return lazy(async () => ({ default: (await loader())[name] }));
}
