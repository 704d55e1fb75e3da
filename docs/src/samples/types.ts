/**
 * Request and response examples of the guides. They live in `docs/samples/*.samples.json`,
 * are rendered into the pages at build time and run against a live system by the samples test.
 */

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

export interface SampleVariable {
  /** Value shown in the documentation. */
  display: string;
  /**
   * `unique`: at run time the display value gets a random suffix (names that must be unique).
   * `capture`: set at run time by a sample's `capture` (identifiers the API generates).
   */
  source: 'unique' | 'capture';
}

export interface SampleRequest {
  /** Values of the path template's `{params}`. */
  path?: Record<string, string>;
  /** Query string parameters, in bracket notation where the API uses it (`q[environments_status_in][]`). */
  query?: Record<string, string | string[]>;
  /** A JSON body. */
  json?: JsonObject;
  /** An `application/x-www-form-urlencoded` body. */
  form?: Record<string, string | string[]>;
}

export interface SampleResponse {
  status: number;
  /** The documented body. Strings may hold `{{variables}}`; `null` values accept any value. */
  body: JsonValue;
}

export interface Sample {
  id: string;
  /** `METHOD /path/template` exactly as in the OpenAPI document. */
  operation: string;
  /** `bearer`: sent with the access token of the API key; `none`: no credentials. */
  auth: 'bearer' | 'none';
  request: SampleRequest;
  response: SampleResponse;
  /** Variables set from the response, by dotted path (`domain`, `data.0.id`). */
  capture?: Record<string, string>;
  /** Dotted paths of the response whose documented literal value must be returned exactly. */
  exact?: string[];
  /**
   * Source of the sample's Node SDK variant, `docs/samples/sdk/<id>.ts`, when the SDK has a method
   * for the operation (set by the loader, not written in the JSON file).
   */
  sdk?: string;
}

export interface SampleFile {
  /** File name without `.samples.json`. */
  name: string;
  variables: Record<string, SampleVariable>;
  samples: Sample[];
}

/** Variables every sample can use, filled by the runner. */
export const builtinVariables: Record<string, string> = {
  base_url: '$SESAME_URL',
  client_id: '$CLIENT_ID',
  client_secret: '$CLIENT_SECRET',
  access_token: '$ACCESS_TOKEN',
};
