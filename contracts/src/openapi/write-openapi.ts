import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { generateOpenApiDocument } from './generate-openapi';

/** Writes the OpenAPI document to `contracts/openapi.json` (or the path given as argument). */
const target = resolve(process.argv[2] ?? resolve(__dirname, '../../openapi.json'));
mkdirSync(dirname(target), { recursive: true });
writeFileSync(target, `${JSON.stringify(generateOpenApiDocument(), null, 2)}\n`);
console.log(`OpenAPI document written to ${target}`);
