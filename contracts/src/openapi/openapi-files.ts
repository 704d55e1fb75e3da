import { generateOpenApiDocument } from './generate-openapi';
import { toOpenApi30 } from './openapi-3.0';

/** The 3.0 rendition sits next to the 3.1 document, under this name. */
export const openApi30FileName = 'openapi-3.0.json';

const text = (document: object) => `${JSON.stringify(document, null, 2)}\n`;

/** The text of the OpenAPI 3.1 document and of its 3.0 rendition, as the build writes them. */
export function openApiFileTexts(): { openApi31: string; openApi30: string } {
  const document = generateOpenApiDocument();
  return { openApi31: text(document), openApi30: text(toOpenApi30(document)) };
}
