import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as samlify from 'samlify';
import { validateXML } from 'xmllint-wasm';

/**
 * SAML 2.0 schema validation (protocol, assertion, xmldsig and xenc schemas shipped by
 * `@authenio/samlify-xmllint-wasm`), offline and off the event loop: Debian's `xmllint`
 * (package `libxml2-utils`, `--nonet`) in a child process when it is installed, about 15 ms a
 * message; otherwise libxml2's xmllint compiled to WebAssembly in a worker thread, the same
 * checks but about 300 ms a message (a fresh worker compiles the module each time).
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

const xmllintBinary = ['/usr/bin/xmllint', '/usr/local/bin/xmllint'].find((path) => existsSync(path)) ?? null;
export const schemaValidatorKind = xmllintBinary ? 'xmllint' : 'xmllint-wasm';

export function validateSamlSchema(xml: string): Promise<true> {
  return xmllintBinary ? validateWithXmllint(xmllintBinary, xml) : validateWithWasm(xml);
}

export function validateWithXmllint(binary: string, xml: string): Promise<true> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, ['--noout', '--nonet', '--schema', join(schemaDirectory, protocolSchema.fileName), '-'], {
      stdio: ['pipe', 'ignore', 'pipe'],
    });
    let errors = '';
    child.stderr.on('data', (chunk: Buffer) => {
      if (errors.length < 2_000) errors += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve(true);
      else
        reject(
          new SchemaValidationError(
            errors
              .replace(/^-:\d+: /gm, '')
              .replace(/\s+/g, ' ')
              .trim()
              .slice(0, 300),
          ),
        );
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(xml);
  });
}

export async function validateWithWasm(xml: string): Promise<true> {
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
