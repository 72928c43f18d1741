import { type ComponentType, lazy } from 'react';
import { textsReady } from '../lib/feature-texts';

/** React.lazy for a named export, so feature modules keep named exports only; it shows once the page's texts are in. */
export function lazyNamed<P extends object, K extends string>(loader: () => Promise<Record<K, ComponentType<P>>>, name: K) {
  return lazy(async () => {
    const module = await loader();
    await textsReady();
    return { default: module[name] };
  });
}
