import React from 'react';
import { RedocStandalone } from 'redoc';
import { useTranslation } from '../site/translation';
import { redocOptions, type OpenApiSpec } from '../site/redoc-options';

/** The API reference, rendered by redoc in the browser from the generated OpenAPI document. */
export default function ApiReference({ spec, language }: { spec: OpenApiSpec; language: string }) {
  const { t } = useTranslation();
  return (
    <div className="redoc-container" lang={language}>
      <RedocStandalone key={language} spec={spec} options={redocOptions((key) => t(key))} />
    </div>
  );
}
