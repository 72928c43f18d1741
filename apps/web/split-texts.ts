import ts from 'typescript';
import type { Plugin } from 'vite';

/**
 * Feature texts (`defineTexts({ en: {...}, cn: {...}, ... })`, lib/feature-texts.ts) are written with all ten
 * languages in one file, the way translators and locales.test.ts read them. In the build, every language but
 * English becomes its own small chunk, loaded when `registerTexts` runs in that language: a page carries the
 * texts of the language it shows (issue 18, docs/benchmarks.md). English stays inline: it defines the keys and
 * some pages read it directly. Only object literals of plain strings are split; anything else is left as written.
 */
export function splitFeatureTexts(): Plugin {
  const PREFIX = 'virtual:sunward-texts/';
  const chunks = new Map<string, string>();
  return {
    name: 'sunward-split-feature-texts',
    apply: 'build',
    enforce: 'pre',
    resolveId(id) {
      return id.startsWith(PREFIX) ? `\0${id}` : undefined;
    },
    load(id) {
      if (!id.startsWith(`\0${PREFIX}`)) return undefined;
      const text = chunks.get(id.slice(1));
      if (text === undefined) throw new Error(`feature texts ${id} not found`);
      return `export default ${text};`;
    },
    transform(code, id) {
      if (!/\/src\/.*\.ts$/.test(id) || id.endsWith('feature-texts.ts') || !code.includes('defineTexts(')) return undefined;
      const source = ts.createSourceFile(id, code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
      const edits: { start: number; end: number; text: string }[] = [];
      let calls = 0;
      const plainStrings = (node: ts.Expression): node is ts.ObjectLiteralExpression =>
        ts.isObjectLiteralExpression(node) &&
        node.properties.every(
          (p) => ts.isPropertyAssignment(p) && (ts.isStringLiteral(p.initializer) || ts.isNoSubstitutionTemplateLiteral(p.initializer)),
        );
      const visit = (node: ts.Node): void => {
        if (
          ts.isCallExpression(node) &&
          ts.isIdentifier(node.expression) &&
          node.expression.text === 'defineTexts' &&
          node.arguments[0] &&
          ts.isObjectLiteralExpression(node.arguments[0])
        ) {
          const call = calls++;
          for (const property of node.arguments[0].properties) {
            if (!ts.isPropertyAssignment(property) || !plainStrings(property.initializer)) continue;
            const language = property.name.getText(source).replace(/['"]/g, '');
            if (language === 'en') continue;
            const key = `${PREFIX}${encodeURIComponent(id)}/${call}/${language}`;
            chunks.set(key, property.initializer.getText(source));
            edits.push({
              start: property.initializer.getStart(source),
              end: property.initializer.getEnd(),
              text: `() => import(${JSON.stringify(key)})`,
            });
          }
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
      if (edits.length === 0) return undefined;
      let out = code;
      for (const edit of edits.sort((a, b) => b.start - a.start)) out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
      return { code: out, map: null };
    },
  };
}
