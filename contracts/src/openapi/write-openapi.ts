import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { openApi30FileName, openApiFileTexts } from './openapi-files';

/**
 * Writes the OpenAPI 3.1 document to `contracts/openapi.json` (or the path given as argument) and
 * its OpenAPI 3.0 rendition next to it, as `openapi-3.0.json`.
 */
const target = resolve(process.argv[2] ?? resolve(__dirname, '../../openapi.json'));
const target30 = join(dirname(target), openApi30FileName);
const { openApi31, openApi30 } = openApiFileTexts();
mkdirSync(dirname(target), { recursive: true });
writeFileSync(target, openApi31);
writeFileSync(target30, openApi30);
console.log(`OpenAPI documents written to ${target} (3.1) and ${target30} (3.0)`);
