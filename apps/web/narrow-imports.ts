import type { Plugin } from 'vite';

/**
 * Narrows imports in antd's own modules that pull in a whole package for one export (issue 18: first-load weight).
 *
 * `antd/es/form/context.js` takes `FormProvider` from `@rc-component/form`'s index, whose top-level
 * `Form.Field = Field`-style assignments keep the entire form library (fields, `useForm`, async-validator: ~12 KB
 * gzip) in any chunk that imports it. Every antd popup (modal, dropdown, popover, tooltip) reaches that module
 * through `_util/ContextIsolator`, so the signed-in shell carried the form library without showing a form.
 * `FormProvider` lives in `@rc-component/form/es/FormContext.js`; importing it from there is the same component.
 *
 * `antd/es/radio/group.js` imports `toNamePathStr` (a one-line join) from `form/hooks/useForm.js`, which imports
 * the same form library's index: every radio group carried it. The function is defined in place from
 * `form/util.js`'s `toArray`, as antd defines it.
 *
 * zod's classic schemas (`zod/v4/classic/schemas.js`) import its JSON Schema converters (`json-schema-processors.js`,
 * `to-json-schema.js`: ~5.6 KB gzip) so that every schema has `.toJSONSchema()`. The console only checks answers
 * with the contracts' schemas and never converts one (the server does, for its OpenAPI document, with zod as
 * published): in the web build the converters are replaced by a function that throws, and `aggregateChecks` (read by
 * a string schema's `minLength`/`maxLength`/`format`) is kept.
 *
 * The build fails if antd's or zod's source changes shape, so an antd upgrade cannot silently undo the narrowing.
 */
const JSON_SCHEMA_UNAVAILABLE =
  'const jsonSchemaUnavailable = () => { throw new Error("zod\'s JSON Schema conversion is left out of the console\'s build (apps/web/narrow-imports.ts)"); };';

const NARROWED: { file: RegExp; from: string; to: string }[] = [
  {
    file: /[\\/]antd[\\/]es[\\/]form[\\/]context\.js$/,
    from: "import { FormProvider as RcFormProvider } from '@rc-component/form';",
    to: "import { FormProvider as RcFormProvider } from '@rc-component/form/es/FormContext';",
  },
  {
    file: /[\\/]antd[\\/]es[\\/]radio[\\/]group\.js$/,
    from: "import { toNamePathStr } from '../form/hooks/useForm';",
    to: "import { toArray } from '../form/util';\nconst toNamePathStr = (name) => toArray(name).join('_');",
  },
  {
    file: /[\\/]zod[\\/]v4[\\/]classic[\\/]schemas\.js$/,
    from: 'import * as processors from "../core/json-schema-processors.js";',
    to: `import { aggregateChecks } from "../core/json-schema-processors.js";\n${JSON_SCHEMA_UNAVAILABLE}\nconst processors = new Proxy({ aggregateChecks }, { get: (target, key) => target[key] ?? jsonSchemaUnavailable });`,
  },
  {
    file: /[\\/]zod[\\/]v4[\\/]classic[\\/]schemas\.js$/,
    from: 'import { createStandardJSONSchemaMethod, createToJSONSchemaMethod } from "../core/to-json-schema.js";',
    to: 'const createStandardJSONSchemaMethod = () => jsonSchemaUnavailable;\nconst createToJSONSchemaMethod = () => jsonSchemaUnavailable;',
  },
];

export function narrowImports(): Plugin {
  return {
    name: 'sunward-narrow-imports',
    apply: 'build',
    transform(code, id) {
      const rules = NARROWED.filter((r) => r.file.test(id));
      if (rules.length === 0) return null;
      let narrowed = code;
      for (const rule of rules) {
        if (!narrowed.includes(rule.from))
          this.error(`narrow-imports: ${id} no longer contains "${rule.from}" (the package changed: update apps/web/narrow-imports.ts)`);
        narrowed = narrowed.replace(rule.from, rule.to);
      }
      return { code: narrowed, map: null };
    },
  };
}
