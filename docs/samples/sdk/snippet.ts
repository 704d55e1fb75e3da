import type { Sesame } from '@sesame/node';

/**
 * A Node SDK sample, `docs/samples/sdk/<sample id>.ts`: `v` holds the sample file's variables
 * (`V` names those the snippet reads). The guides show the body, with the display values of the
 * variables; the e2e tier runs it against the system and checks what it answers (or the
 * `SesameApiError` it throws) like the sample's HTTP response.
 */
export const snippet = <V extends string = never>(run: (sesame: Sesame, v: Readonly<Record<V, string>>) => Promise<unknown>) =>
  run;
