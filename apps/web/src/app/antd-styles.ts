import antdCssUrl from 'antd/dist/antd.css?url';

let loading: Promise<void> | undefined;

/**
 * antd's styles as one static stylesheet (its zero-runtime mode, `zeroRuntime` in `theme/tokens.ts`): every
 * component's rules, written against CSS variables, so the console's theme (brand colour, look, component
 * tokens) reaches them through the variables antd still sets at run time. Loaded with antd's provider, never on
 * the sign-in page, and placed before the console's own stylesheets as antd's run-time styles were (the
 * console's rules win over antd's at equal specificity). Resolves once the rules apply, so nothing paints
 * unstyled; a failed load resolves too (the console stays usable, unstyled).
 */
export function loadAntdStyles(): Promise<void> {
  loading ??= new Promise((resolve) => {
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = antdCssUrl;
    link.onload = () => resolve();
    link.onerror = () => resolve();
    // The console's own stylesheets: links in a build, Vite's style elements in development.
    const first = document.head.querySelector('link[rel="stylesheet"], style[data-vite-dev-id]');
    document.head.insertBefore(link, first);
  });
  return loading;
}
