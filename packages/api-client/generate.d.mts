/** The text of src/schema.gen.ts for the document in openapi.json. */
export declare function schemaTypes(): Promise<string>;
