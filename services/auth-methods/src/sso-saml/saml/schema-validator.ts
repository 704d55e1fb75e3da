import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as samlify from 'samlify';
import { validateXML } from 'xmllint-wasm';

/**
 * samlify's schema validator: libxml2's xmllint compiled to WebAssembly (no Java, no download,
 * works offline), run in a worker thread so a validation never blocks the event loop. The SAML
 * 2.0 protocol, assertion, xmldsig and xenc schemas come from `@authenio/samlify-xmllint-wasm`,
 * read once.
 */
const schemaDirectory = join(dirname(require.resolve('@authenio/samlify-xmllint-wasm/package.json')), 'schemas');
const read = (fileName: string) => ({ fileName, contents: readFileSync(join(schemaDirectory, fileName), 'utf8') });
const protocolSchema = read('saml-schema-protocol-2.0.xsd');
const preload = [
  'datatypes.dtd',
  'saml-schema-assertion-2.0.xsd',
  'xmldsig-core-schema.xsd',
  'XMLSchema.dtd',
  'xenc-schema.xsd',
].map(read);

export class SchemaValidationError extends Error {
  constructor(detail: string) {
    super(`SAML message does not follow the SAML 2.0 schema: ${detail}`);
    this.name = 'SchemaValidationError';
  }
}

export async function validateSamlSchema(xml: string): Promise<true> {
  const result = await validateXML({
    xml: [{ fileName: 'message.xml', contents: xml }],
    extension: 'schema',
    schema: [protocolSchema],
    preload,
  });
  if (result.valid) return true;
  throw new SchemaValidationError(
    result.errors
      .map((error) => error.message)
      .join('; ')
      .slice(0, 300),
  );
}

let installed = false;
/** Installs the validator in samlify (process-wide; idempotent). */
export function installSchemaValidator(): void {
  if (installed) return;
  samlify.setSchemaValidator({ validate: validateSamlSchema });
  installed = true;
}
